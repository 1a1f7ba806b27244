/**
 * See the negotiation, trust nothing, end to end: `npm start`'s launcher with the embedded chain
 * and 4 demo agents on 6-second epochs, driven by Debian Chromium. The browser verifies a real
 * envelope (bytes, id, payload hash, signer read from the chain, Ed25519) and its batch
 * inclusion against the BatchAccount it reads over the RPC, all green; the tamper switch turns
 * the signature step red by name; a verified batch verifies whole; the conversation page shows
 * the flight recorder; the agent page shows the advertised capabilities and copies the hex id; a downloaded receipt is
 * verified on /receipts/verify, its signer keys checked against the chain by SATI's rule from the page (its only
 * requests are JSON-RPC reads of the chain), and a receipt whose embedded key is neither the agent's owner nor a
 * delegate fails that check; a libp2p node in the page receives and verifies live gossip. SHOTS_DIR=<dir> keeps
 * screenshots.
 */

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { base58 } from '../../components/format';
import { publicKeyFromSeed } from '../../lib/protocol/crypto';
import { buildEnvelope, decodeEnvelope, envelopeId } from '../../lib/protocol/envelope';
import { fromHex, toHex } from '../../lib/protocol/hex';
import { buildReceipt, decodeReceipt, encodeReceipt, verifyReceipt } from '../../lib/protocol/receipt';
import { MsgType } from '../../lib/protocol/types';
import { CHROMIUM, CHROMIUM_ARGS, type RunningServer, chromiumSkip as skip } from '../harness';
import { demoServer } from './server';

let srv: RunningServer | undefined;
let browser: Browser | undefined;
const until: RunningServer['until'] = (what, ms, probe) => srv!.until(what, ms, probe, 500);
const getJson = <T>(path: string) => srv!.getJson<T>(path);
const shots = process.env.SHOTS_DIR;
async function shot(page: Page, name: string): Promise<void> {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, name), fullPage: true });
}

interface Batch {
  agent: string;
  epoch: string;
  status: string;
}
interface Conversation {
  id: string;
  state: string | null;
}
interface Nego {
  outcome: string;
  zopa: { exists: boolean } | null;
  offers: unknown[];
}

describe('verify it yourself in Chromium against the real server and chain', { skip, timeout: 420_000 }, () => {
  let batch: Batch;
  let logIds: string[] = [];
  let elidedIds: string[] = [];
  before(async () => {
    srv = await demoServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    batch = await until('a verified batch with its uploaded log', 240_000, async () => {
      const { body } = await getJson<Batch[] | { batches: Batch[] }>('/api/batches?status=verified&limit=20');
      const list = Array.isArray(body) ? body : body.batches;
      return list?.[0];
    });
    const log = await getJson<{ envelopes: (string | null)[] }>(`/api/batches/${batch.agent}/${batch.epoch}/log`);
    assert.equal(log.status, 200);
    logIds = log.body.envelopes.map((h) => toHex(envelopeId(fromHex(h!))));
    // The tampered-payload story needs an envelope whose log entry elides its payload (every type
    // but FEEDBACK and NOTARIZE_BID, docs/protocol.md §5) and that has one: flipping its last
    // payload byte then leaves the log entry, and so the proof, intact. (For a FEEDBACK the proof
    // rightly fails at its first step instead.)
    elidedIds = log.body.envelopes.flatMap((h) => {
      const d = decodeEnvelope(fromHex(h!));
      if (!d.ok || d.envelope.payload.length === 0) return [];
      const kept = d.envelope.msgType === MsgType.FEEDBACK || d.envelope.msgType === MsgType.NOTARIZE_BID;
      return kept ? [] : [toHex(envelopeId(fromHex(h!)))];
    });
  });
  after(async () => {
    await browser?.close().catch(() => undefined);
  });

  test('bad ids get a 400 naming the parameter; unknown ones 404', async () => {
    const bad = await getJson<{ error: string }>('/api/envelopes/xyz/raw');
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /"id"/);
    assert.equal((await getJson(`/api/envelopes/${'0'.repeat(64)}/inclusion`)).status, 404);
    const byBase58 = await getJson<{ agent: { id: string } }>(`/api/agents/${base58(batch.agent)}`);
    assert.equal(byBase58.status, 200);
    assert.equal(byBase58.body.agent.id, batch.agent);
    const r = await getJson<{ error: string }>('/api/batches/nope/1/log');
    assert.equal(r.status, 400);
    assert.match(r.body.error, /"agent"/);
  });

  test(
    'a real envelope and its batch inclusion verify green ' + 'in the browser; a flipped signature byte fails by name',
    async () => {
      const page = await browser!.newPage({ viewport: { width: 1300, height: 1000 } });
      assert.ok(
        elidedIds.length > 0,
        `the verified batch's log holds an envelope with an elided payload (${logIds.length} entries)`,
      );
      const id = elidedIds[Math.floor(elidedIds.length / 2)];
      await page.goto(`${srv!.base}/envelopes/${id}`);
      const v = page.getByTestId('envelope-verifier');
      await v.and(page.locator('[data-phase="done"][data-checked="none"]')).waitFor({ timeout: 30_000 });
      assert.equal(await v.getAttribute('data-ok'), 'true', await v.innerText());
      for (const step of ['decode', 'envelope_id', 'payload_hash', 'payload_len', 'signer', 'signature']) {
        assert.equal(
          await page.locator(`[data-testid="envelope-steps"] [data-step="${step}"]`).getAttribute('data-state'),
          'pass',
          step,
        );
      }
      // The envelope can also sit in its counterpart's log, whose batch may not be on chain yet:
      // the proof checked here is the one in the verified batch the test picked.
      const inc = page.locator(`[data-testid="inclusion"][data-agent="${batch.agent}"][data-epoch="${batch.epoch}"]`);
      assert.equal(await inc.getAttribute('data-ok'), 'true', await inc.innerText());
      assert.equal(await inc.locator('[data-step="onchain_root"]').getAttribute('data-state'), 'pass');
      await shot(page, 'envelope-verified.png');

      await page.getByTestId('tamper').selectOption('signature');
      await page
        .locator('[data-testid="envelope-verifier"][data-phase="done"][data-checked="signature"]')
        .waitFor({ timeout: 30_000 });
      assert.equal(await v.getAttribute('data-ok'), 'false', await v.innerText());
      assert.equal(
        await page.locator('[data-testid="envelope-steps"] [data-step="signature"]').getAttribute('data-state'),
        'fail',
      );
      assert.equal(
        await page.locator('[data-testid="envelope-steps"] [data-step="envelope_id"]').getAttribute('data-state'),
        'fail',
      );
      assert.equal(
        await page.locator('[data-testid="envelope-steps"] [data-step="payload_hash"]').getAttribute('data-state'),
        'pass',
      );
      await shot(page, 'envelope-tampered.png');
      // A flipped payload byte: the stored envelope is still in the batch, but the proof must not
      // show green for bytes that fail; it is red and says why, and every red step explains itself.
      await page.getByTestId('tamper').selectOption('payload');
      await page
        .locator('[data-testid="envelope-verifier"][data-phase="done"][data-checked="payload"]')
        .waitFor({ timeout: 30_000 });
      assert.equal(await v.getAttribute('data-ok'), 'false', await v.innerText());
      assert.equal(
        await page.locator('[data-testid="envelope-steps"] [data-step="payload_hash"]').getAttribute('data-state'),
        'fail',
      );
      assert.equal(await inc.getAttribute('data-ok'), 'false', await inc.innerText());
      // The proof itself still holds for the stored bytes; only the bytes checked fail, and it says so.
      assert.equal(
        await inc.getByTestId('inclusion-why').count(),
        1,
        `no reason shown; the inclusion reads: ${await inc.innerText()}`,
      );
      assert.match(await inc.getByTestId('inclusion-why').innerText(), /does not vouch for these bytes/);
      const failed = await page.locator('[data-testid="envelope-steps"] [data-state="fail"]').count();
      assert.equal(
        await page.locator('[data-testid="envelope-steps"] [data-state="fail"] [data-testid="verify-why"]').count(),
        failed,
        'every red step has its explanation',
      );
      await page.close();
    },
  );

  test('a verified batch verifies whole in the browser', async () => {
    const page = await browser!.newPage({ viewport: { width: 1300, height: 900 } });
    await page.goto(`${srv!.base}/batches/${batch.agent}/${batch.epoch}`);
    const v = page.getByTestId('batch-verifier');
    await v.waitFor({ timeout: 30_000 });
    assert.equal(await v.getAttribute('data-ok'), 'true', await v.innerText());
    await page.close();
  });

  test(
    'flight recorder on a finished deal; its receipt verifies ' + 'on /receipts/verify, keys read from the chain only',
    async () => {
      const conv = await until('a conversation with a receipt and revealed reservations', 120_000, async () => {
        const { body } = await getJson<Conversation[] | { conversations: Conversation[] }>(
          '/api/conversations?limit=100',
        );
        for (const c of Array.isArray(body) ? body : body.conversations) {
          if (!/completed|disputed/.test(c.state ?? '')) continue;
          const n = await getJson<Nego>(`/api/conversations/${c.id}/negotiation`);
          if (n.body.outcome === 'agreed' && n.body.zopa?.exists) return c;
        }
        return undefined;
      });
      const page = await browser!.newPage({ viewport: { width: 1400, height: 1100 } });
      await page.goto(`${srv!.base}/conversations/${conv.id}`);
      await page.getByTestId('flight-chart').waitFor();
      assert.equal(await page.getByTestId('zopa-band').count(), 1);
      assert.match(await page.getByTestId('negotiation-words').innerText(), /Nash bargaining point/);
      assert.ok((await page.locator('[data-testid="timeline"] li').count()) >= 4);
      await shot(page, 'conversation-agreed.png');

      const receipt = await fetch(`${srv!.base}/api/conversations/${conv.id}/receipt`);
      assert.equal(receipt.status, 200);
      const bytes = Buffer.from(await receipt.arrayBuffer());
      const rpcUrl = (await getJson<{ chain?: { rpcUrl: string } }>('/api/health')).body.chain!.rpcUrl;
      await page.goto(`${srv!.base}/receipts/verify`);
      await page.waitForLoadState('networkidle');
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      await page
        .getByTestId('receipt-file')
        .setInputFiles({ name: `receipt-${conv.id}.cbor`, mimeType: 'application/cbor', buffer: bytes });
      const verdict = page.getByTestId('receipt-verdict');
      await verdict.waitFor();
      assert.equal(
        await page.getByTestId('receipt-verifier').getAttribute('data-ok'),
        'true',
        await page.getByTestId('receipt-steps').innerText(),
      );
      assert.equal(
        await page.locator('[data-testid="receipt-steps"] [data-step="chain_signers"]').getAttribute('data-state'),
        'pass',
      );
      assert.ok(requests.length > 0, 'the keys were read from the chain');
      assert.deepEqual(
        requests.filter((u) => !u.startsWith(rpcUrl)),
        [],
        'the file went nowhere: the only requests are JSON-RPC reads of the chain',
      );
      await shot(page, 'receipt-verified.png');

      // The same deal, but one party's envelopes signed by a key of our own, and the receipt naming
      // that key as the party's: consistent with itself, refused by the chain.
      const d = decodeReceipt(bytes);
      assert.ok(d.ok);
      const party = d.receipt.parties[0];
      const forgerSeed = new Uint8Array(32).fill(0x66);
      const forged = buildReceipt({
        conversationId: d.receipt.conversationId,
        parties: d.receipt.parties.map((p) =>
          p === party ? { agentId: p.agentId, keys: [publicKeyFromSeed(forgerSeed)] } : p,
        ),
        envelopes: d.receipt.envelopes.map((b) => {
          const e = decodeEnvelope(b);
          assert.ok(e.ok);
          if (toHex(e.envelope.sender) !== toHex(party.agentId)) return b;
          const x = e.envelope;
          return buildEnvelope(
            {
              msgType: x.msgType,
              sender: x.sender,
              recipient: x.recipient,
              timestamp: x.timestamp,
              blockRef: x.blockRef,
              nonce: x.nonce,
              conversationId: x.conversationId,
              payload: x.payload,
            },
            forgerSeed,
          ).bytes;
        }),
      });
      assert.equal(verifyReceipt(forged).ok, true, 'the forged receipt holds offline');
      await page.getByTestId('receipt-file').setInputFiles({
        name: 'forged.cbor',
        mimeType: 'application/cbor',
        buffer: Buffer.from(encodeReceipt(forged)),
      });
      await page.getByTestId('receipt-verdict').filter({ hasText: 'forged.cbor' }).waitFor();
      assert.equal(await page.getByTestId('receipt-verifier').getAttribute('data-ok'), 'false');
      const state = (step: string) =>
        page.locator(`[data-testid="receipt-steps"] [data-step="${step}"]`).getAttribute('data-state');
      assert.equal(await state('signature'), 'pass', 'offline the receipt is consistent');
      assert.equal(await state('chain_signers'), 'fail');
      assert.equal(await state('chain_signature'), 'fail');
      await shot(page, 'receipt-forged-key.png');

      bytes[bytes.length - 1] ^= 1;
      await page
        .getByTestId('receipt-file')
        .setInputFiles({ name: 'tampered.cbor', mimeType: 'application/cbor', buffer: bytes });
      await page.getByTestId('receipt-verdict').filter({ hasText: 'tampered.cbor' }).waitFor();
      assert.equal(await page.getByTestId('receipt-verifier').getAttribute('data-ok'), 'false');
      assert.equal(await state('signature'), 'fail');
      assert.deepEqual(
        requests.filter((u) => !u.startsWith(rpcUrl)),
        [],
      );
      await page.close();
    },
  );

  test('the agent page shows the advertised capabilities; copy puts the shown base58 id on the clipboard', async () => {
    const ctx = await browser!.newContext({
      viewport: { width: 1400, height: 1100 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const page = await ctx.newPage();
    // Reached by its base58 address, as the UI shows and links it.
    const res = await page.goto(`${srv!.base}/agents/${base58(batch.agent)}`);
    assert.equal(res?.status(), 200);
    const caps = page.getByTestId('advertised-capabilities');
    await caps.waitFor({ timeout: 30_000 });
    assert.match(await caps.locator('[data-cap="service"]').innerText(), /demo: summarise a document/);
    assert.match(await caps.locator('[data-cap="verification"]').innerText(), /tiers: 0, 1, 2/);
    const copy = page.locator(`[data-testid="copy-agent-id"][data-copy="${base58(batch.agent)}"]`).first();
    await copy.click();
    await page.getByText('copied').first().waitFor({ timeout: 5_000 });
    assert.equal(
      await page.evaluate(() => navigator.clipboard.readText()),
      (await page.getByTestId('agent-base58').textContent())?.trim(),
    );
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), base58(batch.agent));
    await caps.scrollIntoViewIfNeeded();
    await shot(page, 'agent-capabilities.png');
    await ctx.close();
  });

  test('a browser node on the mesh receives and verifies live gossip itself', async () => {
    const page = await browser!.newPage({ viewport: { width: 1400, height: 1100 } });
    await page.goto(srv!.base);
    await page.getByTestId('join-mesh').click();
    const panel = page.getByTestId('browser-node');
    await page.locator('[data-testid="browser-node"][data-phase="joined"]').waitFor({ timeout: 30_000 });
    await until(
      '3 gossip envelopes verified in the browser',
      60_000,
      async () => Number(await panel.getAttribute('data-verified')) >= 3,
    );
    assert.equal(await panel.getAttribute('data-failed'), '0', await panel.innerText());
    await panel.scrollIntoViewIfNeeded();
    await shot(page, 'browser-node.png');
    await page.close();
  });
});
