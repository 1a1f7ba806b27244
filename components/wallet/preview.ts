/**
 * What an action will do to the wallet, computed before it is signed: the first transaction is
 * simulated with the accounts it writes (pre state from getMultipleAccounts, post state from
 * simulateTransaction's `accounts`, fee included), and the later ones (evidence-buffer staging,
 * which depends on the first) are accounted from their instructions: their fees
 * (getFeeForMessage) and the System createAccount rent they pay. The result is the fee payer's
 * SOL change (fees, rent paid, rent returned), the USDC change of its USDC account, and which
 * accounts are created or closed, lamport-exact. summarize() is pure (unit-tested in
 * preview.test.ts); computePreview() reads the chain.
 */
import { Buffer } from 'buffer';
import {
  type Connection,
  PublicKey,
  SystemInstruction,
  SystemProgram,
  type Transaction,
  VersionedTransaction,
} from '../../lib/chain';
import { sol } from './format';

/** A created account's name on the preview, and when its rent comes back. */
export interface AccountNote {
  address: PublicKey;
  label: string;
  /** Bytes of an account a program creates (so its rent is known before simulating: the SOL check). */
  size?: number;
  /** When and to whom the rent comes back; absent = never (the account stays). */
  rentBack?: string;
}

/** What a built action tells the preview beyond its instructions. */
export interface PreviewHints {
  notes?: AccountNote[];
  /** What is at stake beyond the balance changes, one sentence each. */
  stakes?: string[];
  /** Lamports the later (unsimulated) transactions return to the fee payer from closed accounts. */
  laterReturns?: { address: PublicKey; lamports: bigint; label: string }[];
  /** Set when a later transaction moves USDC by an outcome only the chain decides: says how. */
  usdcUnknown?: string;
  /**
   * A challenge's expected outcome: the target's stake now and what the challenger gets (guards.ts challengeOutcome).
   */
  outcome?: PreviewOutcome;
}

export interface PreviewOutcome {
  /** What slash would take from the target now, base units; null when unknown. */
  targetStake: bigint | null;
  /** What the challenger is expected to get back at resolution, base units; null when unknown. */
  gets: bigint | null;
  stakeText: string;
  outcomeText: string;
}

export interface AccountChange {
  address: string;
  label: string;
  kind: 'created' | 'closed';
  lamports: bigint;
  rentBack?: string;
}

export interface Preview {
  /** Fee payer's lamports before the action. */
  balance: bigint;
  /** Net SOL change of the fee payer, lamports (negative: spent). */
  solChange: bigint;
  /** Transaction fees of all transactions (part of solChange). */
  fees: bigint;
  /** Rent put into created accounts, and rent returned from closed ones. */
  rentPaid: bigint;
  rentBack: bigint;
  /** Of that rent, what comes back later (created accounts with a rentBack). */
  rentReclaimable: bigint;
  /** Fee payer's USDC change (base units); null when unknown (usdcUnknown says why). */
  usdcChange: bigint | null;
  usdcUnknown?: string;
  accounts: AccountChange[];
  stakes: string[];
  outcome?: PreviewOutcome;
  txCount: number;
}

/**
 * The preview's SOL change as a sum of signed terms (fees, rent put into new accounts, rent
 * returned from closed ones). Each term carries its own sign, so the sum reads the same whether
 * the wallet pays or gains: "+0.0172 = −0.00001 fee +0.0172 rent returned", never
 * "+0.0172 = fee 0.00001 − rent returned 0.0172", which sums to the opposite.
 */
export function solTerms(
  p: Pick<Preview, 'fees' | 'rentPaid' | 'rentBack' | 'rentReclaimable' | 'txCount'>,
): { sign: '−' | '+'; lamports: bigint; label: string; note?: string }[] {
  const out: { sign: '−' | '+'; lamports: bigint; label: string; note?: string }[] = [
    { sign: '−', lamports: p.fees, label: p.txCount > 1 ? `fees of ${p.txCount} transactions` : 'fee' },
  ];
  if (p.rentPaid) {
    const kept = p.rentPaid - p.rentReclaimable;
    const note = p.rentReclaimable
      ? `${sol(p.rentReclaimable)} comes back later${kept ? `, ${sol(kept)} stays` : ''}`
      : 'stays in the new accounts';
    out.push({ sign: '−', lamports: p.rentPaid, label: 'rent', note });
  }
  if (p.rentBack) out.push({ sign: '+', lamports: p.rentBack, label: 'rent returned' });
  return out;
}

export type Snapshot = { lamports: bigint; data: Uint8Array } | null;

/** An SPL token account's amount (u64 LE at offset 64), 0 when absent. */
export function tokenAmount(s: Snapshot): bigint {
  if (!s || s.data.length < 72) return 0n;
  return new DataView(s.data.buffer, s.data.byteOffset + 64, 8).getBigUint64(0, true);
}

export interface SummarizeInput {
  payer: string;
  usdc: string | null;
  /** Watched accounts: state before, and after the first transaction (simulated). */
  pre: Map<string, Snapshot>;
  post: Map<string, Snapshot>;
  /** Fee of each transaction (the first's is already inside its simulated post state). */
  fees: bigint[];
  /** System createAccount instructions of the later transactions paid by the fee payer. */
  laterCreates: { address: string; lamports: bigint }[];
  hints: PreviewHints;
}

/** The preview from the snapshots: pure. */
export function summarize(i: SummarizeInput): Preview {
  const notes = new Map((i.hints.notes ?? []).map((n) => [n.address.toBase58(), n]));
  const accounts: AccountChange[] = [];
  for (const [address, before] of i.pre) {
    if (address === i.payer) continue;
    const after = i.post.get(address) ?? null;
    const note = notes.get(address);
    if (!before && after)
      accounts.push({
        address,
        label: note?.label ?? 'new account',
        kind: 'created',
        lamports: after.lamports,
        rentBack: note?.rentBack,
      });
    else if (before && !after)
      accounts.push({ address, label: note?.label ?? 'account', kind: 'closed', lamports: before.lamports });
  }
  for (const c of i.laterCreates) {
    const note = notes.get(c.address);
    accounts.push({
      address: c.address,
      label: note?.label ?? 'new account',
      kind: 'created',
      lamports: c.lamports,
      rentBack: note?.rentBack,
    });
  }
  for (const r of i.hints.laterReturns ?? [])
    accounts.push({ address: r.address.toBase58(), label: r.label, kind: 'closed', lamports: r.lamports });
  const payerBefore = i.pre.get(i.payer)?.lamports ?? 0n;
  const payerAfterFirst = i.post.get(i.payer)?.lamports ?? 0n;
  const laterFees = i.fees.slice(1).reduce((a, b) => a + b, 0n);
  const laterCreated = i.laterCreates.reduce((a, c) => a + c.lamports, 0n);
  const laterBack = (i.hints.laterReturns ?? []).reduce((a, r) => a + r.lamports, 0n);
  const solChange = payerAfterFirst - payerBefore - laterFees - laterCreated + laterBack;
  const sum = (k: 'created' | 'closed', f: (a: AccountChange) => boolean = () => true) =>
    accounts.filter((a) => a.kind === k && f(a)).reduce((x, a) => x + a.lamports, 0n);
  const usdcChange = i.hints.usdcUnknown
    ? null
    : i.usdc
      ? tokenAmount(i.post.get(i.usdc) ?? null) - tokenAmount(i.pre.get(i.usdc) ?? null)
      : 0n;
  return {
    balance: payerBefore,
    solChange,
    fees: i.fees.reduce((a, b) => a + b, 0n),
    rentPaid: sum('created'),
    rentBack: sum('closed'),
    rentReclaimable: sum('created', (a) => !!a.rentBack),
    usdcChange,
    usdcUnknown: i.hints.usdcUnknown,
    accounts,
    stakes: i.hints.stakes ?? [],
    outcome: i.hints.outcome,
    txCount: i.fees.length,
  };
}

/**
 * Lamports the fee payer must hold before signing: fees + rent of the accounts created, known from the instructions and
 * notes.
 */
export function upfrontNeed(fees: bigint[], creates: bigint[]): bigint {
  return [...fees, ...creates].reduce((a, b) => a + b, 0n);
}

const snap = (a: { lamports: number; data: Buffer | Uint8Array } | null): Snapshot =>
  a && a.lamports > 0 ? { lamports: BigInt(a.lamports), data: new Uint8Array(a.data) } : null;

/** System createAccount instructions of `tx` paid by `payer`. */
export function createsOf(tx: Transaction, payer: PublicKey): { address: string; lamports: bigint }[] {
  const out: { address: string; lamports: bigint }[] = [];
  for (const ix of tx.instructions) {
    if (!ix.programId.equals(SystemProgram.programId)) continue;
    try {
      if (SystemInstruction.decodeInstructionType(ix) !== 'Create') continue;
      const c = SystemInstruction.decodeCreateAccount(ix);
      if (c.fromPubkey.equals(payer))
        out.push({ address: c.newAccountPubkey.toBase58(), lamports: BigInt(c.lamports) });
    } catch {
      /* not a createAccount */
    }
  }
  return out;
}

export async function feeOf(connection: Connection, tx: Transaction): Promise<bigint> {
  const msg = tx.compileMessage();
  const r = await connection.getFeeForMessage(msg, 'confirmed').catch(() => null);
  // Without an answer (blockhash not seen yet), the base fee: 5,000 lamports per signature.
  return BigInt(r?.value ?? 5000 * msg.header.numRequiredSignatures);
}

export type PreviewResult =
  | { ok: true; preview: Preview; logs: string[] }
  | { ok: false; kind: 'too-little-sol'; balance: bigint; need: bigint; fees: bigint; rent: bigint }
  | { ok: false; kind: 'simulation'; err: unknown; logs: string[] };

/** Reads, checks SOL, simulates and summarizes. `txs` carry their blockhash and partial signatures. */
export async function computePreview(
  connection: Connection,
  payer: PublicKey,
  usdc: PublicKey | null,
  txs: Transaction[],
  hints: PreviewHints,
): Promise<PreviewResult> {
  const watched: string[] = [payer.toBase58()];
  const add = (k: PublicKey) => {
    const s = k.toBase58();
    if (!watched.includes(s) && watched.length < 100) watched.push(s);
  };
  if (usdc) add(usdc);
  for (const tx of txs) for (const ix of tx.instructions) for (const m of ix.keys) if (m.isWritable) add(m.pubkey);
  for (const n of hints.notes ?? []) add(n.address);
  const keys = watched.map((w) => new PublicKey(w));
  const [infos, fees, rentMin] = await Promise.all([
    connection.getMultipleAccountsInfo(keys, 'confirmed'),
    Promise.all(txs.map((t) => feeOf(connection, t))),
    connection.getMinimumBalanceForRentExemption(0),
  ]);
  const pre = new Map(watched.map((w, i) => [w, snap(infos[i])]));
  const balance = pre.get(watched[0])?.lamports ?? 0n;
  // SOL needed up front: every fee, the rent of System-created accounts, and of the accounts a program creates (notes
  // with a size).
  const creates = txs.flatMap((t) => createsOf(t, payer).map((c) => c.lamports));
  const noted = await Promise.all(
    (hints.notes ?? [])
      .filter((n) => n.size !== undefined && !pre.get(n.address.toBase58()))
      .map((n) => connection.getMinimumBalanceForRentExemption(n.size!)),
  );
  const rent = [...creates, ...noted.map(BigInt)].reduce((a, b) => a + b, 0n);
  const need = upfrontNeed(fees, [rent]);
  const feeSum = fees.reduce((a, b) => a + b, 0n);
  // A wallet left with lamports must stay rent-exempt; emptied to exactly 0 it may.
  if (balance < need || (balance > need && balance - need < BigInt(rentMin))) {
    return {
      ok: false,
      kind: 'too-little-sol',
      balance,
      need: balance < need ? need : need + BigInt(rentMin),
      fees: feeSum,
      rent,
    };
  }
  const first = new VersionedTransaction(txs[0].compileMessage());
  const sim = await connection.simulateTransaction(first, {
    sigVerify: false,
    commitment: 'confirmed',
    accounts: { encoding: 'base64', addresses: watched },
  });
  if (sim.value.err) return { ok: false, kind: 'simulation', err: sim.value.err, logs: sim.value.logs ?? [] };
  const post = new Map<string, Snapshot>();
  (sim.value.accounts ?? []).forEach((a, i) =>
    post.set(
      watched[i],
      a ? { lamports: BigInt(a.lamports), data: new Uint8Array(Buffer.from((a.data as string[])[0], 'base64')) } : null,
    ),
  );
  const laterCreates = txs.slice(1).flatMap((t) => createsOf(t, payer));
  const preview = summarize({
    payer: watched[0],
    usdc: usdc?.toBase58() ?? null,
    pre,
    post,
    fees,
    laterCreates,
    hints,
  });
  return { ok: true, preview, logs: sim.value.logs ?? [] };
}
