/**
 * lib/store/stats: rollups of the economy over time (lib/store/stats/README.md).
 * StatsPort: fold what ingest left pending, read one metric's series.
 */
import 'server-only';
import type { StatsSeries } from '../../wire/stats';
import type { PortContext } from '../engine/port';
import type { StatsFolder } from './folder';
import { type StatsSeriesParams, statsSeries } from './stats';

export { STATS_FOLD_MS, type StatsFolder, statsFolder } from './folder';
export type { StatsSeriesParams } from './stats';

export interface StatsPort {
  /** Adds the stats ingest left pending to the rollups now (stats.ts foldStats); the rows folded. */
  foldStats(): Promise<number>;
  /** One metric of the economy over time from the rollups (stats.ts). */
  statsSeries(p: StatsSeriesParams): Promise<StatsSeries>;
}

export function statsPort({ db, live }: PortContext, folder: StatsFolder): StatsPort {
  return {
    foldStats: () => live(() => (folder.rollups ? folder.fold() : Promise.resolve(0))),
    statsSeries: (p) =>
      live(async () => {
        if (folder.due()) await folder.fold();
        return statsSeries(db, p);
      }),
  };
}
