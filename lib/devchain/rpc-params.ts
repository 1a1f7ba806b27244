/**
 * Schemas of JSON-RPC params at the trust boundary.
 * Every handler parses its positional params here; a mismatch is a -32602 error, never a throw
 * past the server.
 */
import { z } from 'zod';
import { SOLANA_CORE_VERSION } from './constants';
import { invalidParams } from './errors';
import type { Ledger } from './ledger';
import { isAddress } from './wire';

export const address = z.string().refine(isAddress, 'Invalid param: Invalid');
export const commitment = z.enum([
  'processed',
  'confirmed',
  'finalized',
  'recent',
  'single',
  'singleGossip',
  'root',
  'max',
]);
export const encoding = z.enum(['base64', 'base58', 'jsonParsed', 'binary']);
export const dataSlice = z.object({ offset: z.number().int().min(0), length: z.number().int().min(0) });

export const ctxConfig = z.looseObject({
  commitment: commitment.optional(),
  minContextSlot: z.number().int().min(0).optional(),
});
export const accountConfig = ctxConfig.extend({ encoding: encoding.optional(), dataSlice: dataSlice.optional() });

/** Parses positional params (absent params = empty list) against a tuple schema. */
export function parseParams<T extends z.ZodType>(params: unknown, schema: T): z.infer<T> {
  const list = params === undefined || params === null ? [] : params;
  if (!Array.isArray(list)) throw invalidParams('Invalid params: expected an array of positional params');
  const r = schema.safeParse(list);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue?.path?.length ? ` at ${issue.path.join('.')}` : '';
    throw invalidParams(`Invalid params${where}: ${issue?.message ?? 'invalid'}`);
  }
  return r.data;
}

/** Everything a method handler needs. */
export interface RpcContext {
  ledger: Ledger;
  genesisHash: string;
}

export type Handler = (params: unknown, ctx: RpcContext) => unknown;

/** The `context` object of every RpcResponse<T> ("apiVersion" and "slot"). */
export function context(ctx: RpcContext): { apiVersion: string; slot: number } {
  return { apiVersion: SOLANA_CORE_VERSION, slot: ctx.ledger.slot };
}

export function withContext(
  ctx: RpcContext,
  value: unknown,
): { context: { apiVersion: string; slot: number }; value: unknown } {
  return { context: context(ctx), value };
}
