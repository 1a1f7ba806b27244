/**
 * Which revision is the latest, and when a revision was made, checked without trusting the
 * publisher (docs/datasets.md "Anchored releases"). The observer anchors each release's id on
 * chain in a memo signed by its release-signing key (lib/chain/release-anchor.ts); with the chain
 * a verifier lists that key's anchors and requires of a manifest:
 *
 * - its id is anchored for its epoch and revision, and no other id is (one key, one history);
 * - no later revision of its epoch is anchored unless the folder holds it (a rollback to an older
 *   genuine revision fails), and the revision before it is anchored with the id it `supersedes`;
 * - its `asOfUs` is the anchor's, no later than the anchor's block time, and not before the
 *   `asOfUs` of any earlier revision anchored.
 *
 * Offline, `asOf` must be `asOfUs` and not precede the superseded revision's when that manifest
 * is in the folder (`createdAt` is not held against it: it is the publisher's word as much as `asOf`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReleaseChain } from './chain-evidence';
import { manifestFiles, type ReleaseManifest } from './release-manifest';
import { fileSha256, signatureName } from './signing';
import type { CheckResult } from './verify-chain';

/** Block times are whole seconds: an anchor's time may read up to this much before the instant it was sent. */
const BLOCK_TIME_SLACK_US = 2_000_000n;

const read = (dir: string, name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as ReleaseManifest;

/** `asOf` against the manifest's own times and the superseded revision in the folder. */
export function asOfChecks(tag: string, dir: string, m: ReleaseManifest, manifestFile?: string): CheckResult[] {
  if (m.asOfUs === undefined) return [];
  const out: CheckResult[] = [];
  const asOf = BigInt(m.asOfUs);
  const iso = new Date(Number(asOf / 1000n)).toISOString();
  const bad: string[] = [];
  if (m.asOf !== iso) bad.push(`asOf ${m.asOf} is not asOfUs ${m.asOfUs} (${iso})`);
  if (manifestFile && m.supersedes) {
    const prev = (manifestFiles(dir).get(m.epoch) ?? []).find(
      (n) => n !== manifestFile && fileSha256(join(dir, n)) === m.supersedes,
    );
    const p = prev ? read(dir, prev) : null;
    if (p?.asOfUs !== undefined && BigInt(p.asOfUs) > asOf)
      bad.push(`asOf ${iso} is before the superseded revision's ${p.asOf} (${prev})`);
  }
  out.push(
    bad.length
      ? { name: `${tag} manifest: asOf`, ok: false, detail: bad.join('; ') }
      : { name: `${tag} manifest: asOf`, ok: true },
  );
  return out;
}

/** The key the manifest's anchors are looked up under: the trusted key, else the one its signature names. */
function anchorKey(dir: string, manifestFile: string, trustedKey?: string): string | null {
  if (trustedKey) return trustedKey.toLowerCase();
  const p = join(dir, signatureName(manifestFile));
  if (!existsSync(p)) return null;
  try {
    return String((JSON.parse(readFileSync(p, 'utf8')) as { publicKey: string }).publicKey);
  } catch {
    return null;
  }
}

/** The anchor checks of one manifest (module comment); empty when the chain cannot list anchors. */
export async function anchorChecks(
  tag: string,
  dir: string,
  m: ReleaseManifest,
  manifestFile: string,
  chain: ReleaseChain,
  trustedKey?: string,
): Promise<CheckResult[]> {
  if (!chain.anchors) return [];
  const name = `${tag} manifest: anchored on chain`;
  const key = anchorKey(dir, manifestFile, trustedKey);
  if (!key)
    return [{ name, ok: false, detail: 'no signing key to look the anchors up under (no signature and no --key)' }];
  const all = await chain.anchors(key);
  if ('error' in all) return [{ name, ok: false, detail: all.error }];
  const id = fileSha256(join(dir, manifestFile));
  const mine = all.filter((a) => a.epoch === m.epoch);
  const out: CheckResult[] = [];
  const own = mine.find((a) => a.id === id);
  const rivals = [...new Set(mine.filter((a) => a.revision === m.revision && a.id !== id).map((a) => a.id))];
  if (!own)
    out.push({
      name,
      ok: false,
      detail:
        `release ${id} is not anchored by key ${key}` +
        (rivals.length ? `; revision ${m.revision} of epoch ${m.epoch} is anchored as ${rivals[0]}` : ''),
    });
  else if (own.revision !== m.revision)
    out.push({
      name,
      ok: false,
      detail: `release ${id} is anchored as revision ${own.revision}, the manifest says ${m.revision}`,
    });
  else if (rivals.length)
    out.push({
      name,
      ok: false,
      detail:
        `another release (${rivals[0]}) is anchored as revision ` + `${m.revision} of epoch ${m.epoch} by the same key`,
    });
  else out.push({ name, ok: true, detail: `transaction ${own.signature} at slot ${own.slot}` });

  // The latest revision: anchored revisions after this one must be in the folder.
  const newest = mine.reduce((x, a) => Math.max(x, a.revision), -1);
  const held = (manifestFiles(dir).get(m.epoch) ?? [])
    .filter((n) => n !== manifestFile)
    .map((n) => read(dir, n).revision ?? 0);
  const latest = `${tag} manifest: latest revision`;
  if (newest > m.revision && !held.some((r) => r > m.revision)) {
    const a = mine.filter((x) => x.revision === newest)[0];
    out.push({
      name: latest,
      ok: false,
      detail:
        `revision ${newest} of epoch ${m.epoch} is anchored (release ${a.id}` +
        `, slot ${a.slot}); this folder's newest is revision ${m.revision}`,
    });
  } else
    out.push({
      name: latest,
      ok: true,
      detail: newest > m.revision ? `superseded by revision ${newest} (anchored)` : 'no later revision anchored',
    });

  // asOf against the anchor's block time and the earlier revisions' anchored asOf.
  if (own && m.asOfUs !== undefined) {
    const asOf = BigInt(m.asOfUs);
    const bad: string[] = [];
    if (own.asOfUs !== m.asOfUs) bad.push(`anchored with asOfUs ${own.asOfUs}, the manifest states ${m.asOfUs}`);
    if (own.blockTime !== null && asOf > BigInt(own.blockTime) * 1_000_000n + BLOCK_TIME_SLACK_US)
      bad.push(`asOf ${m.asOf} is after the anchor's block time ${new Date(own.blockTime * 1000).toISOString()}`);
    for (const a of mine.filter((x) => x.revision < m.revision)) {
      if (BigInt(a.asOfUs) > asOf)
        bad.push(
          `asOf ${m.asOf} is before revision ${a.revision}'s anchored ` +
            `asOf ${new Date(Number(BigInt(a.asOfUs) / 1000n)).toISOString()}`,
        );
    }
    if (m.revision > 0 && m.supersedes) {
      const prev = mine.filter((x) => x.revision === m.revision - 1);
      if (prev.length && !prev.some((x) => x.id === m.supersedes))
        bad.push(`supersedes ${m.supersedes}, but revision ${m.revision - 1} is anchored as ${prev[0].id}`);
    }
    out.push({
      name: `${tag} manifest: asOf against the anchors`,
      ok: bad.length === 0,
      detail: bad.length ? bad.join('; ') : undefined,
    });
  }
  return out;
}
