/**
 * A page's searchParams as the flat string record the API's query schemas check, so a page with
 * filters and the matching GET /api route accept exactly the same URL parameters.
 */
export type SearchParams = Record<string, string | string[] | undefined>;

/** First value of each parameter; empty values dropped (an empty form field means "any"). */
export function flatParams(sp: SearchParams): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const [k, v] of Object.entries(sp)) {
    const s = Array.isArray(v) ? v[0] : v;
    if (s !== undefined && s !== '') raw[k] = s;
  }
  return raw;
}

/** `path?…` with `raw` and `extra` merged (undefined in `extra` removes a parameter). */
export function withParams(
  path: string,
  raw: Record<string, string>,
  extra: Record<string, string | undefined> = {},
): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...raw, ...extra })) if (v !== undefined) u.set(k, v);
  const q = u.toString();
  return q ? `${path}?${q}` : path;
}
