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
import { Connection, Keypair, PublicKey, SystemProgram, Transaction, sendAndConfirmTransaction } from '@solana/web3.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { CHROMIUM, CHROMIUM_ARGS, chromiumSkip, startServer, type RunningServer } from './harness';
import { TEST_WALLET_NAME, createTestWallet } from './test-wallet';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { STAKE_STATUS, challenge as challengeProgram, challengeAddress, findIdentityHolder, lease, loadEconomyConfig, loadSatiMembership, stakeLock, usdcAccountOf } from '../lib/chain';
import { UNLOCK_DELAY_SLOTS } from '../lib/protocol/constants';

const EPOCH_SECONDS = 12;
const shots = process.env.SHOTS_DIR;

describe('owner actions from a browser wallet', { skip: chromiumSkip, timeout: 600_000 }, () => {
  let srv: RunningServer;
  let browser: Browser;
  let page: Page;
  let conn: Connection;
  let rpcUrl = '';
  // The test holds the wallet's key, so it can also move the wallet's SOL directly (the too-little-SOL case).
  const secret = ed25519.utils.randomSecretKey();
  const wallet = createTestWallet(secret);
  const walletKeypair = Keypair.fromSeed(secret);
  let usdcAta: PublicKey | null = null;
  let agent = '';

  const shot = async (name: string) => { if (shots) await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true }); };
  const epochNow = () => BigInt(Math.floor(Date.now() / 1000 / EPOCH_SECONDS));
  const card = () => page.getByTestId('agent-card');
  const lastRun = () => page.evaluate(() => Math.max(0, ...Array.from(document.querySelectorAll<HTMLElement>('[data-testid="action-phases"]'), (e) => Number(e.dataset.run))));
  const balances = async () => ({
    sol: BigInt(await conn.getBalance(wallet.publicKey, 'confirmed')),
    usdc: await conn.getTokenAccountBalance(usdcAta ??= usdcAccountOf((await loadEconomyConfig(conn)).usdcMint, wallet.publicKey), 'confirmed').then((r) => BigInt(r.value.amount), () => 0n),
  });
  const TERMINAL = ['confirmed', 'failed', 'rejected', 'cancelled'];
  /** The action panel newer than run `after` (or run `exact`) whose phase is one of `phases`. */
  const waitPanel = (sel: { after?: number; exact?: string }, phases: string[]) => page.waitForFunction(([a, x, ph]) => Array.from(document.querySelectorAll<HTMLElement>('[data-testid="action-phases"]'))
    .find((e) => (x ? e.dataset.run === x : Number(e.dataset.run) > (a as number)) && (ph as string[]).includes(e.dataset.phase ?? '')), [sel.after ?? 0, sel.exact ?? '', phases] as const, { timeout: 90_000 })
    .catch(async (e: Error) => {
      const panels = await page.getByTestId('action-phases').allTextContents();
      throw new Error(`${e.message}\naction panels now: ${JSON.stringify(panels)}`);
    });
  /**
   * Clicks `button` and drives the action it starts: it stops at the preview (nothing asked of the
   * wallet yet), then signs from the preview, then waits for the end. With `check`, the preview's
   * SOL and USDC changes are compared, lamport- and base-unit-exact, with the wallet's balances
   * over RPC before signing and after confirmation, and the preview is screenshotted.
   */
  const act = async (button: ReturnType<Page['getByTestId']>, check?: string) => {
    const prev = await lastRun();
    const signedBefore = wallet.signed;
    await button.click();
    let el = (await waitPanel({ after: prev }, ['previewed', ...TERMINAL])).asElement()!;
    const run = await el.getAttribute('data-run');
    let preview: { sol: bigint; usdc: bigint | null; text: string } | null = null;
    if ((await el.getAttribute('data-phase')) === 'previewed') {
      assert.equal(wallet.signed, signedBefore, 'the wallet is not asked before the preview is confirmed');
      const pv = panelOf(run).getByTestId('action-preview');
      const u = await pv.getAttribute('data-usdc-change');
      preview = { sol: BigInt((await pv.getAttribute('data-sol-change'))!), usdc: u ? BigInt(u) : null, text: (await pv.textContent()) ?? '' };
      if (check && shots) await panelOf(run).screenshot({ path: join(shots, `preview-${check}.png`) }).catch(() => undefined);
      const before = await balances();
      await panelOf(run).getByTestId('preview-sign').click();
      el = (await waitPanel({ exact: run! }, TERMINAL)).asElement()!;
      if (check && (await el.getAttribute('data-phase')) === 'confirmed') {
        const after = await balances();
        assert.equal(after.sol - before.sol, preview.sol, `${check}: the previewed SOL change is the balance change`);
        assert.equal(after.usdc - before.usdc, preview.usdc, `${check}: the previewed USDC change is the balance change`);
      }
    }
    return { phase: await el.getAttribute('data-phase'), text: (await el.textContent()) ?? '', run, preview };
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
    // The machine running the suite may be busy: navigation and waits get room, the chain's clock does not change.
    page.setDefaultTimeout(60_000);
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

  // The newest verified batch with entries on offer, with at least one epoch of its window left
  // (a slow machine must still confirm the challenge inside it). Agents signing with a delegate hot
  // wallet have none on offer: resolve_challenge verifies entries against the batch signer.
  async function challengeableVerified(want: (b: { agent: string; epoch: string }) => boolean): Promise<{ agent: string; epoch: string } | undefined> {
    return srv.until('a challengeable verified batch with an epoch of its window left', 60_000, async () => {
      const list = (await srv.getJson<{ batches: { agent: string; epoch: string }[] }>('/api/batches?status=verified&limit=100')).body.batches
        .filter((b) => want(b) && epochNow() <= BigInt(b.epoch) + 1n)
        .sort((a, b) => (BigInt(b.epoch) > BigInt(a.epoch) ? 1 : BigInt(b.epoch) < BigInt(a.epoch) ? -1 : 0));
      for (const b of list) {
        const c = await srv.getJson<{ candidates: unknown[] }>(`/api/batches/challengeable?agent=${b.agent}&epoch=${b.epoch}`);
        if (c.body.candidates.length > 0 && epochNow() <= BigInt(b.epoch) + 1n) return b;
      }
      return undefined;
    }, 500);
  }

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
      // The demo's cheater cheats once: its batch is the one there is.
      return r.body.batches[0];
    }, 500);
    await page.goto(`${srv.base}/agents/${flagged.agent}`);
    const bc = page.locator(`[data-testid="batch-challenges"][data-epoch="${flagged.epoch}"]`);
    await bc.getByTestId('contradiction').first().waitFor({ timeout: 20_000 });
    assert.match((await bc.getByTestId('contradiction').first().textContent())!, /bid \d+ to [0-9a-f]{8}…: missing from the batch/);
    await shot('batch-contradiction');
    const opened = await act(bc.getByTestId('contradiction').first().getByTestId('challenge-entry'), 'challenge');
    assert.equal(opened.phase, 'confirmed', opened.text);
    assert.equal(opened.preview?.usdc, -10_000_000n, 'the preview says 10 USDC leaves the wallet');
    assert.match(opened.preview!.text, /a wrong challenge forfeits the 10 USDC to the treasury/);
    assert.match(opened.preview!.text, /creates evidence buffer .*back to the challenger when the challenge is resolved/);
    // The wallet's challenge of this batch is read from the chain: it stays shown whatever the window does.
    await bc.getByTestId('my-batch-challenge').filter({ hasText: 'pending' }).waitFor({ timeout: 10_000 });
    await shot('phases-confirmed-challenge');
    won = challengeAddress(new PublicKey(Buffer.from(flagged.agent, 'hex')), BigInt(flagged.epoch), wallet.publicKey);
    assert.equal(challengeProgram.decodeChallenge((await conn.getAccountInfo(won))!.data)!.status, 0, 'pending on chain');

    // Picked only now, after the flagged batch's challenge: with 12 s epochs a batch picked before
    // it could leave its challenge window while that transaction confirms.
    const h = await challengeableVerified((b) => epochNow() <= BigInt(b.epoch) + 2n);
    assert.ok(h, 'a verified batch still inside its window, of an agent signing with its owner key');
    honest = h;
    await page.goto(`${srv.base}/agents/${honest.agent}`);
    const hc = page.locator(`[data-testid="batch-challenges"][data-epoch="${honest.epoch}"]`);
    await hc.locator('summary').first().click();
    const opened2 = await act(hc.getByTestId('reported-entry').first().getByTestId('challenge-entry'), 'challenge-reported');
    assert.match(opened2.preview?.text ?? '', /most likely be rejected/);
    assert.equal(opened2.phase, 'confirmed', opened2.text);
    lost = challengeAddress(new PublicKey(Buffer.from(honest.agent, 'hex')), BigInt(honest.epoch), wallet.publicKey);
    assert.equal(challengeProgram.decodeChallenge((await conn.getAccountInfo(lost))!.data)!.status, 0, 'pending on chain');

    // A third challenge nobody resolves: expired by anyone later.
    const other = await challengeableVerified((b) => b.agent !== honest.agent && b.agent !== flagged.agent && epochNow() <= BigInt(b.epoch) + 2n);
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
    // The form refuses before anything is signed: no name, a symbol over 10 bytes, an ftp: uri.
    await page.getByTestId('register-symbol').fill('ÉÉÉÉÉÉ');
    await page.getByTestId('register-uri').fill('ftp://agents.example/e2e.json');
    await page.getByTestId('register').click();
    assert.equal(await page.getByTestId('register-name-error').textContent(), 'Give the agent a name');
    assert.match((await page.getByTestId('register-symbol-error').textContent())!, /12 bytes of UTF-8 \(6 characters\)/);
    assert.match((await page.getByTestId('register-uri-error').textContent())!, /scheme ftp:/);
    await page.getByTestId('register-name').fill('e2e agent');
    await page.getByTestId('register-symbol').fill('E2E');
    await page.getByTestId('register-uri').fill('data:application/json,{"name":"e2e"}');
    const reg = await act(page.getByTestId('register'), 'register');
    assert.equal(reg.phase, 'confirmed', reg.text);
    assert.ok(reg.preview!.sol < 0n && reg.preview!.usdc === 0n, 'registering costs SOL (fee + rent) and no USDC');
    await shot('registered');
    await card().waitFor({ timeout: 20_000 });
    agent = (await card().getAttribute('data-agent'))!;
    // The card's link is a page from the moment of registration (the mesh has not seen the agent yet).
    const link = await card().getByTestId('card-link').getAttribute('href');
    const agentPage = await fetch(`${srv.base}${link}`);
    assert.equal(agentPage.status, 200, `${link} answers`);
    const holder = await findIdentityHolder(conn, new PublicKey(agent));
    assert.ok(holder?.owner.equals(wallet.publicKey), 'the wallet holds the new identity NFT');
    const economy = (await loadEconomyConfig(conn))!;
    const member = await loadSatiMembership(conn, new PublicKey(agent), economy.satiProgram);
    assert.deepEqual([member.name, member.symbol, member.uri, member.nonTransferable], ['e2e agent', 'E2E', 'data:application/json,{"name":"e2e"}', false]);
    // Its delegations, read from the chain in the browser: none; revocation is not offered without SAS.
    await card().getByTestId('no-delegations').waitFor({ timeout: 20_000 });
    assert.match((await card().getByTestId('revoke-unavailable').textContent())!, /This chain has no SAS program .*revocation needs the SAS program on a cluster/);

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

    // Too little SOL: the wallet keeps 0.0009 SOL; the page says so before the wallet is asked.
    const sink = Keypair.generate();
    const full = BigInt(await conn.getBalance(wallet.publicKey, 'confirmed'));
    await sendAndConfirmTransaction(conn, new Transaction().add(SystemProgram.transfer({ fromPubkey: wallet.publicKey, toPubkey: sink.publicKey, lamports: Number(full - 900_000n - 5000n) })), [walletKeypair], { commitment: 'confirmed' });
    const poor = await act(page.getByTestId('lock-stake'));
    assert.equal(poor.phase, 'failed', poor.text);
    assert.equal(poor.preview, null, 'no preview: the SOL check comes first');
    const poorError = panelOf(poor.run).getByTestId('action-error');
    assert.equal(await poorError.getAttribute('data-error-name'), 'TooLittleSol');
    assert.equal(await poorError.getAttribute('data-nothing-sent'), 'true');
    assert.match((await poorError.textContent())!, /^Nothing was sent and no fee was paid\. Too little SOL: this action needs 0\.\d+ SOL \(fees 0\.000005 \+ rent 0\.00161472.*the wallet holds 0\.0009 SOL/);
    assert.equal(wallet.signed, before, 'the wallet was never asked');
    await shot('too-little-sol');
    const back = BigInt(await conn.getBalance(sink.publicKey, 'confirmed'));
    await sendAndConfirmTransaction(conn, new Transaction().add(SystemProgram.transfer({ fromPubkey: sink.publicKey, toPubkey: wallet.publicKey, lamports: Number(back - 5000n) })), [sink], { commitment: 'confirmed' });

    const locked = await act(page.getByTestId('lock-stake'), 'lock-stake');
    assert.equal(locked.phase, 'confirmed', locked.text);
    assert.equal(locked.preview?.usdc, -10_000_000n);
    assert.match(locked.preview!.text, /creates Stake account .*rent 0\.00161472 SOL, not returned/);
    assert.match((await panelOf(locked.run).getByTestId('action-signature').first().textContent())!, /^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    const stake = stakeLock.decodeStake((await conn.getAccountInfo(stakeLock.findStakePda(new PublicKey(agent))[0]))!.data)!;
    assert.equal(stake.amount, 10_000_000n);
    assert.equal(stake.status, STAKE_STATUS.locked);
    await card().getByTestId('card-stake').filter({ hasText: '10.00 USDC, locked' }).waitFor();
    await shot('phases-confirmed-lock-stake');
    assert.match((await card().getByTestId('queue-unlock-reason').textContent())!, /unlock needs the lease deactivated: no lease yet/);
    assert.equal(await card().getByTestId('queue-unlock').isDisabled(), true);

    assert.equal((await page.getByTestId('lease-total').textContent())?.startsWith('1 epoch × 1.00 USDC = 1.00 USDC'), true, 'the lease input says its unit and total');
    const paid = await act(page.getByTestId('pay-lease'), 'pay-lease');
    assert.equal(paid.phase, 'confirmed', paid.text);
    assert.equal(paid.preview?.usdc, -1_000_000n);
    const l = lease.decodeLease((await conn.getAccountInfo(lease.findLeasePda(new PublicKey(agent))[0]))!.data)!;
    await card().getByTestId('card-lease').filter({ hasText: `paid through epoch ${l.paidThroughEpoch}` }).waitFor();
    const reason = (await card().getByTestId('queue-unlock-reason').textContent())!;
    assert.match(reason, new RegExp(`unlock needs the lease deactivated: paid through epoch ${l.paidThroughEpoch}`));
    assert.equal(await card().getByTestId('queue-unlock').isDisabled(), true);
    await shot('my-agents-unlock-disabled');

    // Let the lease lapse past grace, tick (anyone may), then unlock.
    // Paid through the current 12-second epoch: due soon, then in grace (a busy machine may only see the latter).
    const health = card().getByTestId('lease-health');
    await health.waitFor();
    if (['due-soon', 'ok'].includes((await health.getAttribute('data-state')) ?? '')) {
      assert.match((await health.textContent())!, /next payment due \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+ \((in \d|now)/);
    }
    // Grace lasts three 12-second epochs; a busy machine may first render the card after it.
    await card().getByTestId('lease-health').and(page.locator('[data-state="grace"], [data-state="lapsed"]')).waitFor({ timeout: 60_000 });
    if ((await health.getAttribute('data-state')) === 'grace') {
      assert.match((await health.textContent())!, /in grace: unpaid.*a tick deactivates it from/);
      await shot('lease-grace');
    }
    const lapse = l.paidThroughEpoch + 4n;
    while (epochNow() < lapse) await page.waitForTimeout(1000);
    assert.equal((await act(page.getByTestId('tick-lease'))).phase, 'confirmed');
    assert.equal(lease.decodeLease((await conn.getAccountInfo(lease.findLeasePda(new PublicKey(agent))[0]))!.data)!.status, 2);
    await card().getByTestId('card-lease').filter({ hasText: 'deactivated' }).waitFor();
    await card().getByTestId('queue-unlock').and(page.locator(':enabled')).waitFor({ timeout: 10_000 });
    const queued = await act(page.getByTestId('queue-unlock'), 'queue-unlock');
    assert.equal(queued.phase, 'confirmed', queued.text);
    assert.equal(stakeLock.decodeStake((await conn.getAccountInfo(stakeLock.findStakePda(new PublicKey(agent))[0]))!.data)!.status, STAKE_STATUS.unlocking);
    await card().getByTestId('card-stake').filter({ hasText: 'unlocking' }).waitFor();
    assert.match((await card().getByTestId('claim-stake-reason').textContent())!, /unlock delay: claimable from slot \d+/);

    // The lease lapsed: the page computes the back-lease and pays it in one action.
    await card().getByTestId('lease-health').and(page.locator('[data-state="lapsed"]')).waitFor();
    await shot('lease-lapsed');
    const reactivate = card().getByTestId('reactivate-lease');
    const re = await act(reactivate, 'reactivate-lease');
    assert.equal(re.phase, 'confirmed', re.text);
    const label = /Pay (\d+) epochs? of lease to reactivate/.exec(re.text);
    assert.ok(label, `the action names the epochs it pays: ${re.text}`);
    assert.equal(re.preview?.usdc, -BigInt(label[1]) * 1_000_000n, 'the computed amount is what the preview moves');
    const relet = lease.decodeLease((await conn.getAccountInfo(lease.findLeasePda(new PublicKey(agent))[0]))!.data)!;
    assert.equal(relet.status, 0, 'reactivated on chain');
    assert.ok(relet.paidThroughEpoch >= epochNow() - 1n, 'paid through the current epoch');
    await card().getByTestId('lease-health').and(page.locator('[data-state="ok"], [data-state="due-soon"]')).waitFor();
    // The wallet's history with the programs: effects in words, explorer links on the embedded chain's custom cluster.
    // The history reads up to 15 transactions under the RPC proxy's budget for expensive calls, so it may take a refresh or two.
    await page.getByTestId('history-effect').filter({ hasText: /locked 10\.00 USDC stake/ }).first().waitFor({ timeout: 60_000 });
    await page.getByTestId('history-effect').filter({ hasText: /lease epochs? for .*reactivated/ }).first().waitFor({ timeout: 60_000 });
    assert.match((await page.getByTestId('history-link').first().getAttribute('href'))!, /^https:\/\/explorer\.solana\.com\/tx\/\w+\?cluster=custom&customUrl=http/);
    assert.match((await page.getByTestId('network-rpc').textContent())!, /\/api\/chain\/rpc$/);
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
    const claimed = await act(card().getByTestId('claim-stake'), 'claim');
    assert.equal(claimed.phase, 'confirmed', claimed.text);
    assert.equal(wallet.signed, signed + 1, 'the wallet signed the claim');
    const after = stakeLock.decodeStake((await conn.getAccountInfo(stakePda))!.data)!;
    assert.equal(after.status, STAKE_STATUS.claimed);
    assert.equal(after.amount, 0n, 'the stake account keeps nothing');
    assert.equal(await usdcOf(), before + queued.amount, 'the stake came back to the owner');
    assert.equal(claimed.preview?.usdc, queued.amount, 'the preview said so');
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
      // After the window and a reload, the wallet's challenge still reads from the chain: pending, resolvable (or expirable, also resolvable).
      await page.locator(`[data-testid="batch-challenges"][data-epoch="${epoch}"]`).getByTestId('my-batch-challenge').and(page.locator('[data-phase="resolvable"], [data-phase="expirable"]')).waitFor({ timeout: 20_000 });
      const row = page.getByTestId('challenge-row').filter({ has: page.locator(`td[title="${wallet.address}"]`) });
      await row.getByTestId('resolve-challenge').and(page.locator(':enabled')).waitFor({ timeout: 20_000 });
      // The evidence buffer staged at the challenge is reused, so the whole resolve is previewed; it closes and its rent comes back.
      const buffers = await conn.getProgramAccounts(challengeProgram.PROGRAM_ID, { filters: [{ memcmp: { offset: 8, bytes: wallet.address } }] });
      const buffer = buffers.find((b) => challengeProgram.decodeBuffer(b.account.data))!;
      assert.ok(buffer, 'the challenger\'s evidence buffer is on chain');
      const resolved = await act(row.getByTestId('resolve-challenge'), `resolve-${name}`);
      assert.equal(resolved.phase, 'confirmed', resolved.text);
      assert.match(resolved.preview!.text, /closes evidence buffer/);
      assert.match(resolved.text, name === 'upheld' ? /You won: upheld/ : /You lost: rejected.*10 USDC challenge stake went to the treasury/);
      const gone = await Promise.all(buffers.map((b) => conn.getAccountInfo(b.pubkey)));
      assert.equal(gone.filter((x) => x === null).length, 1, 'one evidence buffer closed by resolve_challenge');
      assert.ok(resolved.preview!.sol > 0n, 'the evidence rent came back (more than the fee)');
      await shot(`challenge-resolved-${name}`);
      assert.equal(challengeProgram.decodeChallenge((await conn.getAccountInfo(address))!.data)!.status, status);
      // The indexer catches up; the page shows the resolution.
      await srv.until('the indexer to record the resolution', 30_000, async () => {
        const r = await srv.getJson<{ challenges: { address: string; status: string }[] }>(`/api/challenges?agent=${hex}`);
        return r.body.challenges.find((c) => c.address === address.toBase58() && c.status !== 'pending');
      });
      await page.goto(`${srv.base}/agents/${hex}`);
      // The challenger cell is an explorer link titled with the whole address.
      const mine = page.getByTestId('agent-challenges').locator('tr', { has: page.locator(`a[title^="${wallet.address}"]`) });
      assert.match((await mine.textContent()) ?? '', new RegExp(`${name}.*pending\\b[^→]*→ ${name}`));
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

    // My challenges lists them from the chain: two resolved (won, lost), one expired, and the expired one's buffer to close.
    await page.goto(`${srv.base}/owner`);
    const mine = page.getByTestId('my-challenge').and(page.locator('[data-role="challenger"]'));
    await mine.nth(2).waitFor({ timeout: 20_000 });
    const results = (await mine.allTextContents()).join('\n');
    assert.match(results, /won \(upheld\)/);
    assert.match(results, /lost \(rejected\)/);
    assert.match(results, /lost \(expired\)/);
    if (shots) {
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.waitForTimeout(500);
        await shot(`owner-${width}`);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    // The expired challenge's evidence buffer: closed from the page, its rent back.
    const closeBtn = page.getByTestId('close-buffer').first();
    await closeBtn.waitFor({ timeout: 20_000 });
    const closed = await act(closeBtn, 'close-buffer');
    assert.equal(closed.phase, 'confirmed', closed.text);
    assert.ok(closed.preview!.sol > 0n, 'the buffer rent came back (more than the fee)');
  });
});
