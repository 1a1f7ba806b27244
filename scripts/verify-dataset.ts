/**
 * npm run verify-dataset -- DIR [--epoch N] [--rpc URL] [--key HEX]
 * Rechecks the dataset releases in DIR (a `<DATA_DIR>/datasets` folder, or a downloaded copy) from
 * nothing but their files (lib/export/verify.ts): file hashes and row counts, every envelope's id,
 * signature and decoded columns against its raw bytes, the offers, negotiations and feedback
 * tables re-derived from the raw envelopes cell by cell, the manifest against the release's own
 * batches table, and every agent-epoch's log root. With `--rpc URL` the chain decides
 * (lib/chain/release-evidence.ts): each batch root is read from its BatchAccount, who may sign for
 * every sender from SATI (owner, DelegateV1 delegates within their windows at each envelope's time),
 * and every batch, challenge and open Haggle negotiation of the epoch on chain must be in the
 * release or named known-missing in its manifest; challenge states and the negotiations' on-chain
 * columns are re-derived from the chain (each Haggle account's whole transaction history); and the
 * release must be anchored on chain by its signing key, the latest revision of its epoch so
 * anchored, with an `asOf` no later than its anchor and not before the earlier revisions'. Every
 * manifest must carry a detached signature (an unsigned one fails), and with `--key HEX` (the
 * observer's published key) it must be that key's; the output says who signed. Batch verdicts and
 * the reconciliation table are re-derived from the logs and envelopes, and every file's rows must
 * be in the table's canonical order. Notes the rows
 * a release set aside (manifest `setAside`, docs/datasets.md "Types"). Prints each failure and
 * each item that cannot be checked (a batch whose log was never uploaded, an account named
 * known-missing), then `N not checkable` on its own line when there are any, and ends with
 * `N passed, N failed`; exits 1 when anything failed, 2 on bad arguments.
 */
import { existsSync } from 'node:fs';
import { Connection } from '@solana/web3.js';
import { releaseChain } from '../lib/chain/release-evidence';
import { SATI_MAINNET } from '../lib/chain/sati';
import type { ReleaseChain } from '../lib/export/chain-evidence';
import { readReleaseManifests, verifyRelease } from '../lib/export/verify';
import { haggleHistory } from '../lib/indexer/haggle-history';

const USAGE = 'usage: verify-dataset DIR [--epoch N] [--rpc URL] [--key HEX]';

/** The chain at `rpcUrl`, with SATI at its mainnet addresses (the embedded chain uses them too). */
function chainAt(rpcUrl: string): ReleaseChain {
  const connection = new Connection(rpcUrl, { commitment: 'confirmed', disableRetryOnRateLimit: true });
  const c = { ...releaseChain(connection, SATI_MAINNET), haggleEvents: (a: string) => haggleHistory(connection, a) };
  // Each sender is read once for the whole folder: epochs and revisions share most senders.
  const seen = new Map<string, ReturnType<ReleaseChain['signers']>>();
  return {
    ...c,
    signers: (agent) => {
      const k = Buffer.from(agent).toString('hex');
      let p = seen.get(k);
      if (!p) seen.set(k, (p = c.signers(agent)));
      return p;
    },
  };
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  let dir: string | undefined;
  let epoch: number | undefined;
  let rpc: string | undefined;
  let key: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--epoch' || a === '--rpc' || a === '--key') {
      const v = args[++i];
      if (v === undefined) {
        console.error(`verify-dataset: ${a} needs a value\n${USAGE}`);
        return 2;
      }
      if (a === '--epoch') {
        epoch = Number(v);
        if (!Number.isInteger(epoch)) {
          console.error('verify-dataset: --epoch must be an integer');
          return 2;
        }
      } else if (a === '--key') {
        if (!/^[0-9a-fA-F]{64}$/.test(v)) {
          console.error(
            "verify-dataset: --key must be the observer's Ed25519 public " +
              'key, 64 hex digits (GET /api/health, datasets.signingKey)',
          );
          return 2;
        }
        key = v.toLowerCase();
      } else {
        if (!/^https?:\/\/\S+$/.test(v)) {
          console.error('verify-dataset: --rpc must be an http(s) JSON-RPC URL');
          return 2;
        }
        rpc = v;
      }
    } else if (a.startsWith('--')) {
      console.error(`verify-dataset: unknown flag ${a}\n${USAGE}`);
      return 2;
    } else if (dir === undefined) dir = a;
    else {
      console.error(`verify-dataset: one DIR only\n${USAGE}`);
      return 2;
    }
  }
  if (!dir || !existsSync(dir)) {
    console.error(`verify-dataset: DIR (a datasets folder with epoch=N.manifest.json files) is required\n${USAGE}`);
    return 2;
  }
  const manifests = readReleaseManifests(dir).filter((r) => epoch === undefined || r.manifest.epoch === epoch);
  if (manifests.length === 0) {
    console.error(`verify-dataset: no release manifest in ${dir}`);
    console.log('0 passed, 1 failed');
    return 1;
  }
  console.log(
    rpc
      ? `batch roots, signer keys and the epoch's accounts are checked against the chain at ${rpc}`
      : 'NOTE no --rpc: batch roots, signer keys and completeness ' +
          'are checked against the release itself, not the chain',
  );
  if (!key) console.log('NOTE no --key: signatures are checked against the key each one names, not a key you trust');
  let passed = 0;
  let failed = 0;
  let notCheckable = 0;
  const chain = rpc ? chainAt(rpc) : undefined;
  for (const { file, manifest: m } of manifests) {
    // Rows a release left out (a value its Parquet column cannot hold) are not in the files to check: say so.
    for (const [table, t] of Object.entries(m.tables)) {
      if (t.setAside)
        console.log(
          `NOTE epoch ${m.epoch} ${table}: ${t.setAside} row(s) set aside by ` +
            `the release, first: ${t.setAsideReasons?.[0] ?? 'no reason recorded'}`,
        );
    }
    for (const c of await verifyRelease(dir, m, { chain, manifestFile: file, trustedKey: key })) {
      if (c.name.endsWith('manifest: signature'))
        console.log(
          (!c.ok ? 'FAIL' : c.detail?.startsWith('no signature file') ? 'NOTE unsigned' : 'SIGNED') +
            ` ${file}: ${c.detail ?? ''}`,
        );
      if (c.notCheckable) {
        notCheckable++;
        console.log(`NOT CHECKABLE ${c.name}: ${c.detail ?? ''}`);
      } else if (c.ok) passed++;
      else {
        failed++;
        if (!c.name.endsWith('manifest: signature')) console.log(`FAIL ${c.name}: ${c.detail ?? ''}`);
      }
    }
  }
  if (notCheckable) console.log(`${notCheckable} not checkable`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

process.exitCode = await main();
