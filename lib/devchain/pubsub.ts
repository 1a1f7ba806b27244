/**
 * Solana PubSub over WebSocket: signatureSubscribe, logsSubscribe
 * (all / mentions), accountSubscribe, programSubscribe, slotSubscribe and their unsubscribes,
 * with notifications shaped as Agave sends them. Every commitment is met at once: a
 * transaction is final when it executes.
 */
import { z } from 'zod';
import { type AccountEncoding, type AccountFilter, encodeAccount, matchesFilters, parseFilters } from './accounts';
import { RENT_EPOCH_EXEMPT, SYSTEM_PROGRAM_ID } from './constants';
import { invalidParams } from './errors';
import type { TxRecord } from './history';
import { address, commitment, ctxConfig, encoding, parseParams, type RpcContext } from './rpc-params';

type Send = (msg: unknown) => void;

interface SubBase {
  id: number;
  send: Send;
}
type Sub =
  | (SubBase & { kind: 'signature'; sig: string })
  | (SubBase & { kind: 'logs'; mentions: string | null })
  | (SubBase & { kind: 'account'; address: string; encoding: AccountEncoding })
  | (SubBase & { kind: 'program'; program: string; encoding: AccountEncoding; filters: AccountFilter[] })
  | (SubBase & { kind: 'slot' });

const NOTIFICATION: Record<Sub['kind'], string> = {
  signature: 'signatureNotification',
  logs: 'logsNotification',
  account: 'accountNotification',
  program: 'programNotification',
  slot: 'slotNotification',
};

/** One WebSocket client's view: subscribe/unsubscribe methods and cleanup on close. */
export interface PubSubConnection {
  call(method: string, params: unknown): unknown;
  readonly methods: ReadonlySet<string>;
  close(): void;
}

const METHODS = new Set([
  'signatureSubscribe',
  'signatureUnsubscribe',
  'logsSubscribe',
  'logsUnsubscribe',
  'accountSubscribe',
  'accountUnsubscribe',
  'programSubscribe',
  'programUnsubscribe',
  'slotSubscribe',
  'slotUnsubscribe',
]);

/** Subscription registry fed by the ledger's transaction and slot events. */
export class PubSub {
  private nextId = 1;
  private readonly all = new Map<number, Sub>();
  private readonly bySig = new Map<string, Set<Sub>>();
  private readonly byAccount = new Map<string, Set<Sub>>();
  private readonly byProgram = new Map<string, Set<Sub>>();
  private readonly logs = new Set<Sub & { kind: 'logs' }>();
  private readonly slots = new Set<Sub>();
  private readonly off: (() => void)[];

  constructor(private readonly ctx: RpcContext) {
    this.off = [
      ctx.ledger.onTx((rec, writable) => this.onTx(rec, writable)),
      ctx.ledger.onSlot((s) => this.onSlot(s)),
      ctx.ledger.onWrite((keys) => this.onAccounts({ slot: ctx.ledger.slot }, keys)),
    ];
  }

  get size(): number {
    return this.all.size;
  }

  /** Opens a connection whose notifications go through `send`. */
  connect(send: Send): PubSubConnection {
    const mine = new Set<number>();
    return {
      methods: METHODS,
      call: (method, params) => this.call(method, params, send, mine),
      close: () => {
        for (const id of mine) this.remove(id);
        mine.clear();
      },
    };
  }

  stop(): void {
    for (const f of this.off) f();
  }

  private call(method: string, params: unknown, send: Send, mine: Set<number>): unknown {
    if (method.endsWith('Unsubscribe')) {
      const [id] = parseParams(params, z.tuple([z.number().int()]));
      const sub = this.all.get(id);
      if (!sub || !mine.has(id) || `${sub.kind}Unsubscribe` !== method) throw invalidParams('Invalid subscription id.');
      this.remove(id);
      mine.delete(id);
      return true;
    }
    const id = this.nextId++;
    const base = { id, send };
    let sub: Sub;
    switch (method) {
      case 'signatureSubscribe': {
        const [sig] = parseParams(
          params,
          z.tuple([
            z.string().min(64).max(88),
            ctxConfig.extend({ enableReceivedNotification: z.boolean().optional() }).optional(),
          ]),
        );
        sub = { ...base, kind: 'signature', sig };
        const rec = this.ctx.ledger.history.status(sig);
        if (rec) {
          setImmediate(() => this.notify(sub, { context: { slot: rec.slot }, value: { err: rec.err } }));
          return id;
        }
        break;
      }
      case 'logsSubscribe': {
        const filter = z.union([z.enum(['all', 'allWithVotes']), z.strictObject({ mentions: z.tuple([address]) })]);
        const [f] = parseParams(
          params,
          z.tuple([filter, z.looseObject({ commitment: commitment.optional() }).optional()]),
        );
        sub = { ...base, kind: 'logs', mentions: typeof f === 'string' ? null : f.mentions[0] };
        break;
      }
      case 'accountSubscribe': {
        const [addr, cfg] = parseParams(
          params,
          z.tuple([address, ctxConfig.extend({ encoding: encoding.optional() }).optional()]),
        );
        sub = { ...base, kind: 'account', address: addr, encoding: cfg?.encoding ?? 'base58' };
        break;
      }
      case 'programSubscribe': {
        const cfgSchema = ctxConfig.extend({ encoding: encoding.optional(), filters: z.unknown().optional() });
        const [program, cfg] = parseParams(params, z.tuple([address, cfgSchema.optional()]));
        sub = {
          ...base,
          kind: 'program',
          program,
          encoding: cfg?.encoding ?? 'base58',
          filters: parseFilters(cfg?.filters),
        };
        break;
      }
      case 'slotSubscribe':
        parseParams(params, z.tuple([]));
        sub = { ...base, kind: 'slot' };
        break;
      default:
        throw invalidParams(`unknown subscription method ${method}`);
    }
    this.add(sub);
    mine.add(id);
    return id;
  }

  private add(sub: Sub): void {
    this.all.set(sub.id, sub);
    if (sub.kind === 'signature') addTo(this.bySig, sub.sig, sub);
    else if (sub.kind === 'account') addTo(this.byAccount, sub.address, sub);
    else if (sub.kind === 'program') addTo(this.byProgram, sub.program, sub);
    else if (sub.kind === 'logs') this.logs.add(sub);
    else this.slots.add(sub);
  }

  private remove(id: number): void {
    const sub = this.all.get(id);
    if (!sub) return;
    this.all.delete(id);
    if (sub.kind === 'signature') removeFrom(this.bySig, sub.sig, sub);
    else if (sub.kind === 'account') removeFrom(this.byAccount, sub.address, sub);
    else if (sub.kind === 'program') removeFrom(this.byProgram, sub.program, sub);
    else if (sub.kind === 'logs') this.logs.delete(sub);
    else this.slots.delete(sub);
  }

  private notify(sub: Sub, result: unknown): void {
    try {
      sub.send({ jsonrpc: '2.0', method: NOTIFICATION[sub.kind], params: { result, subscription: sub.id } });
    } catch {
      // a closed socket: its connection cleanup removes the subscription
    }
  }

  private onTx(rec: TxRecord, writable: string[]): void {
    const ctx = { slot: rec.slot };
    const sigSubs = this.bySig.get(rec.signature);
    if (sigSubs) {
      this.bySig.delete(rec.signature);
      for (const s of sigSubs) {
        this.all.delete(s.id);
        this.notify(s, { context: ctx, value: { err: rec.err } });
      }
    }
    if (this.logs.size) {
      const value = { signature: rec.signature, err: rec.err, logs: rec.logs };
      for (const s of this.logs) {
        if (s.mentions === null || rec.accountKeys.includes(s.mentions)) this.notify(s, { context: ctx, value });
      }
    }
    this.onAccounts(ctx, writable);
  }

  /** Account and program subscribers of the accounts just written. */
  private onAccounts(ctx: { slot: number }, writable: string[]): void {
    if (this.byAccount.size === 0 && this.byProgram.size === 0) return;
    const { ledger } = this.ctx;
    for (const key of writable) {
      const accSubs = this.byAccount.get(key);
      const acc = accSubs || this.byProgram.size ? ledger.readAccount(key) : null;
      if (accSubs) {
        for (const s of accSubs) {
          if (s.kind !== 'account') continue;
          const value = acc ? encodeAccount(acc, s.encoding, undefined, ledger.decimalsOf) : closedAccount(s.encoding);
          this.notify(s, { context: ctx, value });
        }
      }
      const progSubs = acc ? this.byProgram.get(acc.owner) : undefined;
      if (acc && progSubs) {
        for (const s of progSubs) {
          if (s.kind !== 'program' || !matchesFilters(acc.data, s.filters)) continue;
          this.notify(s, {
            context: ctx,
            value: { pubkey: key, account: encodeAccount(acc, s.encoding, undefined, ledger.decimalsOf) },
          });
        }
      }
    }
  }

  private onSlot(slot: number): void {
    if (!this.slots.size) return;
    const result = { parent: Math.max(0, slot - 1), root: slot, slot };
    for (const s of this.slots) this.notify(s, result);
  }
}

function closedAccount(enc: AccountEncoding) {
  return {
    data: enc === 'base58' ? ['', 'base58'] : ['', 'base64'],
    executable: false,
    lamports: 0,
    owner: SYSTEM_PROGRAM_ID,
    rentEpoch: RENT_EPOCH_EXEMPT,
    space: 0,
  };
}

function addTo(map: Map<string, Set<Sub>>, key: string, sub: Sub): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(sub);
}

function removeFrom(map: Map<string, Set<Sub>>, key: string, sub: Sub): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(sub);
  if (set.size === 0) map.delete(key);
}
