'use client';
/**
 * Verify one batch in the browser (lib/verify/batch.ts): the uploaded log from our API, every
 * signature against its sender's identity holder read from the chain, the merkle root recomputed
 * and compared with the BatchAccount read directly over the RPC.
 */
import { useEffect, useState } from 'react';
import { toHex } from '../../lib/protocol/hex';
import { checkBatchLog, decodeLog } from '../../lib/verify/batch';
import type { SignerResolution } from '../../lib/verify/envelope';
import { readBatchAccount, resolveSigner } from '../../lib/verify/rpc';
import type { VerifyStep } from '../../lib/verify/steps';
import { BatchLogViewSchema, hexToBytes, type SatiAddressesView } from '../../lib/wire';
import { StepList } from './StepList';

export function BatchVerifier({
  agent,
  epoch,
  rpcUrl,
  sati = null,
}: {
  agent: string;
  epoch: string;
  rpcUrl: string | null;
  sati?: SatiAddressesView | null;
}) {
  const [state, setState] = useState<{ ok: boolean; steps: VerifyStep[] } | { error: string } | null>(null);
  useEffect(() => {
    void (async () => {
      try {
        const r = await fetch(`/api/batches/${agent}/${epoch}/log`, { cache: 'no-store' });
        const body = await r.json();
        if (!r.ok) throw new Error(body?.error ?? `HTTP ${r.status}`);
        const log = BatchLogViewSchema.parse(body);
        const missing = log.envelopes.indexOf(null);
        if (missing >= 0) throw new Error(`entry ${missing} of the log is not stored by this observatory`);
        const raws = log.envelopes.map((e) => hexToBytes(e!));
        const signers = new Map<string, SignerResolution>();
        for (const s of decodeLog(raws).senders)
          signers.set(toHex(s), rpcUrl ? await resolveSigner(rpcUrl, s, sati) : { error: 'no RPC' });
        const a = hexToBytes(agent, 32);
        const batch = rpcUrl
          ? await readBatchAccount(rpcUrl, a, BigInt(epoch))
          : { error: 'this observatory runs no chain' };
        setState(checkBatchLog(raws, signers, batch, a, BigInt(epoch)));
      } catch (e) {
        setState({ error: e instanceof Error ? e.message : String(e) });
      }
    })();
  }, [agent, epoch, rpcUrl, sati]);
  if (!state) return <p className="muted">Checking in this browser…</p>;
  if ('error' in state)
    return (
      <p className="verify-fail" role="alert" data-testid="batch-verifier" data-ok="false">
        {state.error}
      </p>
    );
  return (
    <div data-testid="batch-verifier" data-ok={String(state.ok)}>
      <h3 className={state.ok ? 'verify-ok-title' : 'verify-bad-title'}>
        {state.ok ? '✓ Batch verified in your browser' : '✗ Batch fails'}
      </h3>
      <StepList steps={state.steps} testId="batch-steps" />
    </div>
  );
}
