/**
 * Agent owners act from the browser (docs/app.md "Wallet"): the real server as `npm start` runs
 * it (embedded chain, demo agents, 6-second epochs), Debian Chromium, the app's unmodified wallet
 * adapter, and a Wallet Standard wallet registered in the page (e2e/test-wallet.ts) whose key only
 * this test holds. Every action goes through the page's buttons; the test asserts the on-chain
 * accounts over JSON-RPC and what the page shows, including the failure paths: too little USDC
 * (program error named), a rejected signature (nothing sent), unlock before deactivation (button
 * disabled with the reason), and a challenge of an entry the batch does report (challenger loses).
 * Claiming the stake needs 432,000 slots after the unlock: the test process moves the embedded
 * chain past them with its development method zerox1_warpSlot (lib/devchain/README.md "Warp"),
 * sent to the chain's own port, after checking the page's same-origin proxy refuses it; the tests
 * after the warp run on the warped chain. Screenshots go to SHOTS_DIR when set.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { Connection, PublicKey } from '@solana/web3.js';
import { CHROMIUM, CHROMIUM_ARGS, chromiumSkip, startServer, type RunningServer } from './harness';
import { TEST_WALLET_NAME, createTestWallet } from './test-wallet';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { STAKE_STATUS, challenge as challengeProgram, challengeAddress, findIdentityHolder, lease, loadEconomyConfig, stakeLock, usdcAccountOf } from '../lib/chain';
import { UNLOCK_DELAY_SLOTS } from '../lib/protocol/constants';

const EPOCH_SECONDS = 12;
const shots = process.env.SHOTS_DIR;

describe('owner actions from a browser wallet', { skip: chromiumSkip, timeout: 600_000 }, () => {
  let srv: RunningServer;
  let browser: Browser;
  let page: Page;
  let conn: Connection;
  let rpcUrl = '';
  const wallet = createTestWallet();
  let agent = '';

  const shot = async (name: string) => { if (shots) await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true }); };
  const epochNow = () => BigInt(Math.floor(Date.now() / 1000 / EPOCH_SECONDS));
  const card = () => page.getByTestId('agent-card');
  const lastRun = () => page.evaluate(() => Math.max(0, ...Array.from(document.querySelectorAll<HTMLElement>('[data-testid="action-phases"]'), (e) => Number(e.dataset.run))));
  /** Clicks `button`, waits for the action it starts to end; returns its final phase and the panel showing it. */
  const act = async (button: ReturnType<Page['getByTestId']>) => {
    const prev = await lastRun();
    await button.click();
    const handle = await page.waitForFunction((p) => Array.from(document.querySelectorAll<HTMLElement>('[data-testid="action-phases"]'))
      .find((e) => Number(e.dataset.run) > p && ['confirmed', 'failed', 'rejected'].includes(e.dataset.phase ?? '')), prev, { timeout: 90_000 })
      .catch(async (e: Error) => {
        const panels = await page.getByTestId('action-phases').allTextContents();
        throw new Error(`${e.message}\naction panels now: ${JSON.stringify(panels)}`);
      });
    const el = handle.asElement()!;
    return { phase: await el.getAttribute('data-phase'), text: (await el.textContent()) ?? '', run: await el.getAttribute('data-run') };
  };
  const panelOf = (run: string | null) => page.locator(`[data-testid="action-phases"][data-run="${run}"]`);

  before(async () => {
    srv = await startServer((dir) => ({ DATA_DIR: dir, SOLANA_RPC_URL: '', CHAIN_PORT: '0', DEMO_AGENTS: '4', EPOCH_SECONDS: String(EPOCH_SECONDS), OBSERVER_LISTEN: '/ip4/127.0.0.1/tcp/0' }));
    const health = await srv.getJson<{ chain?: { rpcUrl: string } }>('/api/health');
    rpcUrl = health.body.chain!.rpcUrl;
    conn = new Connection(rpcUrl, 'confirmed');
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await wallet.install(page);
  });
  after(async () => {
    await browser?.close();
    await srv?.stop();
  });

  // Shared between the tests, which run in order: challenges are opened first, while the demo
  // cheater's flagged batch is inside its window, and resolved last, after it.
  let flagged: { agent: string; epoch: string };
  let honest: { agent: string; epoch: string };
  let won: PublicKey;
  let lost: PublicKey;
  let left: { agent: string; epoch: string; address: PublicKey } | undefined;

  test('connect the wallet and use the faucet', async () => {
    await page.goto(`${srv.base}/owner`);
    assert.equal(await page.getByTestId('cluster').textContent(), 'embedded chain');
    await page.getByRole('button', { name: /select wallet/i }).first().click();
    await page.getByRole('button', { name: new RegExp(TEST_WALLET_NAME) }).click();
    await page.getByTestId('wallet-address').waitFor();
    assert.equal(await page.getByTestId('wallet-address').getAttribute('title'), wallet.address);

    await page.getByTestId('faucet').click();
    await page.getByTestId('wallet-usdc').filter({ hasText: '100.00 USDC' }).waitFor({ timeout: 30_000 });
    assert.ok((await conn.getBalance(wallet.publicKey)) >= 2e9);
  });

  test('one-click challenges: a contradicted entry of the flagged batch, and an entry an honest batch reports', async () => {
    // The demo's cheater leaves a bid out of one batch; the indexer flags it against the uploaded log.
    flagged = await srv.until('a mismatch batch', 120_000, async () => {
      const r = await srv.getJson<{ batches: { agent: string; epoch: string }[] }>('/api/batches?status=mismatch');
      return r.body.batches[0];
    }, 500);
    await page.goto(`${srv.base}/agents/${flagged.agent}`);
    const bc = page.locator(`[data-testid="batch-challenges"][data-epoch="${flagged.epoch}"]`);
    await bc.getByTestId('contradiction').first().waitFor({ timeout: 20_000 });
    assert.match((await bc.getByTestId('contradiction').first().textContent())!, /bid \d+ to [0-9a-f]{8}…: missing from the batch/);
    await shot('batch-contradiction');
    const opened = await act(bc.getByTestId('contradiction').first().getByTestId('challenge-entry'));
    assert.equal(opened.phase, 'confirmed', opened.text);
    await shot('phases-confirmed-challenge');
    won = challengeAddress(new PublicKey(Buffer.from(flagged.agent, 'hex')), BigInt(flagged.epoch), wallet.publicKey);
    assert.equal(challengeProgram.decodeChallenge((await conn.getAccountInfo(won))!.data)!.status, 0, 'pending on chain');

    // Picked only now, after the flagged batch's challenge: with 12 s epochs a batch picked before
    // it could leave its challenge window while that transaction confirms.
    const h = (await srv.getJson<{ batches: { agent: string; epoch: string }[] }>('/api/batches?status=verified')).body.batches.find((b) => epochNow() <= BigInt(b.epoch) + 2n);
    assert.ok(h, 'a verified batch still inside its window');
    honest = h;
    await page.goto(`${srv.base}/agents/${honest.agent}`);
    const hc = page.locator(`[data-testid="batch-challenges"][data-epoch="${honest.epoch}"]`);
    await hc.locator('summary').first().click();
    const opened2 = await act(hc.getByTestId('reported-entry').first().getByTestId('challenge-entry'));
    assert.equal(opened2.phase, 'confirmed', opened2.text);
    lost = challengeAddress(new PublicKey(Buffer.from(honest.agent, 'hex')), BigInt(honest.epoch), wallet.publicKey);
    assert.equal(challengeProgram.decodeChallenge((await conn.getAccountInfo(lost))!.data)!.status, 0, 'pending on chain');

    // A third challenge nobody resolves: expired by anyone later.
    const other = (await srv.getJson<{ batches: { agent: string; epoch: string }[] }>('/api/batches?status=verified')).body.batches
      .find((b) => b.agent !== honest.agent && b.agent !== flagged.agent && epochNow() <= BigInt(b.epoch) + 2n);
    assert.ok(other, 'another verified batch inside its window');
    await page.goto(`${srv.base}/agents/${other.agent}`);
    const oc = page.locator(`[data-testid="batch-challenges"][data-epoch="${other.epoch}"]`);
    await oc.locator('summary').first().click();
    const opened3 = await act(oc.getByTestId('reported-entry').first().getByTestId('challenge-entry'));
    assert.equal(opened3.phase, 'confirmed', opened3.text);
    left = { ...other, address: challengeAddress(new PublicKey(Buffer.from(other.agent, 'hex')), BigInt(other.epoch), wallet.publicKey) };
  });

  test('register, stake (failures first), lease, unlock', async () => {
    await page.goto(`${srv.base}/owner`);
    await page.getByTestId('wallet-address').waitFor();
    assert.equal((await act(page.getByTestId('register'))).phase, 'confirmed');
    await card().waitFor({ timeout: 20_000 });
    agent = (await card().getAttribute('data-agent'))!;
    const holder = await findIdentityHolder(conn, new PublicKey(agent));
    assert.ok(holder?.owner.equals(wallet.publicKey), 'the wallet holds the new identity NFT');

    // Too little USDC: 500 > 100 in the wallet. Simulation fails; the program error is named.
    await page.getByTestId('stake-amount').fill('500');
    const low = await act(page.getByTestId('lock-stake'));
    assert.equal(low.phase, 'failed');
    assert.match((await panelOf(low.run).getByTestId('action-error').textContent())!, /InsufficientUsdc/);
    assert.match((await panelOf(low.run).getByTestId('action-logs').textContent())!, /Program \w+ failed/);
    await shot('phases-failed-insufficient-usdc');

    // A rejected signature sends nothing.
    const before = wallet.signed;
    await page.getByTestId('stake-amount').fill('10');
    wallet.rejectNext();
    const rej = await act(page.getByTestId('lock-stake'));
    assert.equal(rej.phase, 'rejected');
    assert.match((await panelOf(rej.run).getByTestId('action-error').textContent())!, /nothing was sent/);
    assert.equal(wallet.signed, before);
    assert.equal(await conn.getAccountInfo(stakeLock.findStakePda(new PublicKey(agent))[0]), null, 'no stake account after the rejection');

    const locked = await act(page.getByTestId('lock-stake'));
    assert.equal(locked.phase, 'confirmed', locked.text);
    assert.match((await panelOf(locked.run).getByTestId('action-signature').first().textContent())!, /^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    const stake = stakeLock.decodeStake((await conn.getAccountInfo(stakeLock.findStakePda(new PublicKey(agent))[0]))!.data)!;
    assert.equal(stake.amount, 10_000_000n);
    assert.equal(stake.status, STAKE_STATUS.locked);
    await card().getByTestId('card-stake').filter({ hasText: '10.00 USDC, locked' }).waitFor();
    await shot('phases-confirmed-lock-stake');
    assert.match((await card().getByTestId('queue-unlock-reason').textContent())!, /unlock needs the lease deactivated: no lease yet/);
    assert.equal(await card().getByTestId('queue-unlock').isDisabled(), true);

    assert.equal((await act(page.getByTestId('pay-lease'))).phase, 'confirmed');
    const l = lease.decodeLease((await conn.getAccountInfo(lease.findLeasePda(new PublicKey(agent))[0]))!.data)!;
    await card().getByTestId('card-lease').filter({ hasText: `paid through epoch ${l.paidThroughEpoch}` }).waitFor();
    const reason = (await card().getByTestId('queue-unlock-reason').textContent())!;
    assert.match(reason, new RegExp(`unlock needs the lease deactivated: paid through epoch ${l.paidThroughEpoch}`));
    assert.equal(await card().getByTestId('queue-unlock').isDisabled(), true);
    await shot('my-agents-unlock-disabled');

    // Let the lease lapse past grace, tick (anyone may), then unlock.
    const lapse = l.paidThroughEpoch + 4n;
    while (epochNow() < lapse) await page.waitForTimeout(1000);
    assert.equal((await act(page.getByTestId('tick-lease'))).phase, 'confirmed');
    assert.equal(lease.decodeLease((await conn.getAccountInfo(lease.findLeasePda(new PublicKey(agent))[0]))!.data)!.status, 2);
    await card().getByTestId('card-lease').filter({ hasText: 'deactivated' }).waitFor();
    await card().getByTestId('queue-unlock').and(page.locator(':enabled')).waitFor({ timeout: 10_000 });
    assert.equal((await act(page.getByTestId('queue-unlock'))).phase, 'confirmed');
    assert.equal(stakeLock.decodeStake((await conn.getAccountInfo(stakeLock.findStakePda(new PublicKey(agent))[0]))!.data)!.status, STAKE_STATUS.unlocking);
    await card().getByTestId('card-stake').filter({ hasText: 'unlocking' }).waitFor();
    assert.match((await card().getByTestId('claim-stake-reason').textContent())!, /unlock delay: claimable from slot \d+/);
    await shot('my-agents');
  });

  test('warp past the unlock delay from the test process, then claim the stake from the page', async () => {
    const stakePda = stakeLock.findStakePda(new PublicKey(agent))[0];
    const queued = stakeLock.decodeStake((await conn.getAccountInfo(stakePda))!.data)!;
    const claimableFrom = queued.unlockRequestedSlot + UNLOCK_DELAY_SLOTS;
    const warp = { jsonrpc: '2.0', id: 1, method: 'zerox1_warpSlot', params: { slot: Number(claimableFrom) + 5 } };
    const post = (url: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(warp) })
      .then((r) => r.json() as Promise<{ result?: { previousSlot: number; slot: number }; error?: { code: number; message: string } }>);

    // A visitor cannot warp the observatory's chain: the page's proxy forwards only Solana methods.
    const refused = await post(`${srv.base}/api/chain/rpc`);
    assert.equal(refused.error?.code, -32601, JSON.stringify(refused));
    assert.ok(BigInt(await conn.getSlot()) < claimableFrom, 'the proxy did not warp the chain');
    assert.match((await card().getByTestId('claim-stake-reason').textContent())!, new RegExp(`claimable from slot ${claimableFrom}`));
    assert.equal(await card().getByTestId('claim-stake').isDisabled(), true);

    // The test process warps the chain on its own port (127.0.0.1), as a developer would.
    const warped = await post(rpcUrl);
    assert.equal(warped.result?.slot, Number(claimableFrom) + 5, JSON.stringify(warped));
    assert.ok(BigInt(await conn.getSlot()) >= claimableFrom);
    // The card re-reads the slot every 3 s: the reason goes and the button enables.
    await card().getByTestId('claim-stake-reason').waitFor({ state: 'detached', timeout: 20_000 });
    await card().getByTestId('claim-stake').and(page.locator(':enabled')).waitFor({ timeout: 10_000 });
    await shot('my-agents-claimable');

    const economy = await loadEconomyConfig(conn);
    const usdcOf = async () => BigInt((await conn.getTokenAccountBalance(usdcAccountOf(economy.usdcMint, wallet.publicKey))).value.amount);
    const before = await usdcOf();
    const signed = wallet.signed;
    const claimed = await act(card().getByTestId('claim-stake'));
    assert.equal(claimed.phase, 'confirmed', claimed.text);
    assert.equal(wallet.signed, signed + 1, 'the wallet signed the claim');
    const after = stakeLock.decodeStake((await conn.getAccountInfo(stakePda))!.data)!;
    assert.equal(after.status, STAKE_STATUS.claimed);
    assert.equal(after.amount, 0n, 'the stake account keeps nothing');
    assert.equal(await usdcOf(), before + queued.amount, 'the stake came back to the owner');
    await card().getByTestId('card-stake').filter({ hasText: /^0\.00 USDC, claimed$/ }).waitFor({ timeout: 10_000 });

    // The indexer follows the warped chain: it records the claim (read back over MCP, which
    // answers from the indexed state) and keeps indexing the demo's batches landing after the warp.
    const mcp = new Client({ name: 'wallet-e2e', version: '1' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${srv.base}/api/mcp`)));
    try {
      await srv.until('the indexer to record the claim', 30_000, async () => {
        const r = (await mcp.callTool({ name: 'get_stake_status', arguments: { agent } })) as { isError?: boolean; content: { text: string }[] };
        return !r.isError && (JSON.parse(r.content[0].text) as { stake: { status: string } | null }).stake?.status === 'claimed';
      }, 1000);
    } finally {
      await mcp.close();
    }
    await srv.until('a batch submitted after the warp', 60_000, async () => {
      const r = await srv.getJson<{ batches: { slot: string }[] }>('/api/batches?sort=slot&limit=1');
      return r.body.batches[0] && BigInt(r.body.batches[0].slot) >= claimableFrom;
    }, 1000);
    await page.reload();
    await card().getByTestId('card-stake').filter({ hasText: /^0\.00 USDC, claimed$/ }).waitFor({ timeout: 20_000 });
    assert.equal(await card().getByTestId('claim-stake').isDisabled(), true);
    assert.match((await card().getByTestId('claim-stake-reason').textContent())!, /stake is claimed/);
    await shot('my-agents-claimed');
  });

  test('after the window anyone resolves: the contradicted entry wins, the reported one loses; past twice the window one expires', async () => {
    // After the window anyone resolves; this wallet resolves both from the agent pages.
    for (const [hex, epoch, address, status, name] of [[flagged.agent, flagged.epoch, won, 1, 'upheld'], [honest.agent, honest.epoch, lost, 2, 'rejected']] as const) {
      while (epochNow() <= BigInt(epoch) + 2n) await page.waitForTimeout(1000);
      await page.goto(`${srv.base}/agents/${hex}`);
      const row = page.getByTestId('challenge-row').filter({ has: page.locator(`td[title="${wallet.address}"]`) });
      await row.getByTestId('resolve-challenge').and(page.locator(':enabled')).waitFor({ timeout: 20_000 });
      const resolved = await act(row.getByTestId('resolve-challenge'));
      assert.equal(resolved.phase, 'confirmed', resolved.text);
      assert.equal(challengeProgram.decodeChallenge((await conn.getAccountInfo(address))!.data)!.status, status);
      // The indexer catches up; the page shows the resolution.
      await srv.until('the indexer to record the resolution', 30_000, async () => {
        const r = await srv.getJson<{ challenges: { address: string; status: string }[] }>(`/api/challenges?agent=${hex}`);
        return r.body.challenges.find((c) => c.address === address.toBase58() && c.status !== 'pending');
      });
      await page.goto(`${srv.base}/agents/${hex}`);
      const mine = page.getByTestId('agent-challenges').locator('tr', { hasText: wallet.address.slice(0, 6) });
      assert.match((await mine.textContent()) ?? '', new RegExp(`${name}.*pending → ${name}`));
    }
    await shot('challenge-resolved');

    // Past twice the window an unresolved challenge expires; anyone may send it.
    while (epochNow() <= BigInt(left!.epoch) + 4n) await page.waitForTimeout(1000);
    await page.goto(`${srv.base}/agents/${left!.agent}`);
    const row = page.getByTestId('challenge-row').filter({ has: page.locator(`td[title="${wallet.address}"]`) });
    await row.getByTestId('expire-challenge').and(page.locator(':enabled')).waitFor({ timeout: 20_000 });
    const expired = await act(row.getByTestId('expire-challenge'));
    assert.equal(expired.phase, 'confirmed', expired.text);
    assert.equal(challengeProgram.decodeChallenge((await conn.getAccountInfo(left!.address))!.data)!.status, 4, 'expired on chain');
  });
});
