/**
 * The signed-request attacks of `npm run abuse`: one wallet signature re-spelled (n), opinion
 * stuffing on the dispute desk (o) and a new watchlist's caps (p). Every key is fresh: an
 * outsider has no named reviewer key and no registered identity.
 */
import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { ed25519Sign, publicKeyFromSeed } from '../../lib/protocol/crypto';
import { watchlistWalletMessage } from '../../lib/wire/alerts';
import { type DisputeDetailView, type DisputeListView, disputeReviewMessage } from '../../lib/wire/disputes';
import { type CheckResult, getJson, http, poll, sentence, sleep, type Target } from './support';

const JSON_HEADERS = { 'content-type': 'application/json' };

function wallet(): { seed: Uint8Array; address: string } {
  const seed = new Uint8Array(randomBytes(32));
  return { seed, address: bs58.encode(publicKeyFromSeed(seed)) };
}
const signText = (seed: Uint8Array, text: string) => ed25519Sign(new TextEncoder().encode(text), seed);

/** The same 64 bytes spelled every way an attacker tried; the first is the one used first. */
function spellings(sig: Uint8Array): Array<[string, string]> {
  const b = Buffer.from(sig);
  return [
    ['base58', bs58.encode(sig)],
    ['hex', b.toString('hex')],
    ['upper-case hex', b.toString('hex').toUpperCase()],
    ['base64', b.toString('base64')],
    ['base64url', b.toString('base64url')],
    ['unpadded base64', b.toString('base64').replace(/=+$/, '')],
    ['space-padded base58', ` ${bs58.encode(sig)} `],
  ];
}

async function postJson(t: Target, path: string, body: unknown, headers: Record<string, string> = {}) {
  const r = await http(t, 'POST', path, {
    body: JSON.stringify(body),
    headers: { ...JSON_HEADERS, ...headers },
    timeoutMs: 20_000,
  });
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(r.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    /* not JSON */
  }
  return { status: r.status, json, body: r.body };
}

async function newWatchlist(t: Target): Promise<{ id: string; token: string }> {
  const r = await postJson(t, '/api/watchlists', {});
  if (r.status !== 201) throw new Error(`POST /api/watchlists: ${r.status} ${sentence(r.body)}`);
  return r.json as { id: string; token: string };
}

/**
 * n. One signed message, many spellings. A fresh wallet binds a new watchlist (base58), then the
 * same signature is sent again as hex, upper-case hex, base64, base64url, unpadded base64 and
 * space-padded base58: every one must be refused. The same for finding the list by wallet (the
 * first use answers a token, no re-spelling may mint another), the signature in a GET query
 * string must not be accepted at all, and `laterSeconds` later the first spelling is refused again.
 */
export async function signatureSpellings(t: Target, laterSeconds: number): Promise<CheckResult[]> {
  const w = wallet();
  const list = await newWatchlist(t);
  const bindMsg = watchlistWalletMessage(list.id, w.address, new Date());
  const bindSig = spellings(signText(w.seed, bindMsg));
  const bind = (signature: string) =>
    postJson(
      t,
      `/api/watchlists/${list.id}/wallet`,
      { address: w.address, message: bindMsg, signature },
      { 'x-watchlist-token': list.token },
    );
  const first = await bind(bindSig[0]![1]);
  if (first.status !== 200)
    return [
      {
        ok: false,
        detail: `signature spellings: the first bind was not accepted (${first.status} ${sentence(first.body)})`,
      },
    ];
  const binds: string[] = [];
  for (const [name, s] of bindSig) {
    const r = await bind(s);
    if (r.status < 300) binds.push(name);
  }

  const adoptMsg = watchlistWalletMessage('*', w.address, new Date());
  const adoptSig = spellings(signText(w.seed, adoptMsg));
  const adopt = (signature: string) =>
    postJson(t, '/api/watchlists/by-wallet', { address: w.address, message: adoptMsg, signature });
  const q =
    `address=${encodeURIComponent(w.address)}&message=` +
    `${encodeURIComponent(adoptMsg)}&signature=${encodeURIComponent(adoptSig[3]![1])}`;
  const viaUrl = await http(t, 'GET', `/api/watchlists/by-wallet?${q}`, { timeoutMs: 20_000 });
  const adopted = await adopt(adoptSig[3]![1]);
  const tokens: string[] = [];
  for (const [name, s] of adoptSig) {
    const r = await adopt(s);
    if (r.status < 300 && typeof r.json.token === 'string') tokens.push(name);
  }
  await sleep(laterSeconds * 1000);
  const later = await adopt(adoptSig[0]![1]);
  const laterBind = await bind(bindSig[0]![1]);
  return [
    {
      ok: binds.length === 0,
      detail:
        `signature spellings: after one bind, ` +
        (binds.length
          ? `${binds.join(', ')} bound again`
          : `all ${bindSig.length} spellings of the same signature were refused`),
    },
    {
      ok: adopted.status === 200 && tokens.length === 0 && viaUrl.status >= 400,
      detail:
        `signature spellings: by-wallet ` +
        (adopted.status === 200
          ? 'gave one token'
          : `refused the first use (${adopted.status} ${sentence(adopted.body)})`) +
        `, ` +
        (tokens.length ? `and more tokens for ${tokens.join(', ')}` : `no more for ${adoptSig.length} spellings`) +
        `; the signature in a GET URL: ${viaUrl.status}`,
    },
    {
      ok: later.status === 409 && laterBind.status === 409,
      detail:
        `signature spellings: ${laterSeconds} s later the used signatures are ` +
        `refused again (${later.status}, ${laterBind.status}: ${sentence(later.body)})`,
    },
  ];
}

type ExportRow = { dispute_id: string; opinions: number | string };

async function exportedOpinions(t: Target, disputer: string, id: string): Promise<number | null> {
  const r = await http(t, 'GET', `/api/export/disputes?format=jsonl&agent=${disputer}`, { timeoutMs: 60_000 });
  if (r.status !== 200) throw new Error(`GET /api/export/disputes: ${r.status} ${sentence(r.body)}`);
  for (const line of r.body.toString('utf8').split('\n')) {
    if (!line.trim()) continue;
    const row = JSON.parse(line) as ExportRow;
    if (row.dispute_id === id) return Number(row.opinions);
  }
  return null;
}

/**
 * o. Opinion stuffing. An open dispute (waited for, up to `waitSeconds`: the demo's sellers dispute
 * failing verdicts) gets validly signed opinions from 20 fresh keys. They may be kept and shown,
 * but the dispute must stay in the `status=open` queue, the number of reviewed disputes must not move, and
 * its row in the disputes dataset must count no more opinions than before.
 */
export async function opinionStuffing(t: Target, waitSeconds: number): Promise<CheckResult[]> {
  const open = await poll(
    async () => (await getJson<DisputeListView>(t, '/api/disputes?status=open&limit=20')).disputes[0],
    waitSeconds * 1000,
    2_000,
  );
  if (!open) return [{ ok: false, detail: `opinion stuffing: no open dispute within ${waitSeconds} s` }];
  const before = await getJson<DisputeListView>(t, '/api/disputes?limit=1');
  const exportedBefore = await exportedOpinions(t, open.disputer, open.id);
  const statuses: number[] = [];
  const t0 = Date.now();
  for (let i = 0; i < 20; i++) {
    const w = wallet();
    const message = disputeReviewMessage({
      dispute: open.id,
      opinion: 'upheld',
      note: `stuffing ${i}`,
      at: new Date().toISOString(),
    });
    const r = await postJson(t, `/api/disputes/${open.id}/opinions`, {
      reviewer: w.address,
      message,
      signature: Buffer.from(signText(w.seed, message)).toString('hex'),
    });
    statuses.push(r.status);
  }
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  const after = await getJson<DisputeListView>(t, '/api/disputes?limit=1');
  const stillOpen = (await getJson<DisputeDetailView>(t, `/api/disputes/${open.id}`)).dispute;
  const exportedAfter = await exportedOpinions(t, open.disputer, open.id);
  const accepted = statuses.filter((s) => s === 200).length;
  return [
    {
      // `reviewed` only: the demo keeps sending new (open) disputes meanwhile, which move `total` and `open`.
      ok: stillOpen.status === 'open' && after.counts.reviewed === before.counts.reviewed,
      detail:
        `opinion stuffing: 20 fresh keys in ${secs} s (${accepted} kept); the dispute is ` +
        `${stillOpen.status} with ${stillOpen.opinions.total} counted and ${stillOpen.opinions.uncounted ?? 'no'}` +
        ` not counted; reviewed disputes ${before.counts.reviewed} → ${after.counts.reviewed}`,
    },
    {
      ok: exportedBefore === exportedAfter,
      detail: `opinion stuffing: the disputes dataset counts ${exportedBefore} → ${exportedAfter} opinions for it`,
    },
  ];
}

/** p. A new watchlist starts within the target's caps: no more rules on than ALERT_MAX_RULES. */
export async function capsAtCreation(t: Target): Promise<CheckResult> {
  const list = await newWatchlist(t);
  const r = await http(t, 'GET', `/api/watchlists/${list.id}`, {
    headers: { 'x-watchlist-token': list.token },
    timeoutMs: 20_000,
  });
  const v = JSON.parse(r.body.toString('utf8')) as {
    rules: Array<{ enabled: boolean }>;
    caps: { rules: number; agents: number };
    items: unknown[];
    webhooks: unknown[];
  };
  const on = v.rules.filter((x) => x.enabled).length;
  return {
    ok: on <= v.caps.rules && v.items.length <= v.caps.agents,
    detail: `caps at creation: a new list has ${on} rules on, the target's ALERT_MAX_RULES is ${v.caps.rules}`,
  };
}
