/**
 * The HTTP phases of `npm run fuzz`, each for a bounded time: the upload routes (the app's real
 * `POST /api/ingest/envelopes` and `POST /api/ingest/log` route handlers on a node:http server,
 * over a running observatory on PGlite, as lib/observer/http.integration.test.ts serves them) and
 * the embedded chain's JSON-RPC (lib/devchain on an ephemeral port). Invariant: every answer is
 * 2xx or 4xx, never 5xx, and the server keeps answering; JSON-RPC answers have the 2.0 shape
 * (one of result/error, an integer error code).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Keypair, SystemProgram, Transaction } from '@solana/web3.js';
import { registerServices } from '../../app/_lib/services';
import { POST as postEnvelopes } from '../../app/api/ingest/envelopes/route';
import { POST as postLog } from '../../app/api/ingest/log/route';
import { DEV_METHODS, STANDARD_METHODS, startEmbeddedChain } from '../../lib/devchain';
import { defaultObservatoryConfig } from '../../lib/observer/config';
import { startObservatory } from '../../lib/observer/observatory';
import { quietLogger } from '../../lib/observer/testing';
import { encodeCanonical } from '../../lib/protocol/cbor';
import { publicKeyFromSeed, sha256 } from '../../lib/protocol/crypto';
import { encodeSignedLogUpload } from '../../lib/protocol/epoch-log';
import { fromHex } from '../../lib/protocol/hex';
import { genuineEnvelopes, type PhaseResult } from './envelopes';
import { concat, head, mutateBytes, mutateCbor, type Rng, randomInput } from './mutate';

type Handler = (req: Request) => Promise<Response>;

function serve(routes: Record<string, Handler>): Promise<{ server: Server; url: string }> {
  const server = createServer(async (req, res) => {
    try {
      const h = routes[req.url ?? ''];
      if (!h) {
        res.writeHead(404).end();
        return;
      }
      const request = new Request(`http://127.0.0.1${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: Readable.toWeb(req) as ReadableStream,
        duplex: 'half',
      } as RequestInit);
      const response = await h(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (e) {
      // A handler that throws past its own error mapping is a finding, answered as the 500 it is.
      res.writeHead(500).end(String((e as Error)?.message ?? e));
    }
  });
  return new Promise((r) =>
    server.listen(0, '127.0.0.1', () =>
      r({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` }),
    ),
  );
}

const newResult = (): PhaseResult => ({ passed: 0, failed: 0, failures: [], stats: {} });
const record = (res: PhaseResult, ok: boolean, what: string) => {
  if (ok) res.passed++;
  else {
    res.failed++;
    if (res.failures.length < 20) res.failures.push(what);
  }
};

/** The signing key of the first genuine agent (scripts/fuzz/envelopes.ts), which signs fuzzed logs. */
const AGENT0_SEED = sha256(new TextEncoder().encode('fuzz/seed/0'));

/** Bodies for the two upload routes: valid-ish, mutated, random. */
function uploadBody(rng: Rng, envs: Uint8Array[], agent: Uint8Array): { path: string; body: Uint8Array } {
  const pick = () => {
    const e = envs[rng.int(envs.length)];
    const r = rng.int(4);
    return r === 0
      ? e
      : r === 1
        ? mutateBytes(rng, e, envs[0]).out
        : r === 2
          ? mutateCbor(rng, e, envs[0]).out
          : randomInput(rng);
  };
  const items = Array.from({ length: rng.int(6) }, pick);
  const log = rng.bool();
  // Logs: half signed by the agent's key (the form that gets past the signature check), dated in
  // the current epoch or in one long past.
  const epoch = rng.bool() ? BigInt(Math.floor(Date.now() / 86_400_000)) : BigInt(rng.int(3));
  const logAgent = rng.int(4) === 0 ? rng.bytes(32) : agent;
  const signedLog = () => {
    try {
      return encodeSignedLogUpload({
        agent: logAgent,
        epoch,
        envelopes: items,
        signer: publicKeyFromSeed(AGENT0_SEED),
        seed: AGENT0_SEED,
      });
    } catch {
      return undefined;
    }
  };
  let body = log ? (rng.bool() && signedLog()) || encodeCanonical([logAgent, epoch, items]) : encodeCanonical(items);
  const r = rng.int(10);
  if (r < 3) body = mutateBytes(rng, body, pick()).out;
  else if (r < 5) body = mutateCbor(rng, body, pick()).out;
  else if (r === 5) body = randomInput(rng);
  else if (r === 6) body = concat([head(4, rng.pick([10_001, 0xffffffff])), ...items]); // an item count past the cap
  return { path: log ? '/api/ingest/log' : '/api/ingest/envelopes', body };
}

/** POSTs random and mutated uploads for `seconds`. */
export async function fuzzUploads(rng: Rng, seconds: number): Promise<PhaseResult> {
  const res = newResult();
  const dir = mkdtempSync(join(tmpdir(), 'zx-fuzz-'));
  const config = defaultObservatoryConfig({ dataDir: dir, listen: ['/ip4/127.0.0.1/tcp/0'], demoAgents: 0, port: 0 });
  const obs = await startObservatory({ config, logger: quietLogger, verifyWorkers: 0 });
  registerServices({ observatory: obs, reads: obs.store, config });
  const { bytes: envs, keys } = genuineEnvelopes(Date.now(), 16);
  for (const [id, [pk]] of keys) await obs.registry.register(fromHex(id), pk);
  const agent = fromHex([...keys.keys()][0]);
  const { server, url } = await serve({ '/api/ingest/envelopes': postEnvelopes, '/api/ingest/log': postLog });
  const types = ['application/cbor', 'application/json', 'text/plain', '', 'application/cbor; charset=utf-8'];
  try {
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      const { path, body } = uploadBody(rng, envs, agent);
      const ct = rng.pick(types);
      try {
        const r = await fetch(url + path, {
          method: 'POST',
          headers: ct ? { 'content-type': ct } : {},
          body: Buffer.from(body),
        });
        const text = await r.text();
        res.stats[`status_${r.status}`] = (res.stats[`status_${r.status}`] ?? 0) + 1;
        record(
          res,
          r.status < 500,
          `${path} answered ${r.status}: ${text.slice(0, 200)}; ` +
            `body ${Buffer.from(body).toString('hex').slice(0, 400)}`,
        );
      } catch (e) {
        record(
          res,
          false,
          `${path}: no answer (${String((e as Error)?.message ?? e)}); body ${Buffer.from(body)
            .toString('hex')
            .slice(0, 400)}`,
        );
      }
    }
    // Still up: a genuine upload is taken.
    const r = await fetch(`${url}/api/ingest/envelopes`, {
      method: 'POST',
      headers: { 'content-type': 'application/cbor' },
      body: Buffer.from(encodeCanonical([envs[0]])),
    });
    record(res, r.status === 200, `after fuzzing, a genuine upload answered ${r.status}`);
  } finally {
    server.close();
    registerServices(undefined);
    await obs.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return res;
}

/** A random JSON value, shallow. */
function randomJson(rng: Rng, depth = 0): unknown {
  switch (rng.int(depth > 2 ? 6 : 8)) {
    case 0:
      return null;
    case 1:
      return rng.bool();
    case 2:
      // biome-ignore lint/correctness/noPrecisionLoss: numbers past 2^53 on purpose, as a hostile client sends them
      return rng.pick([0, -1, 1.5, 2 ** 53 + 1, 1e308, -0, 4294967296, 18446744073709551615]);
    case 3:
      return rng.pick([
        '',
        'base64',
        'base58',
        'jsonParsed',
        'confirmed',
        'finalized',
        '11111111111111111111111111111111',
        'x'.repeat(rng.int(300)),
        Buffer.from(rng.bytes(rng.int(64))).toString('base64'),
      ]);
    case 4:
      return Keypair.generate().publicKey.toBase58();
    case 5:
      return rng.pick([
        'processed',
        'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
        'So11111111111111111111111111111111111111112',
      ]);
    case 6:
      return Array.from({ length: rng.int(4) }, () => randomJson(rng, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: rng.int(4) }, () => [
          rng.pick([
            'encoding',
            'commitment',
            'filters',
            'dataSize',
            'memcmp',
            'offset',
            'bytes',
            'limit',
            'before',
            'until',
            'skipPreflight',
            'sigVerify',
            'maxSupportedTransactionVersion',
            'minContextSlot',
          ]),
          randomJson(rng, depth + 1),
        ]),
      );
  }
}

/** JSON-RPC 2.0 answer shape: jsonrpc "2.0", exactly one of result/error, an integer code. */
function rpcShapeOk(x: unknown): boolean {
  if (!x || typeof x !== 'object' || Array.isArray(x)) return false;
  const o = x as Record<string, unknown>;
  if (o.jsonrpc !== '2.0' || 'result' in o === 'error' in o) return false;
  if ('error' in o) {
    const e = o.error as { code?: unknown; message?: unknown } | null;
    return !!e && Number.isInteger(e.code) && typeof e.message === 'string';
  }
  return true;
}

/** POSTs random and mutated JSON-RPC to the embedded chain for `seconds`. */
export async function fuzzChainRpc(rng: Rng, seconds: number): Promise<PhaseResult> {
  const res = newResult();
  const chain = await startEmbeddedChain({ port: 0, slotMs: 0, wsCompanion: false });
  const methods = [...STANDARD_METHODS, ...DEV_METHODS, 'nope', ''];
  try {
    const payer = Keypair.generate();
    const bh = (await (
      await fetch(chain.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getLatestBlockhash' }),
      })
    ).json()) as { result: { value: { blockhash: string } } };
    const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: bh.result.value.blockhash }).add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1 }),
    );
    tx.sign(payer);
    const txBytes = new Uint8Array(tx.serialize());
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      const method = rng.pick(methods);
      let params: unknown = Array.from({ length: rng.int(4) }, () => randomJson(rng));
      if (/Transaction$/.test(method) && rng.int(3) > 0) {
        const t = rng.bool()
          ? mutateBytes(rng, txBytes, txBytes).out
          : rng.int(4) === 0
            ? rng.bytes(rng.int(1300))
            : txBytes;
        params = [
          Buffer.from(t).toString('base64'),
          { encoding: 'base64', ...(rng.bool() ? { skipPreflight: rng.bool(), sigVerify: rng.bool() } : {}) },
        ];
      }
      const request: Record<string, unknown> = { jsonrpc: rng.int(20) === 0 ? '1.0' : '2.0', method, params };
      if (rng.int(10) > 0) request.id = rng.pick<unknown>([1, 'a', null, 2.5, { x: 1 }]);
      let body = JSON.stringify(rng.int(8) === 0 ? Array.from({ length: rng.int(5) }, () => request) : request);
      const r = rng.int(10);
      if (r < 2) body = Buffer.from(mutateBytes(rng, Buffer.from(body), Buffer.from(body)).out).toString('latin1');
      else if (r === 2) body = Buffer.from(randomInput(rng)).toString('latin1');
      try {
        const resp = await fetch(chain.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        const text = await resp.text();
        res.stats[`status_${resp.status}`] = (res.stats[`status_${resp.status}`] ?? 0) + 1;
        let ok = resp.status < 500;
        if (ok && resp.status === 200 && text) {
          let j: unknown;
          try {
            j = JSON.parse(text);
          } catch {
            j = undefined;
          }
          ok = j !== undefined && (Array.isArray(j) ? j.every(rpcShapeOk) : rpcShapeOk(j));
        }
        record(res, ok, `${method}: ${resp.status} ${text.slice(0, 200)}; body ${body.slice(0, 300)}`);
      } catch (e) {
        record(res, false, `${method}: no answer (${String((e as Error)?.message ?? e)}); body ${body.slice(0, 300)}`);
      }
    }
    const alive = await fetch(chain.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"getHealth"}',
    });
    record(res, alive.status === 200, `after fuzzing, getHealth answered ${alive.status}`);
  } finally {
    await chain.close();
  }
  return res;
}
