/**
 * The upload attacks of `npm run abuse`: a forged epoch log (a), extreme timestamps (b) and a
 * partition flood (c). Each uses a fresh key: an outsider has no registered identity.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type CborValue, encodeCanonical } from '../../lib/protocol/cbor';
import { ed25519Sign, keccak256, publicKeyFromSeed } from '../../lib/protocol/crypto';
import { buildEnvelope, decodeEnvelope } from '../../lib/protocol/envelope';
import { fromHex } from '../../lib/protocol/hex';
import { leafHash, logEntryOf, merkleRoot } from '../../lib/protocol/merkle';
import { MsgType } from '../../lib/protocol/types';
import { type CheckResult, getJson, http, percentile, poll, sentence, sleep, type Target } from './support';

interface BatchRow {
  agent: string;
  epoch: string;
  status: 'unverified' | 'verified' | 'mismatch';
}
interface EnvelopeRow {
  id: string;
  sender: string;
  timestampMs: number;
}
interface UploadResult {
  index: number;
  ok: boolean;
  reason?: string;
  detail?: string;
}
interface Health {
  counts?: { envelopes: number };
  datasets?: { failures: number; lastError: { epoch: number; error: string } | null };
}
interface Releases {
  releases: Array<{ epoch: number | string }>;
}

const CBOR = { 'content-type': 'application/cbor' };

function freshKey(): { seed: Uint8Array; pk: Uint8Array; agent: Uint8Array } {
  const seed = new Uint8Array(randomBytes(32));
  return { seed, pk: publicKeyFromSeed(seed), agent: new Uint8Array(randomBytes(32)) };
}

function beacon(k: ReturnType<typeof freshKey>, timestampUs: bigint, nonce: bigint): Uint8Array {
  return buildEnvelope(
    {
      msgType: MsgType.BEACON,
      sender: k.agent,
      timestamp: timestampUs,
      nonce,
      conversationId: new Uint8Array(16),
      payload: new TextEncoder().encode('abuse'),
    },
    k.seed,
  ).bytes;
}

/** The statement an agent signs for its epoch log (docs/protocol.md, signed epoch logs). */
function logStatement(agent: Uint8Array, epoch: bigint, root: Uint8Array): Uint8Array {
  const domain = new TextEncoder().encode('zerox1/epoch-log/v1');
  const e = new Uint8Array(8);
  new DataView(e.buffer).setBigUint64(0, epoch);
  const out = new Uint8Array(domain.length + 32 + 8 + 32);
  out.set(domain, 0);
  out.set(agent, domain.length);
  out.set(e, domain.length + 32);
  out.set(root, domain.length + 40);
  return keccak256(out);
}

const epochOf = (t: Target, ms: number) => Math.floor(ms / 1000 / t.epochSeconds);

async function batchesOf(t: Target, agent?: string): Promise<BatchRow[]> {
  return (await getJson<{ batches: BatchRow[] }>(t, `/api/batches?limit=5000${agent ? `&agent=${agent}` : ''}`))
    .batches;
}

/**
 * a. A forged log. For up to two honest agents (none of their batches is `mismatch`), from one
 * second after an epoch ends: one of the agent's envelopes of that epoch is uploaded again as
 * the agent's whole log for the epoch, unsigned and signed by a fresh key, again every 1.5 s
 * (so the forgery also lands after the agent's own upload) until the batch is judged or two
 * epochs pass. Every upload must be refused (4xx), and the batch must not become `mismatch`
 * (waited for until it is judged, at most four epochs in all).
 */
export async function forgedLog(t: Target): Promise<CheckResult[]> {
  const all = await batchesOf(t);
  const bad = new Set(all.filter((b) => b.status === 'mismatch').map((b) => b.agent));
  const honest = [...new Set(all.map((b) => b.agent))].filter((a) => !bad.has(a)).slice(0, 2);
  if (honest.length === 0)
    return [
      {
        ok: false,
        detail:
          `forged log: no agent with batches to attack yet (${all.length}` +
          ` batches): run against a demo that has been up for a few epochs`,
      },
    ];
  const L = t.epochSeconds * 1000;
  const into = Date.now() % L;
  await sleep((L - into + 1_000) % L);
  const epoch = epochOf(t, Date.now()) - 1;
  const started = Date.now();
  const out: CheckResult[] = [];
  interface Attack {
    agent: string;
    bodies: Uint8Array[];
    statuses: Map<string, number>;
    accepted: number;
    judged?: BatchRow;
  }
  const attacks: Attack[] = [];
  for (const agent of honest) {
    const page = await getJson<{ envelopes: EnvelopeRow[] }>(
      t,
      `/api/envelopes?agent=${agent}&from=${epoch * L}&to=${(epoch + 1) * L - 1}&limit=50`,
    );
    const mine = page.envelopes.find((e) => e.sender === agent);
    if (!mine) {
      out.push({ ok: false, detail: `forged log: agent ${agent.slice(0, 8)}… sent nothing in epoch ${epoch} to copy` });
      continue;
    }
    const raw = fromHex((await getJson<{ raw: string }>(t, `/api/envelopes/${mine.id}/raw`)).raw);
    const d = decodeEnvelope(raw);
    if (!d.ok) throw new Error(`envelope ${mine.id} as served does not decode: ${d.detail}`);
    const agentBytes = fromHex(agent);
    const root = merkleRoot([leafHash(logEntryOf(d.envelope))]);
    const k = freshKey();
    attacks.push({
      agent,
      bodies: [
        encodeCanonical([agentBytes, BigInt(epoch), [raw]] as CborValue),
        encodeCanonical([
          agentBytes,
          BigInt(epoch),
          [raw],
          k.pk,
          ed25519Sign(logStatement(agentBytes, BigInt(epoch), root), k.seed),
        ] as CborValue),
      ],
      statuses: new Map(),
      accepted: 0,
    });
  }
  const judge = async (a: Attack) => {
    const b = (await batchesOf(t, a.agent)).find((x) => x.epoch === String(epoch));
    if (b && b.status !== 'unverified') a.judged = b;
  };
  while (Date.now() - started < 2 * L && attacks.some((a) => !a.judged)) {
    for (const a of attacks.filter((x) => !x.judged)) {
      for (const [i, body] of a.bodies.entries()) {
        const r = await http(t, 'POST', '/api/ingest/log', { body, headers: CBOR });
        const key =
          `${i === 0 ? 'unsigned' : 'fresh-key'} ${r.status}` +
          (r.status >= 400 ? ` (${sentence(r.body).slice(0, 70)})` : '');
        a.statuses.set(key, (a.statuses.get(key) ?? 0) + 1);
        if (r.status < 400 || r.status >= 500) a.accepted++;
      }
      await judge(a).catch(() => undefined);
    }
    await sleep(1_500);
  }
  for (const a of attacks) {
    if (!a.judged)
      await poll(
        async () => {
          await judge(a);
          return a.judged;
        },
        Math.max(0, started + 4 * L - Date.now()),
        2_000,
      );
    const status =
      a.judged?.status ?? (await batchesOf(t, a.agent)).find((x) => x.epoch === String(epoch))?.status ?? 'no batch';
    out.push({
      ok: a.accepted === 0 && status !== 'mismatch',
      detail: `forged log of agent ${a.agent.slice(0, 8)}… epoch ${epoch}: ${[...a.statuses]
        .map(([k2, n]) => `${k2} ×${n}`)
        .join(', ')}; its batch afterwards: ${status}`,
    });
  }
  return out;
}

/**
 * b. Extreme timestamps: one archive upload of two envelopes, dated 2^64−1 µs and 1970, signed
 * by a fresh key. Neither may be accepted; a Parquet export still answers bytes; the next epoch
 * is still released (the release list grows, no release for epoch 0, the health report's
 * release failures, where it has them, do not grow).
 */
export async function extremeTimestamp(t: Target): Promise<CheckResult[]> {
  const k = freshKey();
  const body = encodeCanonical([beacon(k, (1n << 64n) - 1n, 1n), beacon(k, 1_000_000n, 2n)] as CborValue);
  const before = await getJson<Releases>(t, '/api/datasets');
  const h0 = await getJson<Health>(t, '/api/health');
  const r = await http(t, 'POST', '/api/ingest/envelopes', { body, headers: CBOR });
  let results: UploadResult[] = [];
  try {
    results = (JSON.parse(r.body.toString('utf8')) as { results: UploadResult[] }).results ?? [];
  } catch {
    /* not JSON */
  }
  const accepted = results.filter((x) => x.ok).length;
  const reasons = results.map((x) => (x.ok ? 'accepted' : x.reason)).join(', ');
  const note = results.some((x) => !x.ok && x.reason !== 'timestamp_out_of_window')
    ? ' (refused before any time check: an outsider has no registered ' +
      'identity, so the upload cannot reach the store this way)'
    : '';
  const upload: CheckResult = {
    ok: (r.status === 200 && results.length === 2 && accepted === 0) || (r.status >= 400 && r.status < 500),
    detail: `extreme timestamps (2^64−1 µs, 1970) uploaded: ${r.status}, ${reasons || sentence(r.body)}${note}`,
  };
  const pq = await http(t, 'GET', '/api/export/envelopes?format=parquet&limit=1000', { timeoutMs: 60_000 });
  const parquet: CheckResult = {
    ok: pq.status === 200 && pq.body.length > 0,
    detail:
      `Parquet export after it: ${pq.status}, ${pq.body.length} bytes` +
      (pq.status === 429 ? ' (export budget spent: run again later)' : ''),
  };
  const n0 = before.releases.length;
  const grown = await poll(
    async () => {
      const now = await getJson<Releases>(t, '/api/datasets');
      return now.releases.length > n0 ? now : undefined;
    },
    3 * t.epochSeconds * 1000 + 30_000,
    2_000,
  );
  const h1 = await getJson<Health>(t, '/api/health');
  const epochZero = (grown ?? before).releases.some((x) => Number(x.epoch) === 0);
  const failures = h0.datasets && h1.datasets ? h1.datasets.failures - h0.datasets.failures : undefined;
  const release: CheckResult = {
    ok: grown !== undefined && !epochZero && (failures === undefined || failures === 0),
    detail:
      `releases after it: ${n0} → ` +
      `${grown?.releases.length ?? `${n0} (none within ${3 * t.epochSeconds + 30} s)`}` +
      `${epochZero ? ', one for epoch 0' : ''}; ` +
      (failures === undefined
        ? 'health reports no release status'
        : `release failures in health +${failures}${
            h1.datasets?.lastError ? ` (last: ${h1.datasets.lastError.error.slice(0, 80)})` : ''
          }`),
  };
  return [upload, parquet, release];
}

/**
 * c. A partition flood: 300 envelopes, one in each of 300 consecutive weeks back from now, in
 * one archive upload. At most the archive window's weeks (and a few) may be accepted; with
 * `--database-url` the envelope partitions are counted before and after (the bound: the
 * window's weeks plus the few made ahead); without it, reading an envelope by id must not get
 * slower (p50 over 50 reads, before and after: at most 3× + 30 ms; the report saw 6–10×).
 */
export async function partitionFlood(t: Target, databaseUrl?: string): Promise<CheckResult> {
  const WEEKS = 300;
  const k = freshKey();
  const week = 7n * 86_400n * 1_000_000n;
  const now = BigInt(Date.now()) * 1000n;
  const envs = Array.from({ length: WEEKS }, (_, i) =>
    beacon(k, now - BigInt(i) * week - 3_600_000_000n, BigInt(i + 1)),
  );
  const partitions = async () => {
    if (!databaseUrl) return undefined;
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    try {
      const r = await c.query<{ n: string }>(
        "SELECT count(*)::text AS n FROM pg_inherits WHERE inhparent = 'envelope'::regclass",
      );
      return Number(r.rows[0]!.n);
    } finally {
      await c.end();
    }
  };
  const sample = (await getJson<{ envelopes: EnvelopeRow[] }>(t, '/api/envelopes?limit=20')).envelopes.map((e) => e.id);
  const readP50 = async () => {
    const ms: number[] = [];
    for (let i = 0; i < 50 && sample.length; i++)
      ms.push((await http(t, 'GET', `/api/envelopes/${sample[i % sample.length]}/raw`)).ms);
    return percentile(ms, 50);
  };
  const p0 = await partitions();
  const before = await readP50();
  const r = await http(t, 'POST', '/api/ingest/envelopes', {
    body: encodeCanonical(envs as CborValue),
    headers: CBOR,
    timeoutMs: 120_000,
  });
  let results: UploadResult[] = [];
  try {
    results = (JSON.parse(r.body.toString('utf8')) as { results: UploadResult[] }).results ?? [];
  } catch {
    /* not JSON */
  }
  const accepted = results.filter((x) => x.ok).length;
  const reasons = new Map<string, number>();
  for (const x of results) if (!x.ok) reasons.set(x.reason ?? '?', (reasons.get(x.reason ?? '?') ?? 0) + 1);
  const p1 = await partitions();
  const after = await readP50();
  // 28 days of archive window (or four epochs) is at most 5 weeks; a few partitions are made ahead.
  const boundAccepted = 6;
  const slower = after > 3 * before + 30;
  const grew = p0 !== undefined && p1 !== undefined ? p1 - p0 : undefined;
  return {
    ok: r.status < 500 && accepted <= boundAccepted && !slower && (grew === undefined || grew <= boundAccepted),
    detail:
      `partition flood (${WEEKS} weeks): ${r.status}, ${accepted} accepted, refused ${
        [...reasons].map(([k2, n]) => `${k2} ${n}`).join(', ') || 'none'
      }; ` +
      (grew === undefined
        ? 'partitions not visible through the API (pass --database-url to count them); '
        : `envelope partitions ${p0} → ${p1}; `) +
      `envelope by id p50 ${before.toFixed(1)} → ${after.toFixed(1)} ms`,
  };
}
