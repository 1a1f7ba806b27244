/**
 * /alerts: this browser's watchlist, its alerts, rules and webhooks. The list's key lives in the
 * browser (localStorage), so everything past the filters is read there (components/alerts).
 */
import type { Metadata } from 'next';
import { AlertsView } from '../../components/alerts/AlertsView';
import { filtersOf } from '../../components/alerts/filters';
import { flatParams, type SearchParams } from '../_lib/query-string';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Alerts' };

export default async function AlertsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return <AlertsView initial={filtersOf(flatParams(await searchParams))} />;
}
