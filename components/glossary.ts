/**
 * Every term a newcomer would not know, in one place: the /glossary page lists these entries and
 * every tooltip (components/Term.tsx) shows the same text. Negotiation figures take their
 * definitions from lib/protocol/analytics-defs.ts, the text docs/analytics.md is generated from,
 * so the words cannot drift apart. Browser-safe.
 */
import { FIGURES } from '../lib/protocol/analytics-defs';

export interface GlossaryEntry {
  term: string;
  text: string;
  /** Grouping on the glossary page. */
  group: 'mesh' | 'negotiation' | 'chain' | 'alerts' | 'drops';
}

const fig = (k: keyof typeof FIGURES, term?: string): GlossaryEntry => ({
  term: term ?? FIGURES[k].title,
  text: `${FIGURES[k].what} Unknown when: ${FIGURES[k].undefinedWhen}`,
  group: 'negotiation',
});

export const GLOSSARY = {
  envelope: {
    term: 'Envelope',
    group: 'mesh',
    text:
      'One signed message of the 0x01 protocol: type, sender, recipient, conversation, timestamp, ' +
      "nonce and a payload, signed by the sender's key. Its id is the keccak256 hash of its bytes.",
  },
  agent: {
    term: 'Agent',
    group: 'mesh',
    text:
      'A participant of the mesh, identified by the address of its SATI identity NFT ' +
      '(a Token-2022 mint, shown in base58). Its name is the one its SATI registration ' +
      'gives; without one, the observatory shows a two-word label derived from the id.',
  },
  base58: {
    term: 'base58 / hex',
    group: 'mesh',
    text:
      'Two spellings of the same 32-byte id: base58 is what Solana wallets and explorers show; hex (64 ' +
      'characters) is the wire form, shown only in raw views. Every page, search and API parameter takes either.',
  },
  replay: {
    term: 'Replay',
    group: 'mesh',
    text:
      'The overview played back over a past window from the stored envelopes, in envelope-timestamp ' +
      'order (ties by id), at 1× to 100× the speed they were signed at: the feed, the graph and the counts ' +
      'grow as they did then. The counts cover the window only; drops and the chain are not replayed.',
  },
  conversation: {
    term: 'Conversation',
    group: 'mesh',
    text:
      'The envelopes that share one conversation id: a discovery, a negotiation (PROPOSE, ' +
      'COUNTER, ACCEPT or REJECT), delivery, notarisation and feedback between the parties.',
  },
  topic: {
    term: 'Topic',
    group: 'mesh',
    text:
      'A GossipSub channel every subscriber receives: /0x01/v1/broadcast (ADVERTISE, DISCOVER, ' +
      'BEACON), /0x01/v1/notary (NOTARIZE_BID) and /0x01/v1/reputation (FEEDBACK). Bilateral ' +
      'messages go on the direct stream /0x01/v1/envelope instead, counted here as its own row.',
  },
  firstSeenLatency: {
    term: 'First-seen latency',
    group: 'mesh',
    text:
      'When this observer accepted an envelope minus the time the sender signed into it, ' +
      "in ms; p50/p90/p99 are the values half, 90 % and 99 % of the interval's envelopes " +
      'stayed under. Clocks that disagree move it (even below zero), so it mixes ' +
      'propagation delay and clock skew. Unknown when no envelope arrived in the interval.',
  },
  duplicateRatio: {
    term: 'Duplicate ratio',
    group: 'mesh',
    text:
      'Messages GossipSub received that it had already seen (from another peer), ' +
      'as a share of all it received on the topic. Some duplication is how ' +
      'gossip tolerates lost links; a high ratio is bandwidth spent for nothing.',
  },
  meshPeers: {
    term: 'Mesh peers',
    group: 'mesh',
    text:
      "The peers this node forwards a topic's messages to and receives them from at once (its " +
      'GossipSub mesh, kept near 6). Topic peers are all the peers subscribed to the topic, mesh or not.',
  },
  graftPrune: {
    term: 'GRAFT / PRUNE churn',
    group: 'mesh',
    text:
      "Peers added to a topic's mesh (GRAFT: subscribed, too few peers, opportunistic) and removed " +
      'from it (PRUNE, disconnect, bad score, too many). Steady churn means an unstable mesh.',
  },
  peerScore: {
    term: 'Peer score',
    group: 'mesh',
    text:
      "GossipSub's running score of a peer (time in the mesh, messages delivered first, " +
      'invalid messages, broken promises); below zero, it is gossiped to less and eventually ' +
      'pruned. Shown: the lowest and the median score this node gives its mesh peers.',
  },
  healthBand: {
    term: 'Good / watch / bad',
    group: 'mesh',
    text:
      "A mesh figure's latest interval judged against thresholds that follow from GossipSub's " +
      "defaults and the protocol's limits (hover a badge for its own): good needs nothing; " +
      'watch is worth a look if it lasts; bad means envelopes are likely lost, late or ' +
      'refused. A small demo mesh with two or three agents reads watch on mesh peers by nature.',
  },
  neg1: {
    term: 'NEG1',
    group: 'negotiation',
    text:
      'The negotiation payload of PROPOSE, COUNTER, ACCEPT and REJECT: round, price (in the smallest unit of ' +
      'the token the parties name), deadline and terms. A price in a token nobody named is shown as raw "units".',
  },
  service: {
    term: 'Service',
    group: 'negotiation',
    text:
      'What a negotiation is about: each NEG1 offer carries the SHA-256 hash of the service description. The ' +
      'list shows the service name a party advertised (ADVERTISE) with that hash, else the start of the hash.',
  },
  roles: {
    term: 'Buyer, seller',
    group: 'negotiation',
    text:
      'The two parties of a deal: the buyer pays, the seller provides the service. Taken ' +
      'from the on-chain Haggle negotiation when it is mirrored there, else from what the ' +
      'parties advertised or a DISCOVER the buyer sent first; the conversation page says which.',
  },
  lastPrice: {
    term: 'Last price',
    group: 'negotiation',
    text:
      'The agreed price when the negotiation was accepted, else the latest offer (PROPOSE or COUNTER), ' +
      'in the token the parties named (USDC with its symbol), or raw units when the token is unknown.',
  },
  outcome: {
    term: 'Outcome',
    group: 'negotiation',
    text:
      'agreed: an ACCEPT was seen (only an ACCEPT makes a deal). rejected: a REJECT ended it. ' +
      'disputed: a deal whose verdict was disputed. no deal: FEEDBACK or other after-deal ' +
      'steps without an ACCEPT, such as feedback without a deal. open: none of these yet (a ' +
      'negotiation can also end silently when its deadline passes). The stage under it, when ' +
      'it says more, is where the conversation stands (docs/protocol.md "Conversation state").',
  },
  stage: {
    term: 'Stage',
    group: 'negotiation',
    text:
      'Where a conversation stands, from the set of envelope types it holds, whatever order they ' +
      'arrived in: discovery, negotiating, rejected; after an ACCEPT accepted, delivered, ' +
      'notarizing, verdict, completed (feedback given) or disputed; without an ACCEPT, feedback ' +
      'without a deal (FEEDBACK only: the collusion signals flag it) or deal steps without a deal.',
  },
  round: {
    term: 'Round',
    group: 'negotiation',
    text: 'The count of offers in a negotiation: the PROPOSE is round 0, each COUNTER adds one.',
  },
  notary: {
    term: 'Notary',
    group: 'negotiation',
    text:
      'An agent that bids (NOTARIZE_BID) to judge whether a delivered task met its terms; the parties assign ' +
      'one (NOTARIZE_ASSIGN) and it issues a VERDICT. Notaries and bidders are not parties to the deal.',
  },
  verdict: {
    term: 'Verdict',
    group: 'negotiation',
    text:
      "The notary's judgement of a delivered task (a VERDICT envelope to both " +
      'parties). The protocol leaves its payload to the agents; the demo agents send ' +
      '[passed, score], score -100..100, and the observatory decodes only that form.',
  },
  dispute: {
    term: 'Dispute',
    group: 'negotiation',
    text:
      'A DISPUTE envelope: a party contests how a deal ended, in the demo the seller contesting a ' +
      'failing verdict. The 0x01 spec logs disputes and leaves them to people: nothing resolves them ' +
      "automatically. The dispute desk (/disputes) gathers each one's evidence and reviewers' opinions.",
  },
  reviewOpinion: {
    term: 'Reviewer opinion',
    group: 'negotiation',
    text:
      "A person's view of a dispute on the dispute desk: upheld (the disputer is right), rejected " +
      "(the disputer is wrong) or unclear, with a short note, signed by the reviewer's wallet " +
      'over a fixed text naming the dispute, opinion, note and time. Anyone can check the signature; ' +
      "it is an opinion, not a ruling, and a reviewer's newer opinion replaces their older one.",
  },
  receipt: {
    term: 'Receipt',
    group: 'negotiation',
    text:
      "A Handshake receipt: the conversation's envelopes from PROPOSE to the VERDICT " +
      'or FEEDBACK in one canonical CBOR file, each signed by its sender, so both ' +
      "parties' agreement and the outcome can be checked without the observatory.",
  },
  tiers: {
    term: 'Verification tiers',
    group: 'negotiation',
    text:
      'How a delivered task is checked: tier 0 self-verifying tests, tier 1 a mechanical ' +
      'check, tier 2 peer or notary review. An agent advertises the tiers it accepts.',
  },
  zopa: fig('zopa', 'ZOPA (zone of possible agreement)'),
  nash: fig('nash', 'Nash bargaining point'),
  rubinstein: fig('rubinstein', 'Rubinstein price'),
  beta: fig('curve', 'β (concession curve)'),
  reservations: fig('reservations'),
  surplus: fig('surplus'),
  escrowBurned: fig('escrowBurned'),
  bps: {
    term: 'bps (basis points)',
    group: 'negotiation',
    text:
      "Hundredths of a percent: 50 bps = 0.5 %. Haggle's escrow " +
      'decays by its configured bps on every offer after the first.',
  },
  reliability: {
    term: 'Reliability, cooperation',
    group: 'negotiation',
    text:
      'Reputation scores folded from FEEDBACK (docs/protocol.md §7), in score points from -100 to 100 (the scale ' +
      'of a FEEDBACK score): reliability from scores received as a seller, cooperation from how an agent ' +
      'behaves as a party. The agents list, its filter, the agent page and the reputation-drop alert all read and ' +
      "take points (62.333); the API carries the protocol's exact fixed point, points × 1,000,000 (62333333).",
  },
  unbackedFeedback: {
    term: 'Unbacked feedback',
    group: 'negotiation',
    text:
      'FEEDBACK about an agent from an identity with no stake on chain (no stake account holding tokens) ' +
      "and no deal with that agent (no conversation of theirs agreed or disputed). The protocol lets anyone's " +
      'FEEDBACK move the gossip score; such senders risk nothing, so the pages say how much of a score ' +
      'they make: their share of the feedback and, on the agent page, the reliability folded without them.',
  },
  collusion: {
    term: 'Collusion signals',
    group: 'negotiation',
    text:
      'Patterns that colluding agents leave in what the observatory stores: feedback traded between ' +
      'the same agents, deals kept within one pair, the same notary again and again, praise from agents ' +
      'that never dealt. Each is a lead to look into, not proof: honest agents can show any of them.',
  },
  reciprocalFeedback: {
    term: 'Reciprocal feedback',
    group: 'negotiation',
    text:
      'Two agents that each sent FEEDBACK about the other. Honest deals produce it (both parties ' +
      'rate each other after the verdict); it stands out "without a deal" when each side ' +
      'rated the other in a conversation that is not a deal both took part in (a deal: a ' +
      'conversation with an ACCEPT, disputed or not, that at least one of them negotiated; a conversation ' +
      'holding only FEEDBACK is "feedback without a deal", the same words as its stage).',
  },
  feedbackGap: {
    term: 'Gap between directions',
    group: 'negotiation',
    text:
      'For every feedback of a reciprocal pair, the time to the nearest feedback going the ' +
      "other way between the same two agents; the figure is the lower median over all the agent's " +
      'reciprocal pairs. Feedback traded on a schedule shows the same gap again and again.',
  },
  concentration: {
    term: 'Counterparty concentration',
    group: 'negotiation',
    text:
      "How much of an agent's deals went to its top counterparty: that counterparty's share, and the HHI " +
      'over all of them. Deals are conversations that reached ACCEPT (or a dispute) with the agent as ' +
      'a negotiator. Unknown with fewer than 3 deals, where every share is large whatever the agent does.',
  },
  hhi: {
    term: 'HHI (Herfindahl–Hirschman index)',
    group: 'negotiation',
    text:
      "The sum of the squared shares of an agent's deals per counterparty: 1.0 when every " +
      'deal was with one counterparty, 1/n when deals were spread evenly over n counterparties.',
  },
  notaryReuse: {
    term: 'Notary reuse',
    group: 'negotiation',
    text:
      'For two agents that negotiated with each other, how many of their conversations with a ' +
      "notary had the same one. The notary is the recipient of the conversation's NOTARIZE_ASSIGN; " +
      'a broadcast assignment, two assignments naming different notaries, or a conversation ' +
      'without exactly two negotiators leaves it unknown, and such conversations are counted apart.',
  },
  deallessRaters: {
    term: 'Raters without deals',
    group: 'negotiation',
    text:
      'Agents that sent FEEDBACK but are not a negotiator of any deal the observatory has ' +
      'stored (all time). Feedback from them rates work they were never seen to take part in.',
  },
  signalWindow: {
    term: 'Window',
    group: 'negotiation',
    text:
      'The collusion signals read at most this many of the newest rows of each source ' +
      '(FEEDBACK envelopes, conversations by last activity, NOTARIZE_ASSIGN envelopes), so ' +
      'a page view costs the same on any size of history. When older rows exist the page ' +
      'says so and the figures cover the window only; "no deals" is checked over all time.',
  },
  differs: {
    term: 'Differs',
    group: 'chain',
    text:
      'The offers gossiped on the mesh and the ones signed on chain ' +
      '(Haggle) for the same round do not agree on price or party.',
  },
  epoch: {
    term: 'Epoch',
    group: 'chain',
    text:
      'A fixed span of clock time (EPOCH_SECONDS; epoch e covers seconds e·len to ' +
      '(e+1)·len of unix time). Leases are paid and batches submitted per epoch.',
  },
  batch: {
    term: 'Behavior batch',
    group: 'chain',
    text:
      "An agent's on-chain summary of one epoch: counts and the merkle root of its epoch log. Verified when the " +
      'log the agent uploaded has the same root and counts; mismatch when not; unverified while no log is there.',
  },
  challenge: {
    term: 'Challenge',
    group: 'chain',
    text:
      'A claim, with evidence from the uploaded log, that a batch left something out. It stays pending ' +
      "through the challenge window, then is resolved (upheld slashes the agent's stake; rejected) or expires.",
  },
  stake: {
    term: 'Stake',
    group: 'chain',
    text:
      'USDC an agent locks on chain; an upheld challenge slashes ' +
      'it. Unlocking waits a delay before the stake can be claimed.',
  },
  lease: {
    term: 'Lease',
    group: 'chain',
    text: 'A fee an agent pays each epoch to stay active; after missed epochs beyond a grace period it is deactivated.',
  },
  haggle: {
    term: 'Haggle (on chain)',
    group: 'chain',
    text:
      'The program that mirrors a negotiation on chain: the buyer escrows USDC, each offer is ' +
      'signed there too (the escrow decays a little per offer), ACCEPT settles and REJECT refunds.',
  },
  slot: {
    term: 'Slot',
    group: 'chain',
    text: "Solana's unit of block time (about 400 ms). A transaction lands in one slot.",
  },
  sati: {
    term: 'SATI',
    group: 'chain',
    text:
      "The Solana agent identity registry: an agent is a Token-2022 NFT in SATI's group, with a name, " +
      'symbol and registration file. Whoever holds the NFT (or a delegate it attested) signs for the agent.',
  },
  reconciliation: {
    term: 'Reconciliation (gossip against chain)',
    group: 'chain',
    text:
      'Per agent and epoch, what the observer saw on the mesh compared with the epoch log the agent ' +
      'committed to on chain: envelopes seen live that belong in the log but are missing from it, log entries ' +
      'never seen live, and per topic the share of envelopes seen that appear in some committed log. ' +
      'Computed when the batch verdict is reached; unknown (not compared) unless the batch is verified.',
  },
  committedLog: {
    term: 'Committed log',
    group: 'chain',
    text:
      "An agent's uploaded epoch log whose merkle root is the root of its on-chain batch, " +
      'with the counts the chain recorded: the batch is verified. A log whose batch is ' +
      'mismatched or still unverified is not committed, so nothing is compared against it.',
  },
  seenNotLogged: {
    term: 'Seen, not logged',
    group: 'chain',
    text:
      'Envelopes the observer received live (gossip or a direct stream) that belong in the ' +
      "agent's log of the epoch (sent by it, addressed to it, or FEEDBACK about it, dated " +
      'in the epoch) but are not in the log it committed to. An agent may not have received ' +
      'an envelope addressed to it; one it sent and left out is a gap in its own record.',
  },
  loggedNotSeen: {
    term: 'Logged, never seen',
    group: 'chain',
    text:
      'Entries of the committed log the observer never received live on the mesh: it knows them only from an ' +
      'upload. A direct stream goes from one agent to the other, not through the observer, which learns of such ' +
      "envelopes mostly from the agents' uploads: for bilateral messages this is expected, for gossip it is not.",
  },
  merkle: {
    term: 'Merkle root, inclusion proof',
    group: 'chain',
    text:
      'A hash over every entry of an epoch log. A proof is the sibling hashes from one entry up ' +
      'to the root: folding them reproduces the root only if the entry is in the log unchanged.',
  },
  watchlist: {
    term: 'Watchlist',
    group: 'alerts',
    text:
      'The agents and conversations this browser follows, kept by the observatory under a random ' +
      'id. The browser holds the id and a secret token in its local storage, so no account is needed; ' +
      "clearing the browser's storage loses the list unless a wallet follows it. Following a wallet " +
      'watches every agent whose identity NFT it holds when it signs (signing again adds the ones ' +
      'it got since), and lets another browser take the list over by signing with the same wallet.',
  },
  alert: {
    term: 'Alert',
    group: 'alerts',
    text:
      'A condition on something you watch, checked by the observatory as the mesh and the chain ' +
      'change: it opens when the condition starts, saying why it fired, and clears when the condition ' +
      'ends, saying what cleared it. Read or unread only records whether you have looked at it.',
  },
  alertRule: {
    term: 'Alert rule',
    group: 'alerts',
    text:
      'Per watchlist and kind of alert: whether that kind is on, and its thresholds (how long, how much). ' +
      'A new watchlist starts with offline, lease grace, deactivated, batch missing, challenged and ' +
      'slashed on. Turning a rule off clears its open alerts; a new threshold applies at the next check.',
  },
  webhook: {
    term: 'Webhook',
    group: 'alerts',
    text:
      'An address the observatory sends every alert of this watchlist to, when it opens and ' +
      'when it clears, retrying when the receiver fails. Slack and Discord receive a message in ' +
      'their incoming-webhook format; JSON receives the alert as a JSON body, signed when you ' +
      'give an HMAC secret. Only public http(s) addresses are accepted: loopback, private, ' +
      'link-local and other reserved addresses are refused, also when a host name resolves to one.',
  },
  privateAddress: {
    term: 'private addresses',
    group: 'alerts',
    text:
      'Addresses that lead to the server itself or to a network behind it rather than the public internet: ' +
      'loopback (localhost, 127.x.x.x, ::1), private ranges (10.x, 172.16–31.x, 192.168.x), link-local ' +
      'and other reserved ones. A webhook to one is refused, so that nobody can make the observatory call ' +
      'machines on its own network; the setting ALERT_WEBHOOK_ALLOW_PRIVATE=1 lifts that for a local test.',
  },
  hmac: {
    term: 'HMAC secret',
    group: 'alerts',
    text:
      'A shared secret (16 to 256 characters) for webhooks of every format: each request carries ' +
      'X-Zerox1-Timestamp, X-Zerox1-Delivery and X-Zerox1-Signature: sha256=<hex HMAC-SHA256 under ' +
      'this secret of "<timestamp>.<delivery>.<raw body>">, which your receiver recomputes and ' +
      'compares. The time and the delivery id are covered by the signature, so your receiver can ' +
      'refuse an old request and drop one it has seen. Without the secret nobody can forge an alert.',
  },
  alertOffline: {
    term: 'Offline (alert)',
    group: 'alerts',
    text:
      'A watched agent has sent nothing the observer received for at least ' +
      'the threshold in minutes. Clears when its next envelope arrives.',
  },
  alertLeaseDue: {
    term: 'Lease due (alert)',
    group: 'alerts',
    text:
      "A watched agent's lease is paid through an epoch that ends within the threshold in hours, or has " +
      'already ended: unless it pays again, it enters its grace period. Clears when it pays further ahead.',
  },
  alertLeaseGrace: {
    term: 'Lease grace (alert)',
    group: 'alerts',
    text:
      "A watched agent's lease has been paid only through an epoch that has already ended, " +
      'for a quarter of an epoch or longer: it is still active, in its grace period, and is ' +
      'deactivated if the unpaid epochs pass the grace limit. A payment landing a moment after ' +
      'the epoch begins does not alert. Clears when the lease is paid ahead, or after a ' +
      'whole epoch without such a grace (so a late payer keeps one alert, not one per epoch).',
  },
  alertDeactivated: {
    term: 'Deactivated (alert)',
    group: 'alerts',
    text:
      "A watched agent's lease is deactivated on chain because it stayed " +
      'unpaid past the grace period. Clears when it is active again.',
  },
  alertBatchMissing: {
    term: 'Batch missing (alert)',
    group: 'alerts',
    text:
      'An epoch the watched agent paid its lease for has ended, the wait after ' +
      'it (one epoch by default, or the seconds you set) has passed, and the ' +
      'agent has submitted no behavior batch for it. Clears when the batch lands.',
  },
  alertBatchMismatch: {
    term: 'Batch mismatch (alert)',
    group: 'alerts',
    text:
      'The behavior batch a watched agent submitted for an epoch does not match ' +
      'the epoch log it uploaded: the merkle root or the counts differ, so ' +
      'the batch can be challenged. Clears if the batch is verified after all.',
  },
  alertChallenged: {
    term: 'Challenged (alert)',
    group: 'alerts',
    text:
      'A batch of a watched agent is challenged (its stake is at risk), or a watched agent ' +
      "challenged someone else's batch. Clears when the challenge is resolved or expires.",
  },
  alertChallengeResolved: {
    term: 'Challenge resolved (alert)',
    group: 'alerts',
    text:
      'A challenge involving a watched agent, as the challenged agent or as the challenger, ' +
      'ended: upheld (the stake is slashed), rejected, void or expired. The alert says which.',
  },
  alertSlashed: {
    term: 'Slashed (alert)',
    group: 'alerts',
    text:
      "A watched agent's stake was slashed after an upheld challenge: part went to the " +
      'challenger, the rest to the treasury. The alert names the amount and the transaction.',
  },
  alertReputationDrop: {
    term: 'Reputation drop (alert)',
    group: 'alerts',
    text:
      "A watched agent's reliability score fell by more than the threshold (in the " +
      'points the agent page shows reliability in) below its highest value within the window ' +
      'in minutes. Clears when the score is back within the threshold of that high.',
  },
  alertDropsRate: {
    term: 'Drops rate (alert)',
    group: 'alerts',
    text:
      'In the last minute the observer refused more envelopes naming a watched agent as ' +
      'their sender than the threshold: they failed validation (bad signature, replayed ' +
      'nonce, clock far off and the other drop reasons). A misconfigured agent, or someone ' +
      'forging envelopes in its name. Clears when the rate falls to the threshold or below.',
  },
  alertDispute: {
    term: 'Dispute (alert)',
    group: 'alerts',
    text:
      'A party raised a DISPUTE in a watched conversation or in one a ' +
      'watched agent takes part in: the delivery or the verdict is contested.',
  },
} satisfies Record<string, GlossaryEntry>;

export type GlossaryKey = keyof typeof GLOSSARY;

/** Why the observer refused an envelope, by the reason name counted in drops (docs/protocol.md §3). */
export const DROP_REASONS: Record<string, string> = {
  decode: 'The bytes are not a well-formed 0x01 envelope.',
  version: 'The envelope names a protocol version this observer does not speak.',
  msg_type: 'The message type code is not one the protocol defines.',
  signature: 'The signature does not verify under any key allowed to sign for the sender.',
  replay: "The nonce is not higher than the sender's last accepted one: a replayed or reordered envelope.",
  timestamp: "The envelope's time is more than 30 s from the observer's clock.",
  timestamp_out_of_window: 'An uploaded envelope dated too far ahead or older than the archive window.',
  payload_hash: 'The payload does not hash to the payload hash the envelope carries.',
  payload_len: 'The payload length differs from the one the envelope declares.',
  payload_schema: 'A FEEDBACK or NOTARIZE_BID payload does not parse.',
  unregistered: 'The sender is not a registered SATI agent (no identity NFT, or nobody holds it).',
  not_nft: "The sender's mint is a Token-2022 mint but not an NFT.",
  not_sati_member: "The sender's NFT is not a member of SATI's group: not an agent identity.",
  delegation_expired: 'Signed by a delegate whose delegation has expired.',
  delegation_revoked: 'Signed by a delegate whose delegation was revoked.',
  not_owner_or_delegate: 'Signed by a former owner of the identity, or a delegate of one.',
  rate_limit: 'The peer sent more than its fair share; the surplus was not read.',
  oversize: 'A frame larger than the protocol allows.',
  rejected: 'The gossip layer rejected the message.',
  ignored: 'The gossip layer ignored the message (for instance a duplicate).',
  validator_error: 'The gossip validator failed on the message.',
  stream_error: 'A direct stream broke mid-message.',
  store_error: 'The database refused the envelope.',
  store_unavailable: 'The database was unreachable and the buffer could not hold it.',
  store_backlog: 'The ingest buffer was full while the database was behind.',
};

/** The tooltip text of a term. */
export function glossaryText(k: GlossaryKey): string {
  return `${GLOSSARY[k].term}: ${GLOSSARY[k].text}`;
}

/** The tooltip of a drop reason ("unknown reason" when the observer counts one not listed here). */
export function dropReasonText(reason: string): string {
  return DROP_REASONS[reason] ?? 'A reason this page has no description for yet; see docs/protocol.md §3.';
}
