/**
 * JSON-RPC 2.0 framing shared by HTTP and WebSocket (unknown methods → -32601,
 * malformed JSON → -32700, invalid params → -32602, batches, nothing crashes the server).
 */
import { MAX_BATCH } from './constants';
import { RPC_CODES, RpcError } from './errors';

export type Call = (method: string, params: unknown) => unknown;
export type HasMethod = (method: string) => boolean;

type Id = string | number | null;
interface Response {
  jsonrpc: '2.0';
  id: Id;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

function error(id: Id, code: number, message: string, data?: unknown): Response {
  const err: Response['error'] = { code, message };
  if (data !== undefined) err.data = data;
  return { jsonrpc: '2.0', error: err, id };
}

function one(
  req: unknown,
  call: Call,
  has: HasMethod,
  onInternal: (err: unknown, method: string) => void,
): Response | null {
  if (!req || typeof req !== 'object' || Array.isArray(req))
    return error(null, RPC_CODES.invalidRequest, 'Invalid request');
  const r = req as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
  const idOk =
    r.id === undefined ||
    r.id === null ||
    typeof r.id === 'string' ||
    (typeof r.id === 'number' && Number.isFinite(r.id));
  const id: Id = idOk && r.id !== undefined ? (r.id as Id) : null;
  if (r.jsonrpc !== '2.0' || typeof r.method !== 'string' || !idOk)
    return error(id, RPC_CODES.invalidRequest, 'Invalid request');
  const isNotification = r.id === undefined;
  if (!has(r.method)) return isNotification ? null : error(id, RPC_CODES.methodNotFound, 'Method not found');
  let result: unknown;
  try {
    result = call(r.method, r.params);
  } catch (err) {
    if (isNotification) return null;
    if (err instanceof RpcError) return error(id, err.code, err.message, err.data);
    onInternal(err, r.method);
    return error(id, RPC_CODES.internalError, 'Internal error');
  }
  return isNotification ? null : { jsonrpc: '2.0', result, id };
}

/**
 * Answers one request body: a JSON text, or null when nothing is to be sent back (only
 * notifications). Never throws.
 */
export function handleBody(
  text: string,
  call: Call,
  has: HasMethod,
  onInternal: (err: unknown, method: string) => void,
): string | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return JSON.stringify(error(null, RPC_CODES.parseError, 'Parse error'));
  }
  try {
    if (Array.isArray(body)) {
      if (body.length === 0 || body.length > MAX_BATCH)
        return JSON.stringify(error(null, RPC_CODES.invalidRequest, 'Invalid request'));
      const out = body.map((r) => one(r, call, has, onInternal)).filter((r): r is Response => r !== null);
      return out.length ? JSON.stringify(out) : null;
    }
    const res = one(body, call, has, onInternal);
    return res ? JSON.stringify(res) : null;
  } catch (err) {
    onInternal(err, '(serialize)');
    return JSON.stringify(error(null, RPC_CODES.internalError, 'Internal error'));
  }
}
