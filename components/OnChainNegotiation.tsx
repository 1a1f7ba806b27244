/**
 * The conversation page's on-chain settlement (programs/README.md "Haggle (decisions)"): per
 * Haggle negotiation the escrow, the decay each offer burned to the treasury, the settlement or
 * refund, and every on-chain offer beside the gossiped NEG1 offer of the same round, with a
 * flag when they differ. Data in (lib/wire OnChainNegotiationView), markup out.
 */
import type { OfferMatch, OnChainNegotiationView } from '../lib/wire';
import { formatAmount, shortHex, USDC_TOKEN } from './format';
import { Td } from './table/DataTable';

/** Haggle escrows the chain's USDC, so every amount here is in USDC (exact, from the decimal string). */
const usdc = (v: string | null) => (v === null ? '—' : formatAmount(v, USDC_TOKEN));

const MATCH: Record<OfferMatch, { text: string; color: string }> = {
  same: { text: 'same', color: 'var(--good)' },
  differs: { text: 'differs', color: 'var(--bad)' },
  chain_only: { text: 'on chain only', color: 'var(--warn)' },
  gossip_only: { text: 'not on chain', color: 'var(--warn)' },
};

function Outcome({ n }: { n: OnChainNegotiationView }) {
  if (n.settlement) {
    const s = n.settlement;
    return (
      <span data-testid="haggle-settlement">
        settled at <b className="mono">{usdc(s.amount)}</b>: {usdc(s.toSeller)} to the seller, {usdc(s.fee)} fee,{' '}
        {usdc(s.refund)} back to the buyer
      </span>
    );
  }
  if (n.refund !== null)
    return (
      <span data-testid="haggle-settlement">
        {n.status} ({n.reason ?? 'refund'}): {usdc(n.refund)} back to the buyer
      </span>
    );
  return (
    <span data-testid="haggle-settlement">
      open ({n.status}), {usdc(n.escrow)} in escrow
    </span>
  );
}

function Negotiation({ n }: { n: OnChainNegotiationView }) {
  return (
    <div data-testid="haggle-negotiation" data-status={n.status} style={{ marginBottom: 12 }}>
      <dl className="kv" style={{ marginBottom: 10 }}>
        <dt>Outcome</dt>
        <dd>
          <Outcome n={n} />
        </dd>
        <dt>Escrow</dt>
        <dd className="mono" data-testid="haggle-escrow">
          {usdc(n.deposit)} deposited · {usdc(n.decayed)} burned by decay ({n.decayBps / 100}% per offer) · fee{' '}
          {n.protocolFeeBps / 100}%
        </dd>
        {n.zopaDetection && (n.reservations.buyer !== null || n.reservations.seller !== null) ? (
          <>
            <dt>Sealed reservations</dt>
            <dd className="mono">
              buyer max {usdc(n.reservations.buyer)} · seller min {usdc(n.reservations.seller)}
              {n.reservations.zopa === false ? ' · no ZOPA' : n.reservations.zopa ? ' · ZOPA' : ''}
            </dd>
          </>
        ) : null}
        <dt>Accounts</dt>
        <dd className="mono small muted">
          negotiation {shortHex(n.address, 6, 6)} · buyer {shortHex(n.buyer, 6, 6)} · seller {shortHex(n.seller, 6, 6)}
        </dd>
      </dl>
      {n.differences > 0 ? (
        <p className="notice" data-testid="haggle-differences" style={{ borderLeftColor: 'var(--bad)' }}>
          Gossiped and on-chain offers differ: {n.differences} {n.differences === 1 ? 'difference' : 'differences'}
          {n.settlement && n.gossipAccepted !== null && n.gossipAccepted !== n.settlement.amount
            ? ` (NEG1 ACCEPT said ${usdc(n.gossipAccepted)})`
            : ''}
          .
        </p>
      ) : n.rounds.length > 0 ? (
        <p className="muted small" data-testid="haggle-differences">
          Every on-chain offer matches the gossiped NEG1 offer.
        </p>
      ) : null}
      {n.rounds.length === 0 ? <p className="muted empty">No offers on chain.</p> : <RoundsTable rounds={n.rounds} />}
    </div>
  );
}

export function OnChainNegotiation({ negotiations }: { negotiations: OnChainNegotiationView[] }) {
  return (
    <section className="card" style={{ marginBottom: 16 }} data-testid="onchain-negotiation">
      <h2>Settlement on chain (Haggle)</h2>
      {negotiations.map((n) => (
        <Negotiation key={n.createSignature} n={n} />
      ))}
    </section>
  );
}

/** Each on-chain offer beside its gossiped NEG1 offer, the decay it burned and the escrow left; a phone shows cards. */
function RoundsTable({ rounds }: { rounds: OnChainNegotiationView['rounds'] }) {
  return (
    <div className="table-wrap dt-wrap">
      <table className="list dt" data-testid="haggle-rounds">
        <thead>
          <tr>
            <th
              data-col="priority"
              className="num"
              title={
                "The offer's NEG1 round, counted from 0 as on the chart, the timeline and " +
                "the messages; the chain's own count (from 1) is in each number's tooltip"
              }
            >
              Round
            </th>
            <th data-col="priority">Side</th>
            <th className="num" data-col="priority">
              On chain
            </th>
            <th className="num" data-col="priority">
              Gossiped (NEG1)
            </th>
            <th className="num">Decay burned</th>
            <th className="num">Escrow left</th>
            <th data-col="priority">Match</th>
          </tr>
        </thead>
        <tbody>
          {rounds.map((r, i) => (
            <tr key={`${r.position}:${i}`} data-match={r.match} data-round={r.round} data-chain-round={r.position}>
              <Td label="Round" className="num mono" title={`the chain's round ${r.position}`}>
                {r.round}
              </Td>
              <Td label="Side">{r.side ?? '—'}</Td>
              <Td label="On chain" className="num mono">
                {usdc(r.onChain)}
              </Td>
              <Td label="Gossiped (NEG1)" className="num mono">
                {usdc(r.gossip)}
              </Td>
              <Td label="Decay burned" className="num mono">
                {usdc(r.decay)}
              </Td>
              <Td label="Escrow left" className="num mono">
                {usdc(r.escrow)}
              </Td>
              <Td label="Match" style={{ color: MATCH[r.match].color }}>
                {MATCH[r.match].text}
              </Td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
