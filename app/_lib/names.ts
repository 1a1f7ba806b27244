/**
 * The names the pages show agents by: the SATI names discovery stored as agent labels, read at
 * most every few seconds (every page's layout asks), handed to the browser once per page.
 */
import 'server-only';
import { agentDisplayName } from '../../lib/wire/agent-name';
import type { Services } from './services';

const TTL_MS = 5_000;
const MAX = 5_000;
let cache: { at: number; names: Record<string, string> } | null = null;
let pending: Promise<Record<string, string>> | null = null;

export async function agentNames(o: Services | null | undefined): Promise<Record<string, string>> {
  if (!o) return {};
  if (cache && Date.now() - cache.at < TTL_MS) return cache.names;
  pending ??= o.reads
    .listAgents({ limit: MAX })
    .then((rows) => {
      const names: Record<string, string> = {};
      for (const a of rows) if (a.label) names[Buffer.from(a.id).toString('hex')] = a.label;
      cache = { at: Date.now(), names };
      return names;
    })
    .catch(() => cache?.names ?? {})
    .finally(() => {
      pending = null;
    });
  return pending;
}

/**
 * The one server-side name of an agent (hex id): its SATI name as discovery knows it now, else
 * the SATI name stored as its label, else the label derived from its id (lib/wire/agent-name.ts).
 * Search hits, page titles and the layout's names all read through this.
 */
export async function agentNameResolver(
  o: Services | null | undefined,
): Promise<(hex: string, label?: string | null) => string> {
  const stored = await agentNames(o);
  // `label`: the stored label the caller just read (fresher than the names cached here).
  return (hex: string, label?: string | null) => {
    let live: string | null | undefined = null;
    try {
      live = o?.chain?.satiProfile(Buffer.from(hex, 'hex'))?.name;
    } catch {
      live = null;
    }
    return agentDisplayName(hex, live ?? label ?? stored[hex]);
  };
}
