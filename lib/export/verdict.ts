/** The demo's VERDICT payload as the negotiations and disputes tables (and the dispute desk) read it. */
import { decodeCanonical } from '../protocol/cbor';

/**
 * The demo agents' VERDICT payload, canonical CBOR `[passed 0|1, score -100..100]` (written by
 * lib/agents/scenario.ts). Decoded here rather than imported: lib/export builds on lib/protocol
 * and lib/store only (docs/architecture.md), and a payload that is not this shape is no verdict.
 */
export function decodeVerdict(bytes: Uint8Array): { passed: boolean; score: number } | undefined {
  const int = (v: unknown) =>
    typeof v === 'bigint' && v >= -1000n && v <= 1000n
      ? Number(v)
      : typeof v === 'number' && Number.isSafeInteger(v)
        ? v
        : undefined;
  try {
    const v = decodeCanonical(bytes);
    if (!Array.isArray(v) || v.length !== 2) return undefined;
    const passed = int(v[0]);
    const score = int(v[1]);
    if ((passed === 0 || passed === 1) && score !== undefined && score >= -100 && score <= 100)
      return { passed: passed === 1, score };
  } catch {
    // not a demo verdict
  }
  return undefined;
}
