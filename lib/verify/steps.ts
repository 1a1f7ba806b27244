/**
 * One named check of the browser-side verifier and its outcome. A step that could not run because
 * an earlier one it depends on failed is `skipped` (and not ok), so a viewer sees which check
 * failed first and which were never reached.
 */
export interface VerifyStep {
  /** Stable name, e.g. `signature` or `onchain_root`: tests and the UI key on it. */
  name: string;
  /** Plain-words title shown in the UI. */
  title: string;
  ok: boolean;
  skipped?: boolean;
  /** What was compared, with the values, or why it failed. */
  detail: string;
}

export const pass = (name: string, title: string, detail: string): VerifyStep => ({ name, title, ok: true, detail });
export const fail = (name: string, title: string, detail: string): VerifyStep => ({ name, title, ok: false, detail });
export const skip = (name: string, title: string, why: string): VerifyStep => ({
  name,
  title,
  ok: false,
  skipped: true,
  detail: why,
});

/** Names of the steps that failed (skipped ones excluded). */
export const failedSteps = (steps: readonly VerifyStep[]): string[] =>
  steps.filter((s) => !s.ok && !s.skipped).map((s) => s.name);
