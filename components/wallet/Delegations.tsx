'use client';
/**
 * An agent's DelegateV1 delegations on its "My agents" card, read from the chain in the browser
 * (lib/chain/sati-delegations.ts: SAS accounts filtered by the agent mint, each checked with
 * delegationValid against the current owner and the viewer's clock). Revoking is SAS's
 * close_attestation: the card says plainly where this chain cannot do it instead of pretending.
 */
import { useConnection } from '@solana/wallet-adapter-react';
import { useEffect, useState } from 'react';
import { PublicKey } from '../../lib/chain';
import {
  type DelegationList,
  type DelegationStatus,
  listDelegations,
  sasProgramDeployed,
} from '../../lib/chain/sati-delegations';
import type { SatiAddressesView } from '../../lib/wire';
import { expiryText } from './format';
import { useWalletEnv } from './WalletIsland';

export const DELEGATE_TIP =
  "A delegate is a hot wallet the agent's owner lets sign envelopes for the agent. " +
  "It cannot move the identity NFT, stake or pay; the owner's key can stay offline.";
export const DELEGATEV1_TIP =
  "DelegateV1: a Solana Attestation Service (SAS) attestation under SATI's credential and DelegateV1 " +
  'schema naming the agent mint, the delegate and the owner who delegated, with an expiry (0 = ' +
  'never). It counts only while that owner still holds the NFT and until it expires or is closed.';

const STATUS: Record<DelegationStatus, { text: string; cls: string }> = {
  valid: { text: 'valid', cls: 'good-text' },
  expired: { text: 'expired', cls: 'warn-text' },
  delegator_not_owner: { text: 'delegator is not the current owner', cls: 'bad-text' },
  invalid: { text: 'invalid', cls: 'bad-text' },
};

export function Delegations({ agent, sati }: { agent: PublicKey; sati: SatiAddressesView }) {
  const { connection } = useConnection();
  const { version } = useWalletEnv();
  const [list, setList] = useState<{ l: DelegationList; now: number } | { error: string } | null>(null);
  const [sas, setSas] = useState<boolean | null>(null);

  useEffect(() => {
    let live = true;
    const addresses = {
      program: new PublicKey(sati.program),
      sas: new PublicKey(sati.sas),
      credential: new PublicKey(sati.credential),
      delegateSchema: new PublicKey(sati.delegateSchema),
    };
    const load = async () => {
      const now = Math.floor(Date.now() / 1000);
      try {
        const [l, deployed] = await Promise.all([
          listDelegations(connection, agent, addresses, now),
          sasProgramDeployed(connection, addresses.sas),
        ]);
        if (live) {
          setList({ l, now });
          setSas(deployed);
        }
      } catch (e) {
        if (live) setList({ error: e instanceof Error ? e.message : String(e) });
      }
    };
    void load();
    const t = setInterval(() => void load(), 10_000);
    return () => {
      live = false;
      clearInterval(t);
    };
  }, [connection, agent, sati, version]);

  return (
    <div data-testid="delegations">
      <h3 className="small">
        <span className="tip" title={DELEGATEV1_TIP}>
          DelegateV1
        </span>{' '}
        delegations
      </h3>
      {list === null ? (
        <p className="muted">Reading delegations…</p>
      ) : 'error' in list ? (
        <p className="bad-text small">Could not read delegations: {list.error}</p>
      ) : !list.l.ok ? (
        <p className="muted small">Not a SATI agent on this chain ({list.l.reason}): no delegations.</p>
      ) : list.l.rows.length === 0 ? (
        <p className="muted empty" data-testid="no-delegations">
          No delegation: only the owner signs for this agent.
        </p>
      ) : (
        <table className="list small delegations" data-testid="delegation-rows">
          <thead>
            <tr>
              <th>
                <span className="tip" title={DELEGATE_TIP}>
                  Delegate
                </span>
              </th>
              <th>Expires</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {list.l.rows.map((r) => (
              <tr key={r.address.toBase58()} data-testid="delegation" data-status={r.status}>
                <td
                  className="mono"
                  style={{ overflowWrap: 'anywhere' }}
                  title={`attestation ${r.address.toBase58()}, delegated by ${r.delegator.toBase58()}`}
                >
                  {r.delegate.toBase58()}
                </td>
                <td className="mono">{expiryText(r.expiry, list.now)}</td>
                <td className={STATUS[r.status].cls} title={r.reason ?? undefined}>
                  {STATUS[r.status].text}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {sas === false ? (
        <p className="muted small" data-testid="revoke-unavailable">
          Revoking a delegation closes its attestation with SAS&apos;s close_attestation. This chain has no SAS program
          ({sati.sas}); the embedded chain writes delegations as fixtures, so revocation needs the SAS program on a
          cluster.
        </p>
      ) : sas === true ? (
        <p className="muted small" data-testid="revoke-unavailable">
          Revoking a delegation closes its attestation with SAS&apos;s close_attestation; this page does not build that
          transaction yet.
        </p>
      ) : null}
    </div>
  );
}
