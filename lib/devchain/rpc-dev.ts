/**
 * Development-only JSON-RPC methods of the embedded chain, outside Solana's API and named with a
 * `zerox1_` prefix so no client mistakes them for it (lib/devchain/README.md "Warp"). They exist
 * only here: a real cluster has no such method, the same-origin browser proxy
 * (app/api/chain/rpc) forwards only standard Solana methods, and the chain's own port refuses
 * them to requests a browser sent (an Origin header), so a web page cannot move the chain's time.
 */
import { z } from 'zod';
import { invalidParams } from './errors';
import type { Handler } from './rpc-params';

/** Largest single jump: ten million slots (about 46 days at 400 ms), far past any delay we test. */
export const MAX_WARP_SLOTS = 10_000_000;

const warpParams = z.union([
  z.strictObject({ slot: z.number().int().min(0) }),
  z.tuple([z.strictObject({ slot: z.number().int().min(0) })]),
]);

export const devMethods: Record<string, Handler> = {
  /** `{ slot }` (by name, or `[{ slot }]`): jumps to that slot; answers `{ previousSlot, slot, epoch }`. */
  zerox1_warpSlot(params, ctx) {
    const r = warpParams.safeParse(params);
    if (!r.success) throw invalidParams('Invalid params: expected {"slot": integer} (the slot to warp to)');
    const { slot } = Array.isArray(r.data) ? r.data[0] : r.data;
    const previousSlot = ctx.ledger.slot;
    if (slot <= previousSlot)
      throw invalidParams(
        `Invalid params: slot ${slot} is not after the current slot ${previousSlot} (a warp only moves forward)`,
      );
    if (slot - previousSlot > MAX_WARP_SLOTS)
      throw invalidParams(
        `Invalid params: slot ${slot} is more than ${MAX_WARP_SLOTS} slots after the current slot ${previousSlot}`,
      );
    ctx.ledger.warpTo(slot);
    const slotsPerEpoch = Number(ctx.ledger.raw.getEpochSchedule().slotsPerEpoch);
    return { previousSlot, slot, epoch: Math.floor(slot / slotsPerEpoch) };
  },
};

/** Whether `method` is one of the development-only methods above. */
export const isDevMethod = (method: string): boolean => Object.hasOwn(devMethods, method);
