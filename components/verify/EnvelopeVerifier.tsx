'use client';
/**
 * Verify-it-yourself for one envelope, in the viewer's browser: fetches the raw bytes from our
 * API, decodes them with lib/protocol, recomputes id and payload hash, resolves the signer over
 * the chain's RPC itself and checks the Ed25519 signature (lib/verify/envelope.ts); then, for
 * each uploaded epoch log holding it, checks the merkle proof against the BatchAccount read from
 * the chain (lib/verify/inclusion.ts). The tamper switch flips one byte before checking, to show
 * what a forged envelope looks like.
 */
import { useCallback, useEffect, useState } from 'react';
import { decodeEnvelope } from '../../lib/protocol/envelope';
import { checkEnvelope, type EnvelopeCheck } from '../../lib/verify/envelope';
import { checkInclusion } from '../../lib/verify/inclusion';
import { readBatchAccount, resolveSigner } from '../../lib/verify/rpc';
import type { VerifyStep } from '../../lib/verify/steps';
import { EnvelopeRawViewSchema, hexToBytes, InclusionViewSchema, type SatiAddressesView } from '../../lib/wire';
import { AgentName } from '../names/AgentName';
import { StepList } from './StepList';

type Tamper = 'none' | 'signature' | 'payload';
interface InclusionResult {
  agent: string;
  epoch: string;
  status: string | null;
  ok: boolean;
  steps: VerifyStep[];
}
type State =
  | { phase: 'running' }
  | { phase: 'error'; message: string }
  | { phase: 'done'; how: Tamper; envelope: EnvelopeCheck; inclusions: InclusionResult[] };

/** Flips one byte of the signature (last byte) or of the payload (the byte before the signature's head). */
export function tamperBytes(raw: Uint8Array, how: Tamper): Uint8Array {
  if (how === 'none') return raw;
  const out = raw.slice();
  const i = how === 'signature' ? out.length - 1 : out.length - 67;
  out[i] ^= 0x01;
  return out;
}

async function getJson(url: string): Promise<unknown> {
  const r = await fetch(url, { cache: 'no-store' });
  const body = await r.json().catch(() => null);
  if (!r.ok) throw new Error(`${url}: ${r.status} ${(body as { error?: string } | null)?.error ?? ''}`);
  return body;
}

export function EnvelopeVerifier({
  id,
  rpcUrl,
  sati = null,
}: {
  id: string;
  rpcUrl: string | null;
  sati?: SatiAddressesView | null;
}) {
  const [tamper, setTamper] = useState<Tamper>('none');
  const [state, setState] = useState<State>({ phase: 'running' });
  const run = useCallback(
    async (how: Tamper) => {
      setState({ phase: 'running' });
      try {
        const rawView = EnvelopeRawViewSchema.parse(await getJson(`/api/envelopes/${id}/raw`));
        const raw = tamperBytes(hexToBytes(rawView.raw), how);
        const d = decodeEnvelope(raw);
        const signer = !d.ok
          ? null
          : rpcUrl
            ? await resolveSigner(rpcUrl, d.envelope.sender, sati)
            : { error: 'this observatory runs no chain: no RPC to resolve the signer' };
        const envelope = checkEnvelope(raw, hexToBytes(id, 32), signer);
        const inc = InclusionViewSchema.parse(await getJson(`/api/envelopes/${id}/inclusion`));
        const inclusions: InclusionResult[] = [];
        for (const p of inc.proofs) {
          const agent = hexToBytes(p.agent, 32);
          const epoch = BigInt(p.epoch);
          const batch = rpcUrl ? await readBatchAccount(rpcUrl, agent, epoch) : { error: 'no RPC configured' };
          const r = checkInclusion(
            envelope.envelope,
            {
              agent,
              epoch,
              index: p.index,
              leafCount: p.leafCount,
              entry: hexToBytes(p.entry),
              siblings: p.siblings.map((s) => hexToBytes(s, 32)),
              logRoot: hexToBytes(p.logRoot, 32),
            },
            batch,
          );
          inclusions.push({ agent: p.agent, epoch: p.epoch, status: p.batchStatus, ...r });
        }
        setState({ phase: 'done', how, envelope, inclusions });
      } catch (e) {
        setState({ phase: 'error', message: e instanceof Error ? e.message : String(e) });
      }
    },
    [id, rpcUrl, sati],
  );
  useEffect(() => {
    void run(tamper);
  }, [run, tamper]);

  return (
    <div
      data-testid="envelope-verifier"
      data-phase={state.phase}
      data-ok={state.phase === 'done' ? String(state.envelope.ok) : undefined}
      data-checked={state.phase === 'done' ? state.how : undefined}
    >
      <div className="verify-bar">
        <label className="small">
          Tamper before checking:{' '}
          <select value={tamper} onChange={(e) => setTamper(e.target.value as Tamper)} data-testid="tamper">
            <option value="none">no (the bytes as served)</option>
            <option value="signature">flip a signature byte</option>
            <option value="payload">flip a payload byte</option>
          </select>
        </label>
        <span className="muted small">
          RPC: <span className="mono">{rpcUrl ?? 'none'}</span>
        </span>
      </div>
      {state.phase === 'running' ? <p className="muted">Checking in this browser…</p> : null}
      {state.phase === 'error' ? (
        <p className="verify-fail" role="alert">
          {state.message}
        </p>
      ) : null}
      {state.phase === 'done' ? (
        <>
          <h3 className={state.envelope.ok ? 'verify-ok-title' : 'verify-bad-title'} data-testid="envelope-verdict">
            {state.envelope.ok
              ? '✓ Envelope verified in your browser'
              : `✗ Envelope fails: ${state.envelope.steps
                  .filter((s) => !s.ok && !s.skipped)
                  .map((s) => s.name)
                  .join(', ')}`}
          </h3>
          <StepList steps={state.envelope.steps} testId="envelope-steps" />
          <h3>Batch inclusion</h3>
          {state.inclusions.length === 0 ? (
            <p className="muted" data-testid="no-inclusion">
              Not in any uploaded epoch log yet: agents upload their log when they submit the epoch's batch.
            </p>
          ) : (
            state.inclusions.map((r) => {
              // The proof is about the envelope as stored; when the bytes checked above fail, a green
              // proof would vouch for bytes the viewer did not check: it is red, and says why.
              const ok = r.ok && state.envelope.ok;
              return (
                <section
                  key={`${r.agent}:${r.epoch}`}
                  data-testid="inclusion"
                  data-agent={r.agent}
                  data-epoch={r.epoch}
                  data-ok={String(ok)}
                >
                  <p className={ok ? 'verify-ok-title' : 'verify-bad-title'}>
                    {ok ? '✓' : '✗'} In <AgentName id={r.agent} copy={false} />
                    &apos;s epoch {r.epoch} batch
                    {r.status ? <span className="muted"> (indexer: {r.status})</span> : null}
                  </p>
                  {r.ok && !state.envelope.ok ? (
                    <p className="verify-why" data-testid="inclusion-why">
                      The batch holds this envelope as the observatory stored it, but the bytes checked above fail (
                      {state.envelope.steps
                        .filter((s) => !s.ok && !s.skipped)
                        .map((s) => s.title)
                        .join('; ')}
                      ): the proof does not vouch for these bytes.
                    </p>
                  ) : null}
                  <StepList steps={r.steps} testId="inclusion-steps" />
                </section>
              );
            })
          )}
        </>
      ) : null}
    </div>
  );
}
