/**
 * One wallet action through its phases: build with the chain SDK -> simulate (unsigned) -> the
 * wallet signs -> send through the configured JSON-RPC -> confirm -> done, reporting each phase.
 * Confirmation polls getSignatureStatuses: the embedded chain is reached through a same-origin
 * HTTP proxy, which carries no subscriptions. Transactions of one action (e.g. submit challenge,
 * then the evidence buffer's chunks) are signed together (one wallet prompt) and sent in order.
 * No React here; useAction.ts holds the state.
 */
import { Transaction, type Connection, type PublicKey, type TransactionInstruction } from '../../lib/chain';
import { explainTransactionError, isRejection } from './explain';

export type Phase = 'building' | 'built' | 'simulated' | 'awaiting-signature' | 'sent' | 'confirmed' | 'failed' | 'rejected';

export interface PhaseEvent {
  phase: Phase;
  /** Signatures sent so far. */
  signatures: string[];
  /** Failure: the sentence, the program error's name and the program logs. */
  error?: string;
  errorName?: string | null;
  logs?: string[];
}

/** What a built action holds: instruction lists (one per transaction) and extra signers (fresh accounts). */
export interface BuiltAction {
  txs: { ixs: TransactionInstruction[]; partialSigners?: { publicKey: PublicKey; secretKey: Uint8Array }[] }[];
}

export interface RunParams {
  connection: Connection;
  feePayer: PublicKey;
  build: () => Promise<BuiltAction>;
  signAll: (txs: Transaction[]) => Promise<Transaction[]>;
  onPhase: (e: PhaseEvent) => void;
  /** Confirmation polling: interval and limit (ms). */
  pollMs?: number;
  timeoutMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function confirm(connection: Connection, signature: string, pollMs: number, timeoutMs: number): Promise<{ err: unknown } | null> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const s = (await connection.getSignatureStatuses([signature])).value[0];
    if (s && (s.confirmationStatus === 'confirmed' || s.confirmationStatus === 'finalized')) return { err: s.err };
    await sleep(pollMs);
  }
  return null;
}

async function logsOf(connection: Connection, signature: string): Promise<string[]> {
  const t = await connection.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 }).catch(() => null);
  return t?.meta?.logMessages ?? [];
}

/** Runs the action; resolves with the last phase event (confirmed, failed or rejected). */
export async function runAction(p: RunParams): Promise<PhaseEvent> {
  const signatures: string[] = [];
  const emit = (e: Omit<PhaseEvent, 'signatures'>): PhaseEvent => {
    const ev = { ...e, signatures: [...signatures] };
    p.onPhase(ev);
    return ev;
  };
  const fail = (err: unknown, logs: string[] = []) => {
    const x = explainTransactionError(err, logs);
    return emit({ phase: 'failed', error: x.sentence, errorName: x.name, logs });
  };
  try {
    emit({ phase: 'building' });
    const built = await p.build();
    const { blockhash, lastValidBlockHeight } = await p.connection.getLatestBlockhash('confirmed');
    const txs = built.txs.map((t) => {
      const tx = new Transaction({ feePayer: p.feePayer, blockhash, lastValidBlockHeight }).add(...t.ixs);
      if (t.partialSigners?.length) tx.partialSign(...t.partialSigners);
      return tx;
    });
    emit({ phase: 'built' });
    // Later transactions may depend on earlier ones (a buffer created before it is written): only the first is simulated.
    const sim = await p.connection.simulateTransaction(txs[0]);
    if (sim.value.err) return fail(sim.value.err, sim.value.logs ?? []);
    emit({ phase: 'simulated', logs: sim.value.logs ?? [] });
    emit({ phase: 'awaiting-signature' });
    let signed: Transaction[];
    try {
      signed = await p.signAll(txs);
    } catch (e) {
      if (isRejection(e)) return emit({ phase: 'rejected', error: 'You rejected the signature in the wallet: nothing was sent.' });
      throw e;
    }
    for (const tx of signed) {
      let sig: string;
      try {
        sig = await p.connection.sendRawTransaction(tx.serialize(), { preflightCommitment: 'confirmed' });
      } catch (e) {
        const logs = (e as { logs?: string[] }).logs ?? [];
        return fail((e as { transactionError?: unknown })?.transactionError ?? null, logs.length ? logs : [String((e as Error)?.message ?? e)]);
      }
      signatures.push(sig);
      emit({ phase: 'sent' });
      const status = await confirm(p.connection, sig, p.pollMs ?? 400, p.timeoutMs ?? 60_000);
      if (!status) return emit({ phase: 'failed', error: `Not confirmed within ${Math.round((p.timeoutMs ?? 60_000) / 1000)} s; it may still land (signature ${sig}).`, errorName: 'Timeout' });
      if (status.err) return fail(status.err, await logsOf(p.connection, sig));
    }
    return emit({ phase: 'confirmed' });
  } catch (e) {
    return emit({ phase: 'failed', error: String((e as Error)?.message ?? e), errorName: null });
  }
}
