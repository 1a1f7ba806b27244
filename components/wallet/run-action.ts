/**
 * One wallet action through its phases: build with the chain SDK -> preview (check the wallet's
 * SOL, simulate unsigned, summarize the balance changes: preview.ts) -> the person confirms the
 * preview -> the wallet signs -> send through the configured JSON-RPC -> confirm -> done,
 * reporting each phase. Nothing reaches the wallet before the preview is confirmed, and a failed
 * check or simulation says that nothing was sent and no fee was paid.
 * Confirmation polls getSignatureStatuses: the embedded chain is reached through a same-origin
 * HTTP proxy, which carries no subscriptions. Transactions of one action (e.g. submit challenge,
 * then the evidence buffer's chunks) are signed together (one wallet prompt) and sent in order.
 * No React here; useAction.ts holds the state.
 */
import {
  ComputeBudgetProgram,
  type Connection,
  type PublicKey,
  Transaction,
  type TransactionInstruction,
} from '../../lib/chain';
import { explainTransactionError, isRejection } from './explain';
import { sol } from './format';
import { computePreview, type Preview, type PreviewHints } from './preview';

export type Phase =
  | 'building'
  | 'built'
  | 'simulated'
  | 'awaiting-signature'
  | 'sent'
  | 'confirmed'
  | 'failed'
  | 'rejected'
  | 'cancelled';

export interface PhaseEvent {
  phase: Phase;
  /** Signatures sent so far. */
  signatures: string[];
  /** Failure: the sentence, the program error's name and the program logs. */
  error?: string;
  errorName?: string | null;
  logs?: string[];
  /** From 'simulated' on: what the action does to the wallet. */
  preview?: Preview;
  /** After confirmation: the outcome in words, read from the chain. */
  outcome?: string | null;
  /** True when the failure happened before anything was sent (no fee was paid). */
  nothingSent?: boolean;
}

/**
 * What a built action holds: instruction lists (one per transaction) and extra signers (fresh accounts), plus hints for
 * the preview.
 */
export interface BuiltAction extends PreviewHints {
  /** Read after confirmation: the outcome in words (e.g. a challenge won or lost, and what moved). */
  after?: () => Promise<string | null>;
  txs: { ixs: TransactionInstruction[]; partialSigners?: { publicKey: PublicKey; secretKey: Uint8Array }[] }[];
}

export interface RunParams {
  connection: Connection;
  feePayer: PublicKey;
  /** The fee payer's USDC account (its change is previewed); null when the deployment is unknown. */
  usdcAccount: PublicKey | null;
  build: () => Promise<BuiltAction>;
  /** Asked with the preview; false cancels (nothing is sent). */
  confirm: (p: Preview) => Promise<boolean>;
  signAll: (txs: Transaction[]) => Promise<Transaction[]>;
  onPhase: (e: PhaseEvent) => void;
  /** Priority fee in micro-lamports per compute unit (a cluster's setting; 0 or absent: none). */
  priorityMicroLamports?: number;
  /** Confirmation polling: interval and limit (ms). */
  pollMs?: number;
  timeoutMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const NOTHING_SENT = 'Nothing was sent and no fee was paid.';

async function confirm(
  connection: Connection,
  signature: string,
  pollMs: number,
  timeoutMs: number,
): Promise<{ err: unknown } | null> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const s = (await connection.getSignatureStatuses([signature])).value[0];
    if (s && (s.confirmationStatus === 'confirmed' || s.confirmationStatus === 'finalized')) return { err: s.err };
    await sleep(pollMs);
  }
  return null;
}

async function logsOf(connection: Connection, signature: string): Promise<string[]> {
  const t = await connection
    .getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 })
    .catch(() => null);
  return t?.meta?.logMessages ?? [];
}

/** Runs the action; resolves with the last phase event (confirmed, failed, rejected or cancelled). */
export async function runAction(p: RunParams): Promise<PhaseEvent> {
  const signatures: string[] = [];
  let preview: Preview | undefined;
  const emit = (e: Omit<PhaseEvent, 'signatures'>): PhaseEvent => {
    const ev = { preview, ...e, signatures: [...signatures] };
    p.onPhase(ev);
    return ev;
  };
  const fail = (err: unknown, logs: string[] = [], before = false) => {
    const x = explainTransactionError(err, logs);
    return emit({
      phase: 'failed',
      error: before ? `${NOTHING_SENT} ${x.sentence}` : x.sentence,
      errorName: x.name,
      logs,
      nothingSent: before,
    });
  };
  try {
    emit({ phase: 'building' });
    const built = await p.build();
    const make = async () => {
      const { blockhash, lastValidBlockHeight } = await p.connection.getLatestBlockhash('confirmed');
      const price = p.priorityMicroLamports ?? 0;
      return built.txs.map((t) => {
        const plain = () => new Transaction({ feePayer: p.feePayer, blockhash, lastValidBlockHeight }).add(...t.ixs);
        let tx = plain();
        if (price > 0) {
          const priced = new Transaction({ feePayer: p.feePayer, blockhash, lastValidBlockHeight }).add(
            ComputeBudgetProgram.setComputeUnitPrice({ microLamports: price }),
            ...t.ixs,
          );
          // A full evidence chunk leaves no room for the price instruction: that transaction goes without it.
          const sigs = 1 + (t.partialSigners?.length ?? 0);
          if (priced.serializeMessage().length + 1 + 64 * sigs <= 1232) tx = priced;
        }
        if (t.partialSigners?.length) tx.partialSign(...t.partialSigners);
        return tx;
      });
    };
    let txs = await make();
    emit({ phase: 'built' });
    // Later transactions may depend on earlier ones (a buffer created before it is written): the
    // first is simulated, the others are accounted from their instructions (preview.ts).
    const r = await computePreview(p.connection, p.feePayer, p.usdcAccount, txs, built);
    if (!r.ok && r.kind === 'too-little-sol') {
      return emit({
        phase: 'failed',
        errorName: 'TooLittleSol',
        nothingSent: true,
        error:
          `${NOTHING_SENT} Too little SOL: this action needs ${sol(r.need)}` +
          ` SOL (fees ${sol(r.fees)} + rent ${sol(r.rent)}` +
          (r.need > r.fees + r.rent ? ', and the wallet must keep its own rent-exempt minimum' : '') +
          `); the wallet holds ${sol(r.balance)} SOL.`,
      });
    }
    if (!r.ok) return fail(r.err, r.logs, true);
    preview = r.preview;
    emit({ phase: 'simulated', logs: r.logs });
    if (!(await p.confirm(r.preview)))
      return emit({ phase: 'cancelled', error: `You cancelled after the preview. ${NOTHING_SENT}` });
    // The person may have read the preview for a while: sign over a fresh blockhash.
    txs = await make();
    emit({ phase: 'awaiting-signature' });
    let signed: Transaction[];
    try {
      signed = await p.signAll(txs);
    } catch (e) {
      if (isRejection(e))
        return emit({ phase: 'rejected', error: 'You rejected the signature in the wallet: nothing was sent.' });
      throw e;
    }
    for (const tx of signed) {
      let sig: string;
      try {
        sig = await p.connection.sendRawTransaction(tx.serialize(), { preflightCommitment: 'confirmed' });
      } catch (e) {
        const logs = (e as { logs?: string[] }).logs ?? [];
        // Refused in preflight: this transaction was not sent (earlier ones of the action were).
        const x = explainTransactionError(
          (e as { transactionError?: unknown })?.transactionError ?? null,
          logs.length ? logs : [String((e as Error)?.message ?? e)],
        );
        const lead =
          signatures.length === 0
            ? NOTHING_SENT
            : `The node refused transaction ${signatures.length + 1} of ` +
              `${signed.length} (not sent, no fee for it); the ones before it landed.`;
        return emit({
          phase: 'failed',
          error: `${lead} ${x.sentence}`,
          errorName: x.name,
          logs,
          nothingSent: signatures.length === 0,
        });
      }
      signatures.push(sig);
      emit({ phase: 'sent' });
      const status = await confirm(p.connection, sig, p.pollMs ?? 400, p.timeoutMs ?? 60_000);
      if (!status)
        return emit({
          phase: 'failed',
          error:
            `Not confirmed within ${Math.round((p.timeoutMs ?? 60_000) / 1000)}` +
            ` s; it may still land (signature ${sig}).`,
          errorName: 'Timeout',
        });
      if (status.err) return fail(status.err, await logsOf(p.connection, sig));
    }
    const outcome = built.after
      ? await built.after().catch((e: Error) => `The outcome could not be read back: ${e.message}`)
      : null;
    return emit({ phase: 'confirmed', outcome });
  } catch (e) {
    return emit({
      phase: 'failed',
      error: String((e as Error)?.message ?? e),
      errorName: null,
      nothingSent: signatures.length === 0,
    });
  }
}
