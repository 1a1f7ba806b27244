import { LiveOverview } from '../components/LiveOverview';
import { loadOverview } from './_lib/data';
import { NotRunning } from './_lib/not-running';
import { getServices } from './_lib/services';
import { BrowserNodePanel } from '../components/mesh/BrowserNodePanel';

export const dynamic = 'force-dynamic';

export default async function OverviewPage() {
  const snapshot = await loadOverview();
  if (!snapshot) return <NotRunning />;
  return (
    <>
      <LiveOverview snapshot={snapshot} />
      <BrowserNodePanel rpcUrl={getServices()?.chain?.rpcUrl ?? null} />
    </>
  );
}
