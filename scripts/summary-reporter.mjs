// node:test reporter that prints the slowest test files (so the suite's time stays visible in
// every CI log) and then the closing line "N passed, N failed[, N skipped]".
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';

const SLOWEST = 12;

export default async function* summary(source) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  /** Wall time per file: the sum of its top-level tests and suites. */
  const perFile = new Map();
  const writeSummary = () =>
    writeFileSync(
      process.env.TEST_SUMMARY_JSON,
      JSON.stringify({
        passed,
        failed,
        skipped,
        perFile: [...perFile].map(([f, ms]) => [relative(process.cwd(), f), ms]),
      }),
    );
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file, nesting, details } = event.data;
    if (nesting === 0 && file && typeof details?.duration_ms === 'number') {
      perFile.set(file, (perFile.get(file) ?? 0) + details.duration_ms);
    }
    // Count leaf tests only: suites report their own pass/fail on top of their children.
    if (details?.type === 'suite') continue;
    if (event.type === 'test:fail') failed++;
    else if (event.data.skip || event.data.todo) skipped++;
    else passed++;
    // Written as it goes: with --test-force-exit the process may end before this loop does.
    if (process.env.TEST_SUMMARY_JSON) writeSummary();
  }
  const files = [...perFile].map(([f, ms]) => [relative(process.cwd(), f), ms]);
  // Under scripts/test.mjs each phase hands its counts over, and the runner prints one summary.
  if (process.env.TEST_SUMMARY_JSON) {
    writeSummary();
    return;
  }
  const slow = files.sort((a, b) => b[1] - a[1]).slice(0, SLOWEST);
  if (slow.length) {
    const total = files.reduce((a, [, ms]) => a + ms, 0);
    yield `\nslowest test files (of ${files.length}, ${(total / 1000).toFixed(0)} s in all):\n`;
    for (const [f, ms] of slow) yield `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${f}\n`;
  }
  yield `\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`;
}
