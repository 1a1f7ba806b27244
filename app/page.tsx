import { BrowserNodePanel } from '../components/mesh/BrowserNodePanel';
import { LiveOverview } from '../components/overview/LiveOverview';
import { StatsStrip } from '../components/stats/StatsStrip';
import { loadOverview } from './_lib/data';
import { NotRunning } from './_lib/not-running';
import { getServices } from './_lib/services';
import { loadStatsStrip } from './_lib/stats';

export const dynamic = 'force-dynamic';

export default async function OverviewPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const snapshot = await loadOverview();
  if (!snapshot) return <NotRunning />;
  const sp = await searchParams;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';
  // The feed's filter lives in the URL (?type=&agent=), so a filtered feed can be shared.
  const filter = { type: one(sp.type).slice(0, 32), agent: one(sp.agent).slice(0, 88) };
  // A replay position (?replay=FROM..TO&at=T&speed=S) opens the overview there, paused.
  const replay = { replay: one(sp.replay).slice(0, 80), at: one(sp.at).slice(0, 40), speed: one(sp.speed).slice(0, 4) };
  const o = getServices();
  const strip = o ? await loadStatsStrip(o) : null;
  return (
    <>
      <LiveOverview
        snapshot={snapshot}
        filter={filter}
        replay={replay}
        strip={strip ? <StatsStrip v={strip} /> : null}
      />
      <BrowserNodePanel rpcUrl={getServices()?.chain?.rpcUrl ?? null} sati={getServices()?.chain?.sati ?? null} />
    </>
  );
}
