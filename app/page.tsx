import { LiveOverview } from '../components/LiveOverview';
import { loadOverview } from './_lib/data';
import { NotRunning } from './_lib/not-running';

export const dynamic = 'force-dynamic';

export default async function OverviewPage() {
  const snapshot = await loadOverview();
  if (!snapshot) return <NotRunning />;
  return <LiveOverview snapshot={snapshot} />;
}
