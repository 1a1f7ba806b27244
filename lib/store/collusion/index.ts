/**
 * lib/store/collusion: collusion signals over a bounded window of recent rows
 * (lib/store/collusion/README.md). CollusionPort: one read.
 */
import 'server-only';
import type { PortContext } from '../engine/port';
import { type CollusionParams, type CollusionRows, collusionSignals } from './collusion';

export {
  type CollusionParams,
  type CollusionRows,
  type ConcentrationRow,
  DEFAULT_WINDOW,
  type DeallessRow,
  MAX_WINDOW,
  MIN_DEALS,
  type NotaryReuseRow,
  type ReciprocalPairRow,
  type ReciprocalRow,
  type WindowRead,
} from './collusion';

export interface CollusionPort {
  /** Collusion signals per agent over a bounded window of recent rows; see collusion.ts. */
  collusionSignals(p?: CollusionParams): Promise<CollusionRows>;
}

export function collusionPort({ db, live }: PortContext): CollusionPort {
  return { collusionSignals: (p) => live(() => collusionSignals(db, p)) };
}
