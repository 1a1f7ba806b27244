/**
 * Account-reading JSON-RPC methods: getAccountInfo,
 * getMultipleAccounts, getBalance, getProgramAccounts, getTokenAccountBalance,
 * getTokenAccountsByOwner/Delegate, getTokenSupply, getMinimumBalanceForRentExemption.
 * getProgramAccounts scans litesvm's accounts by owner (litesvm 1.5 exposes that scan).
 */
import { z } from 'zod';
import {
  type AccountView,
  decodeMint,
  decodeTokenAccount,
  encodeAccount,
  isMint,
  isTokenAccount,
  isTokenProgram,
  matchesFilters,
  parseFilters,
  uiTokenAmount,
} from './accounts';
import { MAX_MULTIPLE_ACCOUNTS, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from './constants';
import { invalidParams } from './errors';
import {
  accountConfig,
  address,
  ctxConfig,
  type Handler,
  parseParams,
  type RpcContext,
  withContext,
} from './rpc-params';
import { fromBase58, toBase58 } from './wire';

function ui(
  ctx: RpcContext,
  acc: AccountView | null,
  cfg: z.infer<typeof accountConfig> | undefined,
  dflt: 'base58' | 'base64',
) {
  if (!acc) return null;
  return encodeAccount(acc, cfg?.encoding ?? dflt, cfg?.dataSlice, ctx.ledger.decimalsOf);
}

/** Keyed accounts owned by `program` that pass `keep`, in litesvm's order. */
export function programAccounts(
  ctx: RpcContext,
  program: string,
  keep: (acc: AccountView) => boolean,
): { pubkey: string; acc: AccountView }[] {
  const pid = fromBase58(program) as Uint8Array;
  const out: { pubkey: string; acc: AccountView }[] = [];
  for (const aa of ctx.ledger.raw.getProgramAccounts(pid)) {
    const a = aa.account();
    const lamports = a.lamports();
    if (lamports === 0n) continue;
    const acc: AccountView = { lamports, data: a.data(), owner: program, executable: a.executable() };
    if (keep(acc)) out.push({ pubkey: toBase58(aa.address), acc });
  }
  return out;
}

const programAccountsConfig = accountConfig.extend({
  filters: z.unknown().optional(),
  withContext: z.boolean().optional(),
});
const tokenFilter = z.union([z.strictObject({ mint: address }), z.strictObject({ programId: address })]);

function tokenAccountsBy(field: 'owner' | 'delegate'): Handler {
  return (params, ctx) => {
    const [who, filter, cfg] = parseParams(params, z.tuple([address, tokenFilter, accountConfig.optional()]));
    let programs = [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID];
    let mint: string | undefined;
    if ('programId' in filter) {
      if (!isTokenProgram(filter.programId)) throw invalidParams('Invalid param: unrecognized Token program id');
      programs = [filter.programId];
    } else {
      const m = ctx.ledger.readAccount(filter.mint);
      if (!m || !isMint(m)) throw invalidParams('Invalid param: not a Token mint');
      programs = [m.owner];
      mint = filter.mint;
    }
    const value = programs.flatMap((p) =>
      programAccounts(ctx, p, (acc) => {
        if (!isTokenAccount(acc)) return false;
        const t = decodeTokenAccount(acc.data);
        return (field === 'owner' ? t.owner === who : t.delegate === who) && (mint === undefined || t.mint === mint);
      }).map(({ pubkey, acc }) => ({ pubkey, account: ui(ctx, acc, cfg, 'base58') })),
    );
    return withContext(ctx, value);
  };
}

export const accountMethods: Record<string, Handler> = {
  getAccountInfo(params, ctx) {
    const [addr, cfg] = parseParams(params, z.tuple([address, accountConfig.optional()]));
    return withContext(ctx, ui(ctx, ctx.ledger.readAccount(addr), cfg, 'base58'));
  },

  getMultipleAccounts(params, ctx) {
    const [addrs, cfg] = parseParams(
      params,
      z.tuple([z.array(address).max(MAX_MULTIPLE_ACCOUNTS), accountConfig.optional()]),
    );
    return withContext(
      ctx,
      addrs.map((a) => ui(ctx, ctx.ledger.readAccount(a), cfg, 'base58')),
    );
  },

  getBalance(params, ctx) {
    const [addr] = parseParams(params, z.tuple([address, ctxConfig.optional()]));
    return withContext(ctx, Number(ctx.ledger.readAccount(addr)?.lamports ?? 0n));
  },

  getProgramAccounts(params, ctx) {
    const [program, cfg] = parseParams(params, z.tuple([address, programAccountsConfig.optional()]));
    const filters = parseFilters(cfg?.filters);
    const value = programAccounts(ctx, program, (acc) => matchesFilters(acc.data, filters)).map(({ pubkey, acc }) => ({
      pubkey,
      account: ui(ctx, acc, cfg, 'base58'),
    }));
    return cfg?.withContext ? withContext(ctx, value) : value;
  },

  getTokenAccountBalance(params, ctx) {
    const [addr] = parseParams(params, z.tuple([address, ctxConfig.optional()]));
    const acc = ctx.ledger.readAccount(addr);
    if (!acc || !isTokenAccount(acc)) throw invalidParams('Invalid param: could not find account');
    const t = decodeTokenAccount(acc.data);
    const decimals = ctx.ledger.decimalsOf(t.mint);
    if (decimals === null) throw invalidParams('Invalid param: could not find mint');
    return withContext(ctx, uiTokenAmount(t.amount, decimals));
  },

  getTokenSupply(params, ctx) {
    const [addr] = parseParams(params, z.tuple([address, ctxConfig.optional()]));
    const acc = ctx.ledger.readAccount(addr);
    if (!acc || !isMint(acc)) throw invalidParams('Invalid param: not a Token mint');
    const m = decodeMint(acc.data);
    return withContext(ctx, uiTokenAmount(m.supply, m.decimals));
  },

  getTokenAccountsByOwner: tokenAccountsBy('owner'),
  getTokenAccountsByDelegate: tokenAccountsBy('delegate'),

  getMinimumBalanceForRentExemption(params, ctx) {
    const [len] = parseParams(
      params,
      z.tuple([
        z
          .number()
          .int()
          .min(0)
          .max(10 * 1024 * 1024),
        ctxConfig.optional(),
      ]),
    );
    return Number(ctx.ledger.raw.minimumBalanceForRentExemption(BigInt(len)));
  },
};
