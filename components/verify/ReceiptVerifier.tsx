'use client';
/**
 * Drop a Handshake receipt (lib/protocol/receipt.ts) and it is checked right here: the file is
 * read with the File API, decoded and verified with lib/protocol in this page, and the signer
 * keys it carries are checked against the chain by SATI's rule, read from this page over the
 * chain's JSON-RPC (lib/verify/receipt.ts checkReceiptChainSigners). The file itself is sent
 * nowhere; the only requests are those JSON-RPC reads (the e2e spec watches them).
 */
import { useState } from 'react';
import { decodeEnvelope } from '../../lib/protocol/envelope';
import { toHex } from '../../lib/protocol/hex';
import { decodeReceipt, verifyReceipt } from '../../lib/protocol/receipt';
import type { SignerResolution } from '../../lib/verify/envelope';
import { checkReceiptChainSigners, checkReceiptSteps } from '../../lib/verify/receipt';
import { resolveSigner } from '../../lib/verify/rpc';
import type { VerifyStep } from '../../lib/verify/steps';
import type { SatiAddressesView } from '../../lib/wire';
import { msgTypeName } from '../../lib/wire';
import { base58, formatTokenAmount } from '../format';
import { StepList } from './StepList';

interface Result {
  file: string;
  ok: boolean;
  steps: VerifyStep[];
  rows: { i: number; type: string; sender: string }[];
  summary: string;
}

/**
 * The token a receipt's price is in: the deal's token when the page knows it, else raw units (NEG1 names no token with
 * known decimals).
 */
export type ReceiptToken = { decimals: number | null; symbol: string | null } | null;

/** The agreed price in the deal's token; raw units say why when the token is not known. */
export function priceText(price: bigint, token: ReceiptToken): string {
  if (token && token.decimals !== null) return `price ${formatTokenAmount(price, token)}`;
  return (
    `price ${formatTokenAmount(price)} (the offers name no token with known decimals; ` +
    `a deal settled on chain through Haggle is priced in USDC on its conversation page)`
  );
}

async function check(
  file: File,
  rpcUrl: string | null,
  sati: SatiAddressesView | null,
  token: ReceiptToken = null,
): Promise<Result> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const d = decodeReceipt(bytes);
  if (!d.ok)
    return {
      file: file.name,
      ok: false,
      steps: [...checkReceiptSteps(null, d.detail), ...checkReceiptChainSigners(null, null)],
      rows: [],
      summary: 'not a receipt',
    };
  const v = verifyReceipt(d.receipt);
  let resolved: Map<string, SignerResolution> | null = null;
  if (rpcUrl) {
    resolved = new Map();
    for (const p of d.receipt.parties) resolved.set(toHex(p.agentId), await resolveSigner(rpcUrl, p.agentId, sati));
  }
  const chainSteps = checkReceiptChainSigners(d.receipt, resolved);
  const rows = d.receipt.envelopes.map((b, i) => {
    const e = decodeEnvelope(b);
    return {
      i,
      type: e.ok ? msgTypeName(e.envelope.msgType) : 'undecodable',
      sender: e.ok ? toHex(e.envelope.sender) : '',
    };
  });
  const parts = [
    `conversation ${toHex(d.receipt.conversationId)}`,
    v.price !== undefined ? priceText(v.price, token) : null,
    v.tier !== undefined ? `tier ${v.tier}` : null,
    v.outcome === 'verdict' ? 'verdict issued' : v.outcome ? `feedback outcomes ${v.outcome.join(', ')}` : null,
  ].filter(Boolean);
  const steps = [...checkReceiptSteps(v, null), ...chainSteps];
  return { file: file.name, ok: v.ok && chainSteps.every((s) => s.ok), steps, rows, summary: parts.join(' · ') };
}

/**
 * `rpcUrl` and `sati`: the chain this observatory is configured with (never from the page's URL); null = no chain, the
 * chain checks are skipped and the receipt does not hold. `src`: a same-origin receipt download (a conversation's),
 * offered as a button that fetches it and checks the bytes here exactly as a dropped file is checked.
 */
export function ReceiptVerifier({
  rpcUrl = null,
  sati = null,
  src = null,
  token = null,
}: {
  rpcUrl?: string | null;
  sati?: SatiAddressesView | null;
  src?: string | null;
  token?: ReceiptToken;
}) {
  const [result, setResult] = useState<Result | null>(null);
  const [over, setOver] = useState(false);
  const [fetchError, setFetchError] = useState<string | null>(null);
  const take = (f: File | undefined) => {
    if (f) void check(f, rpcUrl, sati, token).then(setResult);
  };
  const fetchAndCheck = async () => {
    if (!src) return;
    setFetchError(null);
    try {
      const r = await fetch(src, { cache: 'no-store' });
      if (!r.ok)
        throw new Error(
          `${src}: ${r.status} ${((await r.json().catch(() => null)) as { error?: string } | null)?.error ?? ''}`,
        );
      take(
        new File([await r.arrayBuffer()], `${src.split('/').slice(-2).join('-')}.cbor`, { type: 'application/cbor' }),
      );
    } catch (e) {
      setFetchError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <div data-testid="receipt-verifier" data-ok={result ? String(result.ok) : undefined}>
      {src ? (
        <p className="small">
          <button
            type="button"
            className="theme-toggle"
            onClick={() => void fetchAndCheck()}
            data-testid="receipt-check-served"
          >
            Check the receipt here
          </button>{' '}
          <a href={src} download>
            download it
          </a>
          {fetchError ? (
            <span className="verify-fail" role="alert">
              {' '}
              {fetchError}
            </span>
          ) : null}
        </p>
      ) : null}
      <label
        className={`drop-zone${over ? ' over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          take(e.dataTransfer.files[0]);
        }}
      >
        <input
          type="file"
          accept=".cbor,application/cbor"
          data-testid="receipt-file"
          onChange={(e) => take(e.target.files?.[0])}
          hidden
        />
        Drop a receipt file here, or click to choose one. It is checked in this page and never uploaded; the signer keys
        are read from the chain ({rpcUrl ?? 'no chain configured'}).
      </label>
      {result ? (
        <>
          <h3 className={result.ok ? 'verify-ok-title' : 'verify-bad-title'} data-testid="receipt-verdict">
            {result.ok ? '✓ Receipt holds' : '✗ Receipt fails'}: <span className="mono small">{result.file}</span>
          </h3>
          <p className="muted small mono">{result.summary}</p>
          <StepList steps={result.steps} testId="receipt-steps" />
          {result.rows.length ? (
            <table className="list small">
              <thead>
                <tr>
                  <th className="num">#</th>
                  <th>Type</th>
                  <th>Signed by</th>
                </tr>
              </thead>
              <tbody>
                {result.rows.map((r) => (
                  <tr key={r.i}>
                    <td className="num">{r.i + 1}</td>
                    <td>{r.type}</td>
                    <td className="mono" title={r.sender}>
                      {r.sender ? base58(r.sender) : ''}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
