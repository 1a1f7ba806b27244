/**
 * Agent owners act from the browser (docs/app.md "Wallet"): the real server as `npm start` runs
 * it (embedded chain, demo agents, 6-second epochs), Debian Chromium, the app's unmodified wallet
 * adapter, and a Wallet Standard wallet registered in the page (e2e/test-wallet.ts) whose key only
 * this test holds. Every action goes through the page's buttons; the test asserts the on-chain
 * accounts over JSON-RPC and what the page shows, including the failure paths: a stake below the
 * program's minimum or above the wallet's USDC (refused in the form with the amounts held and
 * needed, before any wallet prompt), a rejected signature (nothing sent), unlock before
 * deactivation (button disabled with the reason), and a challenge of an entry the batch does
 * report (challenger loses). Lease payments the page proposes end in the future, after at least
 * one whole epoch; a challenge's preview shows the target's stake as on chain and what the
 * challenger is expected to get.
 * Claiming the stake needs 432,000 slots after the unlock: the test process moves the embedded
 * chain past them with its development method zerox1_warpSlot (lib/devchain/README.md "Warp"),
 * sent to the chain's own port, after checking the page's same-origin proxy refuses it; the tests
 * after the warp run on the warped chain. One challenge is signed in the last seconds of its
 * window, so the window closes while its transactions land: the page keeps the confirmation and
 * reads the pending challenge from the chain, and resolves it after a reload. At every owner step
 * the page must not scroll sideways at a phone's width (390 px) nor draw the header's wallet parts
 * over each other; "My agents" is checked so in both themes with a preview open. With SHOTS_DIR
 * set, each step's part of the page is screenshotted there at 1,440 and 390 px
 * (`<step>-<width>.png`).
 */

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import {
  Connection,
  Keypair,
  PublicKey,
  SYSVAR_CLOCK_PUBKEY,
  SystemProgram,
  sendAndConfirmTransaction,
  Transaction,
} from '@solana/web3.js';
import type { Browser, Locator, Page } from 'playwright-core';
import { usdc as usdcText } from '../components/wallet/format';
import {
  challengeAddress,
  challenge as challengeProgram,
  findEvidenceBuffers,
  findIdentityHolder,
  lease,
  loadEconomyConfig,
  loadSatiMembership,
  STAKE_STATUS,
  stakeLock,
  usdcAccountOf,
} from '../lib/chain';
import {
  CHALLENGE_REWARD_BPS,
  CHALLENGE_STAKE,
  CHALLENGE_WINDOW_EPOCHS,
  MIN_STAKE,
  UNLOCK_DELAY_SLOTS,
} from '../lib/protocol/constants';
import { disputeDeskStory } from './disputes.test';
import { CHROMIUM, CHROMIUM_ARGS, chromiumSkip, type RunningServer, startServer } from './harness';
import { createTestWallet, TEST_WALLET_NAME } from './test-wallet';

const EPOCH_SECONDS = 12;

/**
 * A lease plan's `data-until` once it ends more than a whole epoch from now, or as it is after a
 * few tries. The card's clock ticks once a second, so across an epoch boundary its plan can be a
 * tick behind the test's clock; the next tick brings it up to date.
 */
async function untilAhead(el: Locator): Promise<number> {
  let until = 0;
  for (let tries = 0; tries < 4; tries++) {
    until = Number(await el.getAttribute('data-until'));
    if (until * 1000 - Date.now() > EPOCH_SECONDS * 1000) break;
    await new Promise((r) => setTimeout(r, 600));
  }
  return until;
}
/**
 * The late challenge is signed with this much of its window left, and cancelled when less than LATE_MIN_MS is left at
 * its preview.
 */
const LATE_SIGN_MS = 5_000;
const LATE_MIN_MS = 4_000;
const shots = process.env.SHOTS_DIR;
const WIDE = 1440;
const NARROW = 390;

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

  /** Two frames: the layout after a resize or a render has happened. */
  const settle = () =>
    page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
  /**
   * null when the page fits its window; else how wide it is and what sticks out past the right edge (outside any box
   * that scrolls or clips sideways).
   */
  const sideways = () =>
    page.evaluate(() => {
      const root = document.documentElement;
      if (root.scrollWidth <= root.clientWidth) return null;
      const out: string[] = [];
      for (const e of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
        const r = e.getBoundingClientRect();
        if (r.width === 0 || r.right <= root.clientWidth + 0.5) continue;
        let p = e.parentElement;
        while (p && p !== document.body && getComputedStyle(p).overflowX === 'visible') p = p.parentElement;
        if (p && p !== document.body) continue;
        out.push(
          `${e.tagName.toLowerCase()}${e.dataset.testid ? `[${e.dataset.testid}]` : ''}.${(
            e.getAttribute('class') ?? ''
          ).replace(/ /g, '.')} to ${Math.round(r.right)} px`,
        );
      }
      return `${root.scrollWidth} px wide in a ${root.clientWidth} px window: ${out.slice(0, 6).join('; ')}`;
    });
  /**
   * Pairs of the header's wallet parts (cluster, address, balances, faucet, its result, wallet button) drawn over each
   * other; [] when none.
   */
  const walletCornerOverlaps = () =>
    page.evaluate(() => {
      const parts = Array.from(
        document.querySelectorAll<HTMLElement>(
          '[data-testid="wallet-corner"] [data-testid], [data-testid="wallet-corner"] .wallet-adapter-button',
        ),
      ).filter((e) => !e.querySelector('[data-testid]') && e.getClientRects().length > 0);
      const name = (e: HTMLElement) => e.dataset.testid ?? e.className;
      const out: string[] = [];
      parts.forEach((a, i) =>
        parts.slice(i + 1).forEach((b) => {
          const r = a.getBoundingClientRect();
          const q = b.getBoundingClientRect();
          if (r.left < q.right - 0.5 && q.left < r.right - 0.5 && r.top < q.bottom - 0.5 && q.top < r.bottom - 0.5)
            out.push(`${name(a)} × ${name(b)}`);
        }),
      );
      return out;
    });
  /**
   * One owner step: at phone width (390 px) the page must not scroll sideways; with SHOTS_DIR the
   * part of the page the step is about (`target`) is screenshotted at 1,440 and 390 px as
   * `<name>-<width>.png` (a whole page at 390 px is too tall to read).
   */
  const shot = async (name: string, target: Locator) => {
    const snap = async (width: number) => {
      if (!shots) return;
      // An element screenshot may miss a panel that re-rendered meanwhile: the step's checks do not depend on it.
      // The header is sticky at desktop width: static for the picture, so it does not cover the element's top.
      await target
        .screenshot({ path: join(shots, `${name}-${width}.png`), style: '.topbar { position: static !important; }' })
        .catch(() => undefined);
    };
    await snap(WIDE);
    await page.setViewportSize({ width: NARROW, height: 900 });
    try {
      await settle();
      assert.equal(await sideways(), null, `${name}: the page scrolls sideways at ${NARROW} px`);
      assert.deepEqual(await walletCornerOverlaps(), [], `${name}: the header's wallet parts overlap at ${NARROW} px`);
      await snap(NARROW);
    } finally {
      await page.setViewportSize({ width: WIDE, height: 900 });
      await settle();
    }
  };
  const epochNow = () => BigInt(Math.floor(Date.now() / 1000 / EPOCH_SECONDS));
  const card = () => page.getByTestId('agent-card');
  const lastRun = () =>
    page.evaluate(() =>
      Math.max(
        0,
        ...Array.from(document.querySelectorAll<HTMLElement>('[data-testid="action-phases"]'), (e) =>
          Number(e.dataset.run),
        ),
      ),
    );
  const balances = async () => ({
    sol: BigInt(await conn.getBalance(wallet.publicKey, 'confirmed')),
    usdc: await conn
      .getTokenAccountBalance(
        (usdcAta ??= usdcAccountOf((await loadEconomyConfig(conn)).usdcMint, wallet.publicKey)),
        'confirmed',
      )
      .then(
        (r) => BigInt(r.value.amount),
        () => 0n,
      ),
  });
  /** What slash would take from `agentHex` now (a locked or unlocking stake), base units, from the chain. */
  const slashableOf = async (agentHex: string) => {
    const info = await conn.getAccountInfo(
      stakeLock.findStakePda(new PublicKey(Buffer.from(agentHex, 'hex')))[0],
      'confirmed',
    );
    const s = info ? stakeLock.decodeStake(info.data) : null;
    return s && (s.status === STAKE_STATUS.locked || s.status === STAKE_STATUS.unlocking) ? s.amount : 0n;
  };
  /** The browser's own short name of its time zone (the page shows clock times in the viewer's zone). */
  const browserZone = () =>
    page.evaluate(
      () =>
        new Intl.DateTimeFormat('en-GB', { timeZoneName: 'short' })
          .formatToParts(new Date())
          .find((p) => p.type === 'timeZoneName')?.value ?? '',
    );
  const TERMINAL = ['confirmed', 'failed', 'rejected', 'cancelled'];
  /** The action panel newer than run `after` (or run `exact`) whose phase is one of `phases`. */
  const waitPanel = (sel: { after?: number; exact?: string }, phases: string[]) =>
    page
      .waitForFunction(
        ([a, x, ph]) =>
          Array.from(document.querySelectorAll<HTMLElement>('[data-testid="action-phases"]')).find(
            (e) =>
              (x ? e.dataset.run === x : Number(e.dataset.run) > (a as number)) &&
              (ph as string[]).includes(e.dataset.phase ?? ''),
          ),
        [sel.after ?? 0, sel.exact ?? '', phases] as const,
        { timeout: 90_000 },
      )
      .catch(async (e: Error) => {
        const panels = await page.getByTestId('action-phases').allTextContents();
        throw new Error(`${e.message}\naction panels now: ${JSON.stringify(panels)}`);
      });
  /**
   * Clicks `button` and drives the action it starts: it stops at the preview (nothing asked of the
   * wallet yet), then signs from the preview, then waits for the end. With `check`, the preview's
   * SOL and USDC changes are compared, lamport- and base-unit-exact, with the wallet's balances
   * over RPC before signing and after confirmation, and the preview is screenshotted.
   * `beforeSign` runs at the preview; false cancels it from the page instead of signing.
   * `shotPreview` false skips the preview's screenshot (a step racing a closing window).
   * `clickTimeout` bounds the wait for the button to be enabled (a window that may close first).
   */
  const act = async (
    button: Locator,
    check?: string,
    beforeSign?: () => Promise<boolean>,
    shotPreview = true,
    clickTimeout?: number,
  ) => {
    const prev = await lastRun();
    const signedBefore = wallet.signed;
    await button.click(clickTimeout ? { timeout: clickTimeout } : undefined);
    let el = (await waitPanel({ after: prev }, ['previewed', ...TERMINAL])).asElement()!;
    const run = await el.getAttribute('data-run');
    let preview: { sol: bigint; usdc: bigint | null; fees: bigint; rentBack: bigint; text: string } | null = null;
    if ((await el.getAttribute('data-phase')) === 'previewed') {
      assert.equal(wallet.signed, signedBefore, 'the wallet is not asked before the preview is confirmed');
      const pv = panelOf(run).getByTestId('action-preview');
      const u = await pv.getAttribute('data-usdc-change');
      preview = {
        sol: BigInt((await pv.getAttribute('data-sol-change'))!),
        usdc: u ? BigInt(u) : null,
        fees: BigInt((await pv.getAttribute('data-fees'))!),
        rentBack: BigInt((await pv.getAttribute('data-rent-back'))!),
        text: (await pv.textContent()) ?? '',
      };
      if (check && shotPreview) await shot(`preview-${check}`, panelOf(run));
      if (beforeSign && !(await beforeSign())) {
        await panelOf(run).getByTestId('preview-cancel').click();
        el = (await waitPanel({ exact: run! }, TERMINAL)).asElement()!;
        assert.equal(wallet.signed, signedBefore, 'a cancelled preview never reaches the wallet');
        return { phase: await el.getAttribute('data-phase'), text: (await el.textContent()) ?? '', run, preview };
      }
      const before = await balances();
      await panelOf(run).getByTestId('preview-sign').click();
      el = (await waitPanel({ exact: run! }, TERMINAL)).asElement()!;
      if (check && (await el.getAttribute('data-phase')) === 'confirmed') {
        const after = await balances();
        assert.equal(after.sol - before.sol, preview.sol, `${check}: the previewed SOL change is the balance change`);
        assert.equal(
          after.usdc - before.usdc,
          preview.usdc,
          `${check}: the previewed USDC change is the balance change`,
        );
      }
    }
    return { phase: await el.getAttribute('data-phase'), text: (await el.textContent()) ?? '', run, preview };
  };
  /** The action failed in its simulation because the challenge window had closed: nothing was sent. */
  const windowClosedBeforeSending = (r: { phase: string | null; text: string; preview: unknown }) =>
    r.phase === 'failed' && r.preview === null && /Nothing was sent.*\(program error WindowClosed/.test(r.text);
  const panelOf = (run: string | null) => page.locator(`[data-testid="action-phases"][data-run="${run}"]`);

  before(async () => {
    // The test wallet is the deployment's named dispute reviewer, so its opinion counts (docs/app.md "Dispute desk").
    srv = await startServer((dir) => ({
      DATA_DIR: dir,
      SOLANA_RPC_URL: '',
      CHAIN_PORT: '0',
      DEMO_AGENTS: '4',
      EPOCH_SECONDS: String(EPOCH_SECONDS),
      OBSERVER_LISTEN: '/ip4/127.0.0.1/tcp/0',
      DISPUTE_REVIEWERS: wallet.address,
    }));
    const health = await srv.getJson<{ chain?: { rpcUrl: string } }>('/api/health');
    rpcUrl = health.body.chain!.rpcUrl;
    conn = new Connection(rpcUrl, 'confirmed');
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: WIDE, height: 900 } });
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
  async function challengeableVerified(
    want: (b: { agent: string; epoch: string }) => boolean,
  ): Promise<{ agent: string; epoch: string } | undefined> {
    return srv.until(
      'a challengeable verified batch with an epoch of its window left',
      60_000,
      async () => {
        const list = (
          await srv.getJson<{ batches: { agent: string; epoch: string }[] }>('/api/batches?status=verified&limit=100')
        ).body.batches
          .filter((b) => want(b) && epochNow() <= BigInt(b.epoch) + 1n)
          .sort((a, b) => (BigInt(b.epoch) > BigInt(a.epoch) ? 1 : BigInt(b.epoch) < BigInt(a.epoch) ? -1 : 0));
        for (const b of list) {
          const c = await srv.getJson<{ candidates: unknown[] }>(
            `/api/batches/challengeable?agent=${b.agent}&epoch=${b.epoch}`,
          );
          if (c.body.candidates.length > 0 && epochNow() <= BigInt(b.epoch) + 1n) return b;
        }
        return undefined;
      },
      500,
    );
  }

  test('connect the wallet and use the faucet', async () => {
    await page.goto(`${srv.base}/owner`);
    assert.equal(await page.getByTestId('cluster').textContent(), 'embedded chain');
    await page
      .getByRole('button', { name: /select wallet/i })
      .first()
      .click();
    await page.getByRole('button', { name: new RegExp(TEST_WALLET_NAME) }).click();
    await page.getByTestId('wallet-address').waitFor();
    assert.equal(await page.getByTestId('wallet-address').getAttribute('title'), wallet.address);

    await page.getByTestId('faucet').click();
    await page.getByTestId('wallet-usdc').filter({ hasText: '100.00 USDC' }).waitFor({ timeout: 30_000 });
    assert.ok((await conn.getBalance(wallet.publicKey)) >= 2e9);
    await shot('faucet', page.locator('header.topbar'));
  });

  test(
    'one-click challenges: a contradicted entry of the ' + 'flagged batch, and an entry an honest batch reports',
    async () => {
      // The demo's cheater leaves a bid out of one batch; the indexer flags it against the uploaded log.
      flagged = await srv.until(
        'a mismatch batch',
        120_000,
        async () => {
          const r = await srv.getJson<{ batches: { agent: string; epoch: string }[] }>('/api/batches?status=mismatch');
          // The demo's cheater under-reports each epoch it has a bid to leave out: take the newest flagged batch with
          // at least one epoch of its window left (a slow machine must still confirm the challenge in it).
          return r.body.batches.find((b) => epochNow() <= BigInt(b.epoch) + 1n);
        },
        500,
      );
      await page.goto(`${srv.base}/agents/${flagged.agent}`);
      const bc = page.locator(`[data-testid="batch-challenges"][data-epoch="${flagged.epoch}"]`);
      await bc.getByTestId('contradiction').first().waitFor({ timeout: 20_000 });
      assert.match(
        (await bc.getByTestId('contradiction').first().textContent())!,
        /bid \d+ to [0-9a-f]{8}…: missing from the batch/,
      );
      // Its window may have little time left on a busy machine: no screenshot between preview and signature
      // (the confirmed panel below still shows the preview).
      // The target's stake as the chain has it around the preview (the demo's watcher may slash it meanwhile: either is
      // right).
      const stakeBefore = await slashableOf(flagged.agent);
      const opened = await act(
        bc.getByTestId('contradiction').first().getByTestId('challenge-entry'),
        'challenge',
        undefined,
        false,
      );
      assert.equal(opened.phase, 'confirmed', opened.text);
      assert.equal(opened.preview?.usdc, -10_000_000n, 'the preview says 10 USDC leaves the wallet');
      assert.match(opened.preview!.text, /a wrong challenge forfeits the 10\.00 USDC to the treasury/);
      // The preview names the agent's real stake and what an upheld challenge pays, in USDC.
      const outcome = panelOf(opened.run).getByTestId('preview-outcome');
      const stakeAfter = await slashableOf(flagged.agent);
      const stakeAtPreview = BigInt((await outcome.getAttribute('data-target-stake'))!);
      assert.ok(
        [stakeBefore, stakeAfter].includes(stakeAtPreview),
        `the preview shows the stake on chain (${stakeAtPreview}; chain ${stakeBefore} before, ${stakeAfter} after)`,
      );
      const reward = (stakeAtPreview * CHALLENGE_REWARD_BPS) / 10_000n;
      assert.equal(await outcome.getAttribute('data-gets'), (CHALLENGE_STAKE + reward).toString());
      assert.match(
        (await outcome.getByTestId('preview-target-stake').textContent())!,
        new RegExp(`^The agent's stake: ${usdcText(stakeAtPreview).replace(/\./g, '\\.')} USDC`),
      );
      assert.match(
        (await outcome.getByTestId('preview-expected').textContent())!,
        new RegExp(
          `^Expected outcome: upheld .*you get ${usdcText(CHALLENGE_STAKE + reward).replace(/\./g, '\\.')} USDC`,
        ),
      );
      assert.match(
        opened.preview!.text,
        /creates evidence buffer .*back to the challenger when the challenge is resolved/,
      );
      // The wallet's challenge of this batch is read from the chain: it stays shown whatever the window does.
      await bc.getByTestId('my-batch-challenge').filter({ hasText: 'pending' }).waitFor({ timeout: 10_000 });
      await shot('phases-challenge', bc);
      won = challengeAddress(new PublicKey(Buffer.from(flagged.agent, 'hex')), BigInt(flagged.epoch), wallet.publicKey);
      assert.equal(
        challengeProgram.decodeChallenge((await conn.getAccountInfo(won))!.data)!.status,
        0,
        'pending on chain',
      );
      // Picked only now, after the flagged batch's challenge: with 12 s epochs a batch picked before
      // it could leave its challenge window while that transaction confirms.
      // This one is sent as its window closes: signed in the window's last seconds, so the window
      // closes while the action's transactions land (the submission first, then the evidence
      // buffer's chunks). A preview reached too late to land the submission is cancelled and
      // another batch taken.
      let opened2: Awaited<ReturnType<typeof act>> | undefined;
      let closesAt = 0;
      for (let attempt = 0; attempt < 3 && !opened2; attempt++) {
        // Another agent than the flagged one: each agent page then holds one challenge of this wallet to resolve.
        const h = await challengeableVerified((b) => b.agent !== flagged.agent && epochNow() <= BigInt(b.epoch) + 2n);
        assert.ok(h, 'a verified batch still inside its window, of an agent signing with its owner key');
        const closes = Number((BigInt(h.epoch) + CHALLENGE_WINDOW_EPOCHS + 1n) * BigInt(EPOCH_SECONDS)) * 1000;
        await page.goto(`${srv.base}/agents/${h.agent}`);
        const hc = page.locator(`[data-testid="batch-challenges"][data-epoch="${h.epoch}"]`);
        await hc.locator('summary').first().click();
        const r = await act(
          hc.getByTestId('reported-entry').first().getByTestId('challenge-entry'),
          'challenge-reported',
          async () => {
            if (closes - Date.now() < LATE_MIN_MS) return false;
            while (closes - Date.now() > LATE_SIGN_MS) await page.waitForTimeout(100);
            return true;
          },
        );
        if (r.phase === 'cancelled' || windowClosedBeforeSending(r)) continue;
        opened2 = r;
        honest = h;
        closesAt = closes;
      }
      assert.ok(opened2, 'a challenge signed in the last seconds of its window');
      assert.match(opened2.preview?.text ?? '', /most likely be rejected/);
      assert.equal(
        await panelOf(opened2.run).getByTestId('preview-outcome').getAttribute('data-gets'),
        '0',
        'expected rejected: the challenger gets nothing',
      );
      assert.match(
        (await panelOf(opened2.run).getByTestId('preview-expected').textContent())!,
        /^Expected outcome: rejected .*you get 0\.00 USDC; your 10\.00 USDC goes to the treasury/,
      );
      assert.equal(opened2.phase, 'confirmed', opened2.text);
      lost = challengeAddress(new PublicKey(Buffer.from(honest.agent, 'hex')), BigInt(honest.epoch), wallet.publicKey);
      assert.equal(
        challengeProgram.decodeChallenge((await conn.getAccountInfo(lost))!.data)!.status,
        0,
        'pending on chain',
      );
      // The window is closed now: the candidates went with it, the action's confirmation and
      // signatures stay, and the challenge read from the chain shows pending, resolvable.
      while (Date.now() < closesAt + 500) await page.waitForTimeout(200);
      const hc = page.locator(`[data-testid="batch-challenges"][data-epoch="${honest.epoch}"]`);
      await hc
        .getByTestId('my-batch-challenge')
        .and(page.locator('[data-status="pending"][data-phase="resolvable"]'))
        .waitFor({ timeout: 20_000 });
      await hc.getByTestId('challenge-entry').first().waitFor({ state: 'detached', timeout: 10_000 });
      assert.equal(
        await panelOf(opened2.run).getAttribute('data-phase'),
        'confirmed',
        'the confirmation outlives the window',
      );
      assert.ok(
        (await panelOf(opened2.run).getByTestId('action-signature').count()) >= 2,
        "the submission and the evidence buffer's signatures are still shown",
      );
      await shot('challenge-window-closed', hc);

      // A third challenge nobody resolves: expired by anyone later. A busy machine may reach a batch
      // only after its window closed: the simulation then fails, nothing is sent, and another is taken.
      for (let attempt = 0; attempt < 3 && !left; attempt++) {
        const other = await challengeableVerified(
          (b) => b.agent !== honest.agent && b.agent !== flagged.agent && epochNow() <= BigInt(b.epoch) + 2n,
        );
        assert.ok(other, 'another verified batch inside its window');
        await page.goto(`${srv.base}/agents/${other.agent}`);
        const oc = page.locator(`[data-testid="batch-challenges"][data-epoch="${other.epoch}"]`);
        await oc.locator('summary').first().click();
        const opened3 = await act(oc.getByTestId('reported-entry').first().getByTestId('challenge-entry'));
        if (windowClosedBeforeSending(opened3)) continue;
        assert.equal(opened3.phase, 'confirmed', opened3.text);
        left = {
          ...other,
          address: challengeAddress(
            new PublicKey(Buffer.from(other.agent, 'hex')),
            BigInt(other.epoch),
            wallet.publicKey,
          ),
        };
      }
      assert.ok(left, 'a third challenge inside its window');
    },
  );

  test('register, stake (failures first), lease, unlock', async () => {
    await page.goto(`${srv.base}/owner`);
    await page.getByTestId('wallet-address').waitFor();
    // The form refuses before anything is signed: no name, a symbol over 10 bytes, an ftp: uri.
    await page.getByTestId('register-symbol').fill('ÉÉÉÉÉÉ');
    await page.getByTestId('register-uri').fill('ftp://agents.example/e2e.json');
    await page.getByTestId('register').click();
    assert.equal(await page.getByTestId('register-name-error').textContent(), 'Give the agent a name');
    assert.match(
      (await page.getByTestId('register-symbol-error').textContent())!,
      /12 bytes of UTF-8 \(6 characters\)/,
    );
    assert.match((await page.getByTestId('register-uri-error').textContent())!, /scheme ftp:/);
    await shot('register-form-errors', page.getByTestId('register-form'));
    await page.getByTestId('register-name').fill('e2e agent');
    await page.getByTestId('register-symbol').fill('E2E');
    await page.getByTestId('register-uri').fill('data:application/json,{"name":"e2e"}');
    const reg = await act(page.getByTestId('register'), 'register');
    assert.equal(reg.phase, 'confirmed', reg.text);
    assert.ok(reg.preview!.sol < 0n && reg.preview!.usdc === 0n, 'registering costs SOL (fee + rent) and no USDC');
    await shot('registered', panelOf(reg.run));
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
    assert.deepEqual(
      [member.name, member.symbol, member.uri, member.nonTransferable],
      ['e2e agent', 'E2E', 'data:application/json,{"name":"e2e"}', false],
    );
    // Its delegations, read from the chain in the browser: none; revocation is not offered without SAS.
    await card().getByTestId('no-delegations').waitFor({ timeout: 20_000 });
    assert.match(
      (await card().getByTestId('revoke-unavailable').textContent())!,
      /This chain has no SAS program .*revocation needs the SAS program on a cluster/,
    );

    // Below the program's minimum, and more than the wallet holds: refused in the form with the
    // amounts held and needed, exact; no action starts and the wallet is never asked.
    const held = (await balances()).usdc;
    const runsBefore = await lastRun();
    const signedBeforeForm = wallet.signed;
    const refusal = card().getByTestId('lock-stake-reason');
    await page.getByTestId('stake-amount').fill('1');
    await refusal
      .filter({ hasText: 'below the minimum stake' })
      .filter({ hasText: 'this wallet holds' })
      .waitFor({ timeout: 20_000 });
    assert.equal(await card().getByTestId('lock-stake').isDisabled(), true);
    assert.equal(
      await refusal.textContent(),
      `below the minimum stake: 1.00 USDC entered; stake_lock takes at least ` +
        `${usdcText(MIN_STAKE)} USDC (this wallet holds ${usdcText(held)} USDC)`,
    );
    assert.deepEqual(
      [await refusal.getAttribute('data-held'), await refusal.getAttribute('data-need')],
      [held.toString(), MIN_STAKE.toString()],
    );
    await shot('stake-below-minimum', card());
    const tooMuch = held + 430_000_001n;
    await page.getByTestId('stake-amount').fill(usdcText(tooMuch));
    await refusal.filter({ hasText: 'needed for this stake' }).waitFor();
    assert.equal(await card().getByTestId('lock-stake').isDisabled(), true);
    assert.equal(
      await refusal.textContent(),
      `this wallet holds ${usdcText(held)} USDC; ${usdcText(tooMuch)} USDC needed for this stake (430.000001 more)`,
    );
    assert.deepEqual(
      [await refusal.getAttribute('data-held'), await refusal.getAttribute('data-need')],
      [held.toString(), tooMuch.toString()],
    );
    await shot('stake-above-balance', card());
    assert.equal(await lastRun(), runsBefore, 'no action started');
    assert.equal(wallet.signed, signedBeforeForm, 'the wallet was never asked');

    // A rejected signature sends nothing.
    const before = wallet.signed;
    await page.getByTestId('stake-amount').fill('10');
    wallet.rejectNext();
    const rej = await act(page.getByTestId('lock-stake'));
    assert.equal(rej.phase, 'rejected');
    assert.match((await panelOf(rej.run).getByTestId('action-error').textContent())!, /nothing was sent/);
    assert.equal(wallet.signed, before);
    assert.equal(
      await conn.getAccountInfo(stakeLock.findStakePda(new PublicKey(agent))[0]),
      null,
      'no stake account after the rejection',
    );
    await shot('phases-rejected', panelOf(rej.run));

    // Too little SOL: the wallet keeps 0.0009 SOL; the page says so before the wallet is asked.
    const sink = Keypair.generate();
    const full = BigInt(await conn.getBalance(wallet.publicKey, 'confirmed'));
    await sendAndConfirmTransaction(
      conn,
      new Transaction().add(
        SystemProgram.transfer({
          fromPubkey: wallet.publicKey,
          toPubkey: sink.publicKey,
          lamports: Number(full - 900_000n - 5000n),
        }),
      ),
      [walletKeypair],
      { commitment: 'confirmed' },
    );
    const poor = await act(page.getByTestId('lock-stake'));
    assert.equal(poor.phase, 'failed', poor.text);
    assert.equal(poor.preview, null, 'no preview: the SOL check comes first');
    const poorError = panelOf(poor.run).getByTestId('action-error');
    assert.equal(await poorError.getAttribute('data-error-name'), 'TooLittleSol');
    assert.equal(await poorError.getAttribute('data-nothing-sent'), 'true');
    assert.match(
      (await poorError.textContent())!,
      new RegExp(
        String.raw`^Nothing was sent and no fee was paid\. Too little SOL: this action ` +
          String.raw`needs 0\.\d+ SOL \(fees 0\.000005 \+ rent 0\.00161472.*the wallet ` +
          String.raw`holds 0\.0009 SOL`,
      ),
    );
    assert.equal(wallet.signed, before, 'the wallet was never asked');
    await shot('too-little-sol', panelOf(poor.run));
    const back = BigInt(await conn.getBalance(sink.publicKey, 'confirmed'));
    await sendAndConfirmTransaction(
      conn,
      new Transaction().add(
        SystemProgram.transfer({
          fromPubkey: sink.publicKey,
          toPubkey: wallet.publicKey,
          lamports: Number(back - 5000n),
        }),
      ),
      [sink],
      { commitment: 'confirmed' },
    );

    const locked = await act(page.getByTestId('lock-stake'), 'lock-stake');
    assert.equal(locked.phase, 'confirmed', locked.text);
    assert.equal(locked.preview?.usdc, -10_000_000n);
    assert.match(locked.preview!.text, /creates Stake account .*rent 0\.00161472 SOL, not returned/);
    assert.match(
      (await panelOf(locked.run).getByTestId('action-signature').first().textContent())!,
      /^[1-9A-HJ-NP-Za-km-z]{64,88}$/,
    );
    const stake = stakeLock.decodeStake(
      (await conn.getAccountInfo(stakeLock.findStakePda(new PublicKey(agent))[0]))!.data,
    )!;
    assert.equal(stake.amount, 10_000_000n);
    assert.equal(stake.status, STAKE_STATUS.locked);
    await card().getByTestId('card-stake').filter({ hasText: '10.00 USDC, locked' }).waitFor();
    await shot('phases-confirmed-lock-stake', card());
    assert.match(
      (await card().getByTestId('queue-unlock-reason').textContent())!,
      /unlock needs the lease deactivated: no lease yet/,
    );
    assert.equal(await card().getByTestId('queue-unlock').isDisabled(), true);

    // The proposed first payment: the current epoch and a whole one after it, ending in the future, in the viewer's
    // zone.
    const total = page.getByTestId('lease-total');
    assert.equal(await page.getByTestId('lease-epochs').inputValue(), '2', 'a first lease proposes two epochs');
    assert.equal(
      (await total.textContent())?.startsWith('2 epochs × 1.00 USDC = 2.00 USDC'),
      true,
      'the lease input says its unit and total',
    );
    const until = await untilAhead(total);
    assert.ok(
      until * 1000 - Date.now() > EPOCH_SECONDS * 1000,
      `the proposal ends more than a whole epoch from now (until ${until}, now ${Date.now() / 1000})`,
    );
    assert.ok(Number(await total.getAttribute('data-whole-future')) >= 1);
    const zone = await browserZone();
    assert.match(
      (await page.getByTestId('lease-until').textContent())!,
      new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d ${zone.replace(/\+/g, '\\+')} \\(in \\d`),
    );
    await shot('lease-proposal', card());
    const paid = await act(page.getByTestId('pay-lease'), 'pay-lease');
    assert.equal(paid.phase, 'confirmed', paid.text);
    assert.equal(paid.preview?.usdc, -2_000_000n);
    const l = lease.decodeLease((await conn.getAccountInfo(lease.findLeasePda(new PublicKey(agent))[0]))!.data)!;
    assert.ok(
      l.paidThroughEpoch >= l.createdEpoch + 1n,
      `paid through epoch ${l.paidThroughEpoch}: a whole epoch after the one it landed in (${l.createdEpoch})`,
    );
    await card()
      .getByTestId('card-lease')
      .filter({ hasText: `paid through epoch ${l.paidThroughEpoch}` })
      .waitFor();
    const reason = (await card().getByTestId('queue-unlock-reason').textContent())!;
    assert.match(reason, new RegExp(`unlock needs the lease deactivated: paid through epoch ${l.paidThroughEpoch}`));
    assert.equal(await card().getByTestId('queue-unlock').isDisabled(), true);
    await shot('my-agents-unlock-disabled', card());

    // Let the lease lapse past grace, tick (anyone may), then unlock.
    // Paid through the next 12-second epoch: paid, due soon, then in grace (a busy machine may only see the latter).
    const health = card().getByTestId('lease-health');
    await health.waitFor();
    if (['due-soon', 'ok'].includes((await health.getAttribute('data-state')) ?? '')) {
      assert.match((await health.textContent())!, /next payment due \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+ \((in \d|now)/);
    }
    // Grace lasts three 12-second epochs; a busy machine may first render the card after it.
    await card()
      .getByTestId('lease-health')
      .and(page.locator('[data-state="grace"], [data-state="lapsed"]'))
      .waitFor({ timeout: 60_000 });
    if ((await health.getAttribute('data-state')) === 'grace') {
      assert.match((await health.textContent())!, /in grace: unpaid.*a tick deactivates it from/);
      await shot('lease-grace', card());
    }
    const lapse = l.paidThroughEpoch + 4n;
    // The program reads the epoch from the chain's Clock (unix_timestamp at byte 32), which a busy
    // machine moves a little after the wall clock: wait for the chain's, not ours.
    const chainEpoch = async () =>
      (await conn.getAccountInfo(SYSVAR_CLOCK_PUBKEY, 'confirmed'))!.data.readBigInt64LE(32) / BigInt(EPOCH_SECONDS);
    while ((await chainEpoch()) < lapse) await page.waitForTimeout(500);
    assert.equal((await act(page.getByTestId('tick-lease'))).phase, 'confirmed');
    assert.equal(
      lease.decodeLease((await conn.getAccountInfo(lease.findLeasePda(new PublicKey(agent))[0]))!.data)!.status,
      2,
    );
    await card().getByTestId('card-lease').filter({ hasText: 'deactivated' }).waitFor();
    await card().getByTestId('queue-unlock').and(page.locator(':enabled')).waitFor({ timeout: 10_000 });
    const queued = await act(page.getByTestId('queue-unlock'), 'queue-unlock');
    assert.equal(queued.phase, 'confirmed', queued.text);
    assert.equal(
      stakeLock.decodeStake((await conn.getAccountInfo(stakeLock.findStakePda(new PublicKey(agent))[0]))!.data)!.status,
      STAKE_STATUS.unlocking,
    );
    await card().getByTestId('card-stake').filter({ hasText: 'unlocking' }).waitFor();
    assert.match(
      (await card().getByTestId('claim-stake-reason').textContent())!,
      /unlock delay: claimable from slot \d+/,
    );
    await shot('unlock-queued', card());

    // The lease lapsed: the page computes the back-lease and pays it in one action.
    await card().getByTestId('lease-health').and(page.locator('[data-state="lapsed"]')).waitFor();
    await shot('lease-lapsed', card());
    const reactivate = card().getByTestId('reactivate-lease');
    assert.ok(
      (await untilAhead(card().getByTestId('reactivate-amount'))) * 1000 > Date.now() + EPOCH_SECONDS * 1000,
      'the reactivation ends a whole epoch from now',
    );
    const re = await act(reactivate, 'reactivate-lease');
    assert.equal(re.phase, 'confirmed', re.text);
    const label = /Pay (\d+) epochs? of lease to reactivate/.exec(re.text);
    assert.ok(label, `the action names the epochs it pays: ${re.text}`);
    assert.equal(re.preview?.usdc, -BigInt(label[1]) * 1_000_000n, 'the computed amount is what the preview moves');
    const relet = lease.decodeLease((await conn.getAccountInfo(lease.findLeasePda(new PublicKey(agent))[0]))!.data)!;
    assert.equal(relet.status, 0, 'reactivated on chain');
    assert.ok(
      relet.paidThroughEpoch >= relet.lastTickEpoch + 1n,
      `paid through epoch ${relet.paidThroughEpoch}: a whole epoch after the one it landed in (${relet.lastTickEpoch})`,
    );
    // The card follows the chain: active, paid through the epoch the payment reached, out of the lapsed state.
    await card()
      .getByTestId('card-lease')
      .filter({ hasText: `active, paid through epoch ${relet.paidThroughEpoch} (` })
      .waitFor({ timeout: 30_000 });
    assert.notEqual(await card().getByTestId('lease-health').getAttribute('data-state'), 'lapsed');
    await shot('lease-reactivated', card());
    // The wallet's history with the programs: effects in words, explorer links on the embedded chain's custom cluster.
    // The history reads up to 15 transactions under the RPC proxy's budget for expensive calls, so it may take a
    // refresh or two.
    await page
      .getByTestId('history-effect')
      .filter({ hasText: /locked 10\.00 USDC stake/ })
      .first()
      .waitFor({ timeout: 60_000 });
    await page
      .getByTestId('history-effect')
      .filter({ hasText: /lease epochs? for .*reactivated/ })
      .first()
      .waitFor({ timeout: 60_000 });
    assert.match(
      (await page.getByTestId('history-link').first().getAttribute('href'))!,
      /^https:\/\/explorer\.solana\.com\/tx\/\w+\?cluster=custom&customUrl=http/,
    );
    assert.match((await page.getByTestId('network-rpc').textContent())!, /\/api\/chain\/rpc$/);
    await shot('my-agents', page.getByTestId('owner-history'));
  });

  test('warp past the unlock delay from the test process, then claim the stake from the page', async () => {
    const stakePda = stakeLock.findStakePda(new PublicKey(agent))[0];
    const queued = stakeLock.decodeStake((await conn.getAccountInfo(stakePda))!.data)!;
    const claimableFrom = queued.unlockRequestedSlot + UNLOCK_DELAY_SLOTS;
    const warp = { jsonrpc: '2.0', id: 1, method: 'zerox1_warpSlot', params: { slot: Number(claimableFrom) + 5 } };
    const post = (url: string) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(warp) }).then(
        (r) =>
          r.json() as Promise<{
            result?: { previousSlot: number; slot: number };
            error?: { code: number; message: string };
          }>,
      );

    // A visitor cannot warp the observatory's chain: the page's proxy forwards only Solana methods.
    const refused = await post(`${srv.base}/api/chain/rpc`);
    assert.equal(refused.error?.code, -32601, JSON.stringify(refused));
    assert.ok(BigInt(await conn.getSlot()) < claimableFrom, 'the proxy did not warp the chain');
    assert.match(
      (await card().getByTestId('claim-stake-reason').textContent())!,
      new RegExp(`claimable from slot ${claimableFrom}`),
    );
    assert.equal(await card().getByTestId('claim-stake').isDisabled(), true);

    // The test process warps the chain on its own port (127.0.0.1), as a developer would.
    const warped = await post(rpcUrl);
    assert.equal(warped.result?.slot, Number(claimableFrom) + 5, JSON.stringify(warped));
    assert.ok(BigInt(await conn.getSlot()) >= claimableFrom);
    // The card re-reads the slot every 3 s: the reason goes and the button enables.
    await card().getByTestId('claim-stake-reason').waitFor({ state: 'detached', timeout: 20_000 });
    await card().getByTestId('claim-stake').and(page.locator(':enabled')).waitFor({ timeout: 10_000 });
    await shot('my-agents-claimable', card());

    const economy = await loadEconomyConfig(conn);
    const usdcOf = async () =>
      BigInt((await conn.getTokenAccountBalance(usdcAccountOf(economy.usdcMint, wallet.publicKey))).value.amount);
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
    await card()
      .getByTestId('card-stake')
      .filter({ hasText: /^0\.00 USDC, claimed$/ })
      .waitFor({ timeout: 30_000 });

    // The indexer follows the warped chain: it records the claim (read back over MCP, which
    // answers from the indexed state) and keeps indexing the demo's batches landing after the warp.
    const mcp = new Client({ name: 'wallet-e2e', version: '1' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${srv.base}/api/mcp`)));
    try {
      await srv.until(
        'the indexer to record the claim',
        30_000,
        async () => {
          const r = (await mcp.callTool({ name: 'get_stake_status', arguments: { agent } })) as {
            isError?: boolean;
            content: { text: string }[];
          };
          return (
            !r.isError &&
            (JSON.parse(r.content[0].text) as { stake: { status: string } | null }).stake?.status === 'claimed'
          );
        },
        1000,
      );
    } finally {
      await mcp.close();
    }
    await srv.until(
      'a batch submitted after the warp',
      60_000,
      async () => {
        const r = await srv.getJson<{ batches: { slot: string }[] }>('/api/batches?sort=slot&limit=1');
        return r.body.batches[0] && BigInt(r.body.batches[0].slot) >= claimableFrom;
      },
      1000,
    );
    await page.reload();
    await card()
      .getByTestId('card-stake')
      .filter({ hasText: /^0\.00 USDC, claimed$/ })
      .waitFor({ timeout: 20_000 });
    assert.equal(await card().getByTestId('claim-stake').isDisabled(), true);
    assert.match((await card().getByTestId('claim-stake-reason').textContent())!, /stake is claimed/);
    await shot('my-agents-claimed', card());
  });

  test(
    'after the window anyone resolves: the contradicted entry ' +
      'wins, the reported one loses; past twice the window one expires',
    async () => {
      // After the window anyone resolves; this wallet resolves both from the agent pages.
      for (const [hex, epoch, address, status, name] of [
        [flagged.agent, flagged.epoch, won, 1, 'upheld'],
        [honest.agent, honest.epoch, lost, 2, 'rejected'],
      ] as const) {
        while (epochNow() <= BigInt(epoch) + 2n) await page.waitForTimeout(1000);
        await page.goto(`${srv.base}/agents/${hex}`);
        // The challenged batch is older than the page's newest batches by now: the pending challenge
        // links to it, and the page it opens holds it (pinned above the newest, the link's target).
        const row = page.getByTestId('challenge-row').filter({ has: page.locator(`td[title="${wallet.address}"]`) });
        // Read before the click: a batch off the first page then is still off it when the link's page renders.
        const firstPage = (
          await srv.getJson<{ rows: { epoch: string }[] }>(`/api/agents/${hex}/batches?limit=10`)
        ).body.rows.map((r) => r.epoch);
        await row.getByTestId('challenge-batch').click();
        await page.waitForURL((u) => u.searchParams.get('batch') === epoch && u.hash === `#batch-${epoch}`);
        const batchRow = page.locator(`[data-testid="agent-batches"] tr#batch-${epoch}`);
        await batchRow.waitFor();
        const pinned = await batchRow.getAttribute('data-pinned');
        if (!firstPage.includes(epoch))
          assert.equal(pinned, 'linked', 'older than the first page: pinned as the linked batch');
        else assert.ok([null, 'linked'].includes(pinned));
        // After the window and a reload, the wallet's challenge still reads from the chain: pending, resolvable (or
        // expirable, also resolvable).
        await page
          .locator(`[data-testid="batch-challenges"][data-epoch="${epoch}"]`)
          .getByTestId('my-batch-challenge')
          .and(page.locator('[data-phase="resolvable"], [data-phase="expirable"]'))
          .waitFor({ timeout: 20_000 });
        await row.getByTestId('resolve-challenge').and(page.locator(':enabled')).waitFor({ timeout: 20_000 });
        // The evidence buffer staged at the challenge is reused, so the whole resolve is previewed; it closes and its
        // rent comes back.
        const buffers = await conn.getProgramAccounts(challengeProgram.PROGRAM_ID, {
          filters: [{ memcmp: { offset: 8, bytes: wallet.address } }],
        });
        const buffer = buffers.find((b) => challengeProgram.decodeBuffer(b.account.data))!;
        assert.ok(buffer, "the challenger's evidence buffer is on chain");
        const resolved = await act(row.getByTestId('resolve-challenge'), `resolve-${name}`);
        assert.equal(resolved.phase, 'confirmed', resolved.text);
        assert.match(resolved.preview!.text, /closes evidence buffer/);
        assert.match(
          resolved.text,
          name === 'upheld' ? /You won: upheld/ : /You lost: rejected.*10 USDC challenge stake went to the treasury/,
        );
        const gone = await Promise.all(buffers.map((b) => conn.getAccountInfo(b.pubkey)));
        assert.equal(gone.filter((x) => x === null).length, 1, 'one evidence buffer closed by resolve_challenge');
        // Its whole rent came back to this wallet: the preview's SOL change (equal to the balance
        // change, checked in act) is that rent less the fee.
        const closedBuffer = buffers[gone.indexOf(null)];
        assert.equal(
          resolved.preview!.rentBack,
          BigInt(closedBuffer.account.lamports),
          "the preview returns the buffer's rent",
        );
        assert.equal(
          resolved.preview!.sol,
          BigInt(closedBuffer.account.lamports) - resolved.preview!.fees,
          'the evidence rent came back, less the fee',
        );
        await shot(`challenge-resolved-${name}`, panelOf(resolved.run));
        assert.equal(challengeProgram.decodeChallenge((await conn.getAccountInfo(address))!.data)!.status, status);
        // The indexer catches up; the page shows the resolution.
        await srv.until('the indexer to record the resolution', 30_000, async () => {
          const r = await srv.getJson<{ challenges: { address: string; status: string }[] }>(
            `/api/challenges?agent=${hex}`,
          );
          return r.body.challenges.find((c) => c.address === address.toBase58() && c.status !== 'pending');
        });
        await page.goto(`${srv.base}/agents/${hex}`);
        // The challenger cell is an explorer link titled with the whole address.
        const mine = page
          .getByTestId('agent-challenges')
          .locator('tr', { has: page.locator(`a[title^="${wallet.address}"]`) });
        assert.match((await mine.textContent()) ?? '', new RegExp(`${name}.*pending\\b[^→]*→ ${name}`));
        await shot(`challenge-resolved-${name}-table`, page.getByTestId('agent-challenges'));
      }

      // Past twice the window an unresolved challenge expires; anyone may send it.
      while (epochNow() <= BigInt(left!.epoch) + 4n) await page.waitForTimeout(1000);
      await page.goto(`${srv.base}/agents/${left!.agent}`);
      const row = page.getByTestId('challenge-row').filter({ has: page.locator(`td[title="${wallet.address}"]`) });
      await row.getByTestId('expire-challenge').and(page.locator(':enabled')).waitFor({ timeout: 20_000 });
      const expired = await act(row.getByTestId('expire-challenge'));
      assert.equal(expired.phase, 'confirmed', expired.text);
      assert.equal(
        challengeProgram.decodeChallenge((await conn.getAccountInfo(left!.address))!.data)!.status,
        4,
        'expired on chain',
      );
      await shot('challenge-expired', panelOf(expired.run));

      // My challenges lists them from the chain: two resolved (won, lost), one expired, and the expired one's buffer to
      // close.
      await page.goto(`${srv.base}/owner`);
      const mine = page.getByTestId('my-challenge').and(page.locator('[data-role="challenger"]'));
      await mine.nth(2).waitFor({ timeout: 20_000 });
      const results = (await mine.allTextContents()).join('\n');
      assert.match(results, /won \(upheld\)/);
      assert.match(results, /lost \(rejected\)/);
      assert.match(results, /lost \(expired\)/);
      await shot('my-challenges', page.getByTestId('my-challenges'));
      // The expired challenge's evidence buffer: closed from the page, its rent back.
      const closeBtn = page.getByTestId('close-buffer').first();
      await closeBtn.waitFor({ timeout: 20_000 });
      const leftBuffers = await findEvidenceBuffers(conn, wallet.publicKey);
      assert.equal(leftBuffers.length, 1, "only the expired challenge's buffer is left");
      const closed = await act(closeBtn, 'close-buffer');
      assert.equal(closed.phase, 'confirmed', closed.text);
      assert.equal(
        closed.preview!.sol,
        BigInt(leftBuffers[0].account.lamports) - closed.preview!.fees,
        "the buffer's whole rent came back, less the fee",
      );
      assert.equal(await conn.getAccountInfo(leftBuffers[0].pubkey), null, 'the buffer is closed');
      await shot('buffer-closed', page.getByTestId('my-challenges'));
    },
  );

  test(
    'My agents at 390 and 1,440 px in the light and the dark theme, wallet ' +
      'connected, a preview open: nothing scrolls sideways; Cancel sends nothing',
    async () => {
      await page.goto(`${srv.base}/owner`);
      await card()
        .getByTestId('card-stake')
        .filter({ hasText: /claimed$/ })
        .waitFor({ timeout: 30_000 });
      await page.getByTestId('history-row').first().waitFor({ timeout: 60_000 });
      await page.getByTestId('my-challenge').first().waitFor({ timeout: 20_000 });
      const signed = wallet.signed;
      let checked = 0;
      const cancelled = await act(page.getByTestId('pay-lease'), undefined, async () => {
        for (const theme of ['light', 'dark']) {
          await page.evaluate((t) => {
            document.documentElement.dataset.theme = t;
          }, theme);
          for (const width of [NARROW, WIDE]) {
            await page.setViewportSize({ width, height: 900 });
            await settle();
            assert.equal(await sideways(), null, `/owner at ${width} px in the ${theme} theme scrolls sideways`);
            assert.deepEqual(
              await walletCornerOverlaps(),
              [],
              `/owner at ${width} px in the ${theme} theme: the header's wallet parts overlap`,
            );
            if (shots) {
              // The top of the page (header with the wallet, network) and the agent card with the preview open.
              await page.evaluate(() => window.scrollTo(0, 0));
              await page.screenshot({ path: join(shots, `owner-${theme}-${width}.png`) });
              await card().screenshot({ path: join(shots, `owner-card-${theme}-${width}.png`) });
            }
            checked++;
          }
        }
        return false;
      });
      assert.equal(checked, 4);
      assert.equal(cancelled.phase, 'cancelled', cancelled.text);
      assert.match(cancelled.text, /You cancelled after the preview\. Nothing was sent and no fee was paid\./);
      assert.equal(wallet.signed, signed, 'the wallet was not asked');
    },
  );

  // Last, so the demo has had the whole run to produce a dispute (e2e/disputes.test.ts).
  test(
    "dispute desk: a demo DISPUTE's evidence in order, checked in place; a " +
      "reviewer's wallet-signed opinion shown with its signer and re-verified",
    async () => {
      await disputeDeskStory({ srv, page, wallet, walletName: TEST_WALLET_NAME, sideways, shots: shots ?? null });
    },
  );
});
