/**
 * A first check of the request target, before Next sees it. Next decodes dynamic path segments
 * with decodeURIComponent and answers a malformed percent-encoding (`/agents/%ff%fe`) with a 500;
 * a bad URL is bad input like any other, so it is refused here with a 400 naming the problem.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What is wrong with a request target's path, or null when it decodes. */
export function requestTargetProblem(target: string | undefined): string | null {
  if (!target) return 'the request has no target';
  const q = target.search(/[?#]/);
  const path = q < 0 ? target : target.slice(0, q);
  try {
    decodeURIComponent(path);
  } catch {
    return 'malformed percent-encoding in the path (each % must start a UTF-8 byte sequence such as %20)';
  }
  return null;
}

/** Answers 400 with a JSON `{ error }` body (the API's error shape) when the target is bad; true if it did. */
export function refuseBadTarget(req: IncomingMessage, res: ServerResponse): boolean {
  const problem = requestTargetProblem(req.url);
  if (problem === null) return false;
  res.writeHead(400, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ error: problem }));
  return true;
}
