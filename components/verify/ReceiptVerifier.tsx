'use client';
/**
 * Drop a Handshake receipt (lib/protocol/receipt.ts) and it is checked right here: the file is
 * read with the File API, decoded and verified with lib/protocol in this page, and nothing is
 * sent anywhere (the e2e spec watches the page's requests while it checks).
 */
import { useState } from 'react';
import { decodeEnvelope } from '../../lib/protocol/envelope';
import { toHex } from '../../lib/protocol/hex';
import { decodeReceipt, verifyReceipt } from '../../lib/protocol/receipt';
import { msgTypeName } from '../../lib/wire';
import { checkReceiptSteps } from '../../lib/verify/receipt';
import type { VerifyStep } from '../../lib/verify/steps';
import { StepList } from './StepList';
import { base58 } from '../format';

interface Result { file: string; ok: boolean; steps: VerifyStep[]; rows: { i: number; type: string; sender: string }[]; summary: string }

async function check(file: File): Promise<Result> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const d = decodeReceipt(bytes);
  if (!d.ok) return { file: file.name, ok: false, steps: checkReceiptSteps(null, d.detail), rows: [], summary: 'not a receipt' };
  const v = verifyReceipt(d.receipt);
  const rows = d.receipt.envelopes.map((b, i) => {
    const e = decodeEnvelope(b);
    return { i, type: e.ok ? msgTypeName(e.envelope.msgType) : 'undecodable', sender: e.ok ? toHex(e.envelope.sender) : '' };
  });
  const parts = [
    `conversation ${toHex(d.receipt.conversationId)}`,
    v.price !== undefined ? `price ${v.price}` : null,
    v.tier !== undefined ? `tier ${v.tier}` : null,
    v.outcome === 'verdict' ? 'verdict issued' : v.outcome ? `feedback outcomes ${v.outcome.join(', ')}` : null,
  ].filter(Boolean);
  return { file: file.name, ok: v.ok, steps: checkReceiptSteps(v, null), rows, summary: parts.join(' · ') };
}

export function ReceiptVerifier() {
  const [result, setResult] = useState<Result | null>(null);
  const [over, setOver] = useState(false);
  const take = (f: File | undefined) => { if (f) void check(f).then(setResult); };
  return (
    <div data-testid="receipt-verifier" data-ok={result ? String(result.ok) : undefined}>
      <label
        className={`drop-zone${over ? ' over' : ''}`}
        onDragOver={(e) => { e.preventDefault(); setOver(true); }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => { e.preventDefault(); setOver(false); take(e.dataTransfer.files[0]); }}
      >
        <input type="file" accept=".cbor,application/cbor" data-testid="receipt-file" onChange={(e) => take(e.target.files?.[0])} hidden />
        Drop a receipt file here, or click to choose one. It is checked in this page and never uploaded.
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
              <thead><tr><th className="num">#</th><th>Type</th><th>Signed by</th></tr></thead>
              <tbody>{result.rows.map((r) => <tr key={r.i}><td className="num">{r.i + 1}</td><td>{r.type}</td><td className="mono" title={r.sender}>{r.sender ? base58(r.sender) : ''}</td></tr>)}</tbody>
            </table>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
