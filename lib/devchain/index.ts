/**
 * The embedded chain (docs/architecture.md "Embedded defaults, real
 * parts"): litesvm with SPL Token, Token-2022, ATA, Memo and the project's programs,
 * served as Solana JSON-RPC 2.0 over HTTP and PubSub over WebSocket on 127.0.0.1.
 * Server-only (native addon, sockets).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { TOKEN_2022_PROGRAM_ID } from '@solana/spl-token';
import { PublicKey } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import { SATI_MAINNET } from '../chain/sati';
import { DEFAULT_HISTORY_LIMIT, DEFAULT_RPC_PORT, DEFAULT_SLOT_MS, DEFAULT_SNAPSHOT_MS } from './constants';
import { Ledger } from './ledger';
import { type ChainMeta, ChainStore, loadState } from './persist';
import { findProgramBinaries, type ProgramSpec } from './programs';
import { PubSub } from './pubsub';
import { accountMethods } from './rpc-accounts';
import { clusterMethods } from './rpc-cluster';
import { devMethods, isDevMethod } from './rpc-dev';
import type { Handler, RpcContext } from './rpc-params';
import { txMethods } from './rpc-tx';
import { satiGroupMintBytes } from './sati-fixture';
import { type EmbeddedLogger, startRpcServer } from './server';
import { isAddress, toBase58 } from './wire';

export { Ledger } from './ledger';
export type { ProgramSpec } from './programs';
export { findProgramBinaries } from './programs';
export type { EmbeddedLogger } from './server';

/** The standard Solana JSON-RPC methods the chain answers over HTTP (what a browser proxy may forward). */
export const STANDARD_METHODS: readonly string[] = Object.keys({ ...clusterMethods, ...accountMethods, ...txMethods });
/** The development-only methods (rpc-dev.ts); absent when started with `warp: false`. */
export const DEV_METHODS: readonly string[] = Object.keys(devMethods);

/** Options of {@link startEmbeddedChain}. */
export interface EmbeddedChainParams {
  /** TCP port (default 8899; 0 = ephemeral). WebSocket is served on it and on port + 1. */
  port?: number;
  /** Directory for snapshots and history (e.g. `.data/chain`); omitted = in memory only. */
  dataDir?: string;
  /** Programs to load; default: every programs/bin/<name>.so listed in programs/ids.json. */
  programs?: ProgramSpec[];
  /** Where the default program lookup reads (default `<cwd>/programs`). */
  programsDir?: string;
  /**
   * Where the default lookup loads the SATI stand-in (programs/sati_registry): SATI's program id
   * unless set (the configured SATI id of a cluster preset); null leaves it out.
   */
  satiProgram?: string | null;
  /**
   * Writes a SATI group mint at this address when none is there (sati-fixture.ts), run by the
   * registry of `satiProgram`: for an embedded chain that uses SATI's mainnet group address.
   */
  satiGroupMint?: string;
  /** Slot length in ms (default 400). 0 = slots advance only through `tick()`. */
  slotMs?: number;
  /** Transactions kept for history queries (default 100,000). */
  historyLimit?: number;
  /** Snapshot interval in ms when dataDir is set (default 5,000); transactions are logged as they land regardless. */
  snapshotMs?: number;
  /** Also listen on port + 1 (web3.js derives ws://host:PORT+1). Default true. */
  wsCompanion?: boolean;
  logger?: EmbeddedLogger;
  /**
   * Serve the development-only `zerox1_warpSlot` (lib/devchain/README.md "Warp"; default true: this chain exists
   * for development and tests). false leaves it out: -32601 like any unknown method.
   */
  warp?: boolean;
  /** Wall clock (ms); injectable for tests. */
  now?: () => number;
}

/** A running embedded chain. */
export interface EmbeddedChain {
  rpcUrl: string;
  /** PubSub on the same port as rpcUrl. */
  wsUrl: string;
  port: number;
  /** ws://127.0.0.1:port+1 when the companion listener is up (what `new Connection(rpcUrl)` uses). */
  companionWsUrl: string | null;
  /** Direct litesvm access for setup (setAccount, addProgram...). Writes here send no notifications. */
  svm: LiteSVM;
  ledger: Ledger;
  /** The account that funds requestAirdrop. */
  faucet: PublicKey;
  programs: ProgramSpec[];
  /** Advances one slot now (tests with slotMs 0). */
  tick(): void;
  /** Development only: writes an account outside any transaction, telling subscribers (Ledger.writeAccount). */
  writeAccount(address: string, account: { lamports: bigint; data: Uint8Array; owner: string }): void;
  /** Writes a snapshot now (no-op without dataDir). */
  snapshot(): void;
  close(): Promise<void>;
}

const silent: EmbeddedLogger = { info() {}, warn() {}, error() {} };

function checkParams(p: EmbeddedChainParams): void {
  const int = (name: string, v: unknown, min: number, max: number) => {
    if (v !== undefined && (!Number.isSafeInteger(v) || (v as number) < min || (v as number) > max)) {
      throw new RangeError(`${name} must be an integer in [${min}, ${max}]`);
    }
  };
  int('port', p.port, 0, 65534);
  int('slotMs', p.slotMs, 0, 60_000);
  int('historyLimit', p.historyLimit, 1, 10_000_000);
  int('snapshotMs', p.snapshotMs, 100, 3_600_000);
  if (p.warp !== undefined && typeof p.warp !== 'boolean') throw new TypeError('warp must be a boolean');
  if (p.dataDir !== undefined && (typeof p.dataDir !== 'string' || p.dataDir === ''))
    throw new TypeError('dataDir must be a non-empty string');
  if (p.satiProgram !== undefined && p.satiProgram !== null && !isAddress(p.satiProgram))
    throw new TypeError('satiProgram must be a base58 address or null');
  if (p.satiGroupMint !== undefined && !isAddress(p.satiGroupMint))
    throw new TypeError('satiGroupMint must be a base58 address');
  if (p.satiGroupMint !== undefined && p.satiProgram === null)
    throw new TypeError('satiGroupMint needs a SATI program');
  for (const prog of p.programs ?? []) {
    if (!isAddress(prog?.id) || typeof prog.path !== 'string')
      throw new TypeError('programs must be { id: base58 address, path: string }[]');
  }
}

/** Starts litesvm behind a Solana JSON-RPC endpoint; see lib/devchain/README.md. */
export async function startEmbeddedChain(p: EmbeddedChainParams = {}): Promise<EmbeddedChain> {
  checkParams(p);
  const logger = p.logger ?? silent;
  const now = p.now ?? Date.now;
  const historyLimit = p.historyLimit ?? DEFAULT_HISTORY_LIMIT;
  const slotMs = p.slotMs ?? DEFAULT_SLOT_MS;

  const loaded = p.dataDir ? loadState(p.dataDir, historyLimit) : null;
  const ledger = new Ledger({ svm: loaded?.svm, slot: loaded?.meta.slot, historyLimit, now });
  const genesisHash = loaded?.meta.genesisHash ?? toBase58(randomBytes(32));
  const store = p.dataDir
    ? new ChainStore(p.dataDir, historyLimit, (loaded?.history.length ?? 0) + (loaded?.replay.length ?? 0))
    : null;
  // Cold history is read back from the log (history.ts), so restored records leave memory at once.
  if (store) ledger.history.useLog(store);
  if (loaded) {
    loaded.history.forEach((rec, i) => ledger.history.add(rec, loaded.historyRefs[i]));
    ledger.transactionCount = loaded.meta.transactionCount;
    logger.info('embedded chain: restored', { slot: loaded.meta.slot, transactions: loaded.history.length });
  }

  const programs =
    p.programs ?? findProgramBinaries(p.programsDir ?? join(process.cwd(), 'programs'), { satiProgram: p.satiProgram });
  for (const prog of programs) {
    ledger.svm.addProgramFromFile(prog.id as never, prog.path);
    logger.info('embedded chain: program loaded', { id: prog.id, path: prog.path });
  }
  // Transactions confirmed and warps made after the last snapshot (a crash): re-applied in log order (persist.ts).
  if (loaded && (loaded.replay.length || loaded.warps.length)) {
    let differing = 0;
    const warps = [...loaded.warps];
    const warpUpTo = (seq: number) => {
      while (warps.length && warps[0].afterSeq < seq) {
        const w = warps.shift()!;
        if (w.slot > ledger.slot) ledger.warpTo(w.slot);
      }
    };
    loaded.replay.forEach((rec, i) => {
      warpUpTo(rec.seq);
      if (!ledger.replay(rec, loaded.replayRefs[i])) differing++;
    });
    warpUpTo(Infinity);
    logger.info('embedded chain: replayed transactions and warps logged after the snapshot', {
      transactions: loaded.replay.length,
      warps: loaded.warps.length,
      differing,
    });
    if (differing) logger.warn('embedded chain: replayed transactions ended differently than recorded', { differing });
  }

  if (p.satiGroupMint && !ledger.svm.getAccount(p.satiGroupMint as never).exists) {
    const data = satiGroupMintBytes(
      new PublicKey(p.satiGroupMint),
      new PublicKey(p.satiProgram ?? SATI_MAINNET.program.toBase58()),
    );
    ledger.svm.setAccount({
      address: p.satiGroupMint as never,
      lamports: ledger.svm.minimumBalanceForRentExemption(BigInt(data.length)) as never,
      data,
      programAddress: TOKEN_2022_PROGRAM_ID.toBase58() as never,
      executable: false,
      space: BigInt(data.length),
    } as never);
    logger.info('embedded chain: SATI group mint fixture written', { address: p.satiGroupMint });
  }

  if (store) ledger.onTx((rec) => ledger.history.locate(rec.signature, store.append(rec)));
  if (store) ledger.onWarp((slot) => store.appendWarp({ slot, afterSeq: ledger.history.lastSeq }));
  const meta = (): ChainMeta => ({
    version: 1,
    slot: ledger.slot,
    lastSeq: ledger.history.lastSeq,
    transactionCount: ledger.transactionCount,
    genesisHash,
    savedAt: now(),
  });
  const snapshot = () => store?.snapshot(ledger.svm, meta(), () => ledger.history.logEntries());

  const ctx: RpcContext = { ledger, genesisHash };
  const methods: Record<string, Handler> = {
    ...clusterMethods,
    ...accountMethods,
    ...txMethods,
    ...(p.warp === false ? {} : devMethods),
  };
  const pubsub = new PubSub(ctx);
  const server = await startRpcServer({
    port: p.port ?? DEFAULT_RPC_PORT,
    companion: p.wsCompanion ?? true,
    call: (m, params) => methods[m](params, ctx),
    has: (m) => Object.hasOwn(methods, m),
    refusedToBrowsers: isDevMethod,
    pubsub,
    logger,
  });

  const timers: NodeJS.Timeout[] = [];
  if (slotMs > 0) timers.push(setInterval(() => ledger.tick(), slotMs));
  if (store) {
    timers.push(
      setInterval(() => {
        try {
          snapshot();
        } catch (err) {
          logger.error('embedded chain: snapshot failed', { err: String(err) });
        }
      }, p.snapshotMs ?? DEFAULT_SNAPSHOT_MS),
    );
  }
  if (store) snapshot();

  const host = `127.0.0.1:${server.port}`;
  logger.info('embedded chain: listening', { rpcUrl: `http://${host}`, programs: programs.length });
  let closed = false;
  return {
    rpcUrl: `http://${host}`,
    wsUrl: `ws://${host}`,
    port: server.port,
    companionWsUrl: server.companionPort ? `ws://127.0.0.1:${server.companionPort}` : null,
    svm: ledger.svm,
    ledger,
    faucet: ledger.faucet,
    programs,
    tick: () => ledger.tick(),
    writeAccount: (address, account) => ledger.writeAccount(address, account),
    snapshot: () => void snapshot(),
    async close() {
      if (closed) return;
      closed = true;
      for (const t of timers) clearInterval(t);
      pubsub.stop();
      await server.close();
      snapshot();
      store?.close();
    },
  };
}
