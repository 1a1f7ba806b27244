/**
 * The dispute desk in a browser (docs/app.md "Dispute desk"): a DISPUTE the demo agents send (a
 * seller contesting a failing verdict, lib/agents/scenario.ts) is listed on /disputes; its page
 * shows the conversation's evidence in order (PROPOSE … DELIVER, NOTARIZE_ASSIGN, VERDICT, the
 * DISPUTE), checks one envelope in place with the envelope verifier, and a reviewer connected with
 * the Wallet Standard test wallet (e2e/test-wallet.ts, solana:signMessage) records a signed opinion
 * that is shown with its signer, re-verified in the page (✓), and served by the API. The test
 * wallet is the reviewer the server names (DISPUTE_REVIEWERS, set by wallet.test.ts), so its
 * opinion counts and the dispute leaves the open queue; at 390 and 1,440 px in both themes nothing
 * scrolls sideways.
 *
 * It runs inside e2e/wallet.test.ts, on that file's server and page with the test wallet already
 * installed: starting another demo server for it would cost CI a minute or more. Run it with
 * `npm test -- e2e/wallet`; run alone, this file only says so.
 */

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import type { DisputeDetailView, DisputeListView } from '../lib/wire/disputes';
import type { RunningServer } from './harness';
import type { TestWallet } from './test-wallet';

export interface DisputeDeskContext {
  srv: RunningServer;
  page: Page;
  wallet: TestWallet;
  /** Wallet name in the connect dialog. */
  walletName: string;
  /** A sentence when the page scrolls sideways, else null (wallet.test.ts's check). */
  sideways(): Promise<string | null>;
  /** Where screenshots go (SHOTS_DIR), or null. */
  shots: string | null;
}

export async function disputeDeskStory({
  srv,
  page,
  wallet,
  walletName,
  sideways,
  shots,
}: DisputeDeskContext): Promise<void> {
  // The demo's notaries fail about one verdict in seven and the seller disputes each.
  const d = await srv.until(
    'a demo DISPUTE with its verdict stored',
    240_000,
    async () => {
      const l = (await srv.getJson<DisputeListView>('/api/disputes?limit=20')).body;
      for (const x of l.disputes) {
        const v = (await srv.getJson<DisputeDetailView>(`/api/disputes/${x.id}`)).body;
        if (v.verdict && v.notary && v.conversation?.envelopes.some((e) => e.type === 'PROPOSE')) return v;
      }
      return undefined;
    },
    2_000,
  );
  const id = d.dispute.id;

  await page.goto(`${srv.base}/disputes`);
  const row = page.locator(`[data-dispute="${id}"]`);
  await row.waitFor();
  assert.equal(await row.getAttribute('data-status'), 'open');
  await row.getByTestId('open-dispute').click();
  await page.waitForURL(`**/disputes/${id}`);

  // The evidence, in protocol order, ends with the DISPUTE itself.
  const types = await page
    .locator('[data-testid="dispute-evidence"] tr[data-type]')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-type')));
  const at = (t: string) => types.indexOf(t);
  for (const t of ['PROPOSE', 'ACCEPT', 'DELIVER', 'NOTARIZE_ASSIGN', 'VERDICT', 'DISPUTE'])
    assert.ok(at(t) >= 0, `${t} in the evidence: ${types.join(' ')}`);
  assert.ok(
    at('PROPOSE') < at('DELIVER') &&
      at('DELIVER') < at('NOTARIZE_ASSIGN') &&
      at('NOTARIZE_ASSIGN') < at('VERDICT') &&
      at('VERDICT') < at('DISPUTE'),
    types.join(' '),
  );
  assert.match((await page.getByTestId('dispute-verdict').textContent()) ?? '', /failed \(score -?\d+\)/);

  // One piece checked in place: the VERDICT, with the envelope page's verifier.
  const verdictRow = page.locator('[data-testid="dispute-evidence"] tr[data-type="VERDICT"]').first();
  await verdictRow.getByTestId('evidence-check').click();
  const verdictId = await verdictRow.getAttribute('data-envelope-id');
  const check = page.locator(`[data-verifies="${verdictId}"]`);
  await check.locator('[data-testid="envelope-verifier"][data-phase="done"]').waitFor({ timeout: 60_000 });
  assert.match(
    (await check.getByTestId('envelope-verdict').textContent()) ?? '',
    /✓ Envelope verified in your browser/,
  );

  // The reviewer connects, unless the wallet island restored the connection made earlier in the run
  // (it reconnects the last wallet by itself a moment after the page mounts).
  const opinions = page.getByTestId('dispute-opinions');
  const form = opinions.getByTestId('review-form');
  if (
    !(await form.waitFor({ timeout: 5_000 }).then(
      () => true,
      () => false,
    ))
  ) {
    await opinions.getByRole('button', { name: /select wallet/i }).click();
    await page.getByRole('button', { name: new RegExp(walletName) }).click();
  }
  await form.waitFor();
  assert.equal(await opinions.getByTestId('review-as').textContent(), wallet.address);
  const signed = wallet.signed;
  await opinions.getByTestId('review-rejected').check();
  const note = 'The delivery matched the agreed price; the notary did not show a failing test.';
  await opinions.getByTestId('review-note').fill(note);
  await opinions.getByTestId('review-sign').click();
  await opinions.getByTestId('review-result').filter({ hasText: 'Recorded (saved).' }).waitFor({ timeout: 30_000 });
  assert.equal(wallet.signed, signed + 1, 'the wallet signed once');

  const mine = opinions.locator(`[data-testid="opinion"][data-reviewer="${wallet.address}"]`);
  await opinions
    .locator(`[data-testid="opinion"][data-reviewer="${wallet.address}"][data-verified="true"]`)
    .waitFor({ timeout: 15_000 });
  assert.equal(await mine.getAttribute('data-opinion'), 'rejected');
  assert.equal(await mine.getAttribute('data-counted'), 'true', "the named reviewer's opinion counts");
  assert.equal(await opinions.getByTestId('review-not-counted').count(), 0);
  assert.match((await mine.getByTestId('opinion-check').textContent()) ?? '', /✓/);
  assert.equal(
    await mine.getByTestId('opinion-reviewer').textContent(),
    `${wallet.address.slice(0, 5)}…${wallet.address.slice(-4)}`,
  );
  assert.equal(await mine.getByTestId('copy-agent-id').getAttribute('data-copy'), wallet.address);
  assert.match((await mine.textContent()) ?? '', new RegExp(note.slice(0, 30)));

  const served = (await srv.getJson<DisputeDetailView>(`/api/disputes/${id}`)).body;
  assert.deepEqual(
    served.opinions.map((o) => [o.reviewer, o.opinion, o.note, o.counted]),
    [[wallet.address, 'rejected', note, true]],
  );
  assert.equal(served.reviewersNamed, 1);
  assert.equal(served.dispute.status, 'reviewed');
  const reviewed = (await srv.getJson<DisputeListView>('/api/disputes?status=reviewed')).body;
  assert.ok(reviewed.disputes.some((x) => x.id === id));

  // Readable at a phone's width and on a desktop, in both themes.
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => {
      document.documentElement.dataset.theme = t;
    }, theme);
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(200);
      assert.equal(await sideways(), null, `/disputes/{id} at ${width} px in the ${theme} theme scrolls sideways`);
      if (shots)
        await page.screenshot({ path: join(shots, `dispute-${theme}-${width}.png`), fullPage: width === 1440 });
    }
  }
  await page.goto(`${srv.base}/disputes`);
  await page.setViewportSize({ width: 390, height: 900 });
  assert.equal(await sideways(), null, '/disputes at 390 px scrolls sideways');
  await page.setViewportSize({ width: 1440, height: 900 });
}

// Run as its own file (not imported by wallet.test.ts): say where the story runs.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  test('the dispute desk story runs in e2e/wallet.test.ts (its server and test wallet)', {
    skip: "run `npm test -- e2e/wallet`: this story shares that file's server",
  }, () => {});
}
