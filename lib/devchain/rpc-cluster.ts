/**
 * Cluster-level JSON-RPC methods: version, health, slot, block
 * height, epoch info, blockhashes, genesis hash and a few cheap extras wallets call.
 */
import { z } from 'zod';
import { FEATURE_SET, SOLANA_CORE_VERSION } from './constants';
import { ctxConfig, type Handler, parseParams, withContext } from './rpc-params';

const noArgs = z.tuple([ctxConfig.optional()]);

export const clusterMethods: Record<string, Handler> = {
  getVersion: (params) => (
    parseParams(params, z.tuple([])), { 'solana-core': SOLANA_CORE_VERSION, 'feature-set': FEATURE_SET }
  ),
  getHealth: (params) => (parseParams(params, z.tuple([])), 'ok'),
  getGenesisHash: (params, ctx) => (parseParams(params, z.tuple([])), ctx.genesisHash),
  getIdentity: (params, ctx) => (parseParams(params, z.tuple([])), { identity: ctx.ledger.faucet.toBase58() }),
  getSlot: (params, ctx) => (parseParams(params, noArgs), ctx.ledger.slot),
  getBlockHeight: (params, ctx) => (parseParams(params, noArgs), ctx.ledger.slot),
  getTransactionCount: (params, ctx) => (parseParams(params, noArgs), ctx.ledger.transactionCount),
  minimumLedgerSlot: (params) => (parseParams(params, z.tuple([])), 0),
  getFirstAvailableBlock: (params) => (parseParams(params, z.tuple([])), 0),
  getSlotLeader: (params, ctx) => (parseParams(params, noArgs), ctx.ledger.faucet.toBase58()),

  getEpochInfo(params, ctx) {
    parseParams(params, noArgs);
    const slotsInEpoch = Number(ctx.ledger.raw.getEpochSchedule().slotsPerEpoch);
    const slot = ctx.ledger.slot;
    return {
      absoluteSlot: slot,
      blockHeight: slot,
      epoch: Math.floor(slot / slotsInEpoch),
      slotIndex: slot % slotsInEpoch,
      slotsInEpoch,
      transactionCount: ctx.ledger.transactionCount,
    };
  },

  getEpochSchedule(params, ctx) {
    parseParams(params, z.tuple([]));
    const s = ctx.ledger.raw.getEpochSchedule();
    return {
      slotsPerEpoch: Number(s.slotsPerEpoch),
      leaderScheduleSlotOffset: Number(s.leaderScheduleSlotOffset),
      warmup: s.warmup,
      firstNormalEpoch: Number(s.firstNormalEpoch),
      firstNormalSlot: Number(s.firstNormalSlot),
    };
  },

  getLatestBlockhash(params, ctx) {
    parseParams(params, noArgs);
    return withContext(ctx, ctx.ledger.latestBlockhash());
  },

  isBlockhashValid(params, ctx) {
    const [bh] = parseParams(params, z.tuple([z.string().max(44), ctxConfig.optional()]));
    return withContext(ctx, ctx.ledger.isBlockhashValid(bh));
  },
};
