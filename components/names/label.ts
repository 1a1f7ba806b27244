/**
 * Agent names for the pages (the one resolver is lib/wire/agent-name.ts: SATI name, else the
 * label derived from the id) and the short base58 form for tables.
 * Browser-safe.
 */
import { base58 } from '../format';

export { agentDisplayName, agentLabel, labelPrefix } from '../../lib/wire/agent-name';

/** `2sbxV…bRM4`: the base58 id shortened for tables. */
export function shortBase58(hex: string): string {
  const b = base58(hex);
  return b.length > 12 ? `${b.slice(0, 5)}…${b.slice(-4)}` : b;
}
