/**
 * Handshake receipt: a portable bundle of one conversation (docs/protocol.md §2, §5, §8) that
 * anyone can check offline. Bytes: canonical CBOR
 * `[1, conversation_id, [[agent_id, [key, ...]], ...], [envelope or log entry, ...]]`.
 */

import { asArray, asBytes, asInt, asList, type CborValue, decodeCanonical, encodeCanonical } from './cbor';
import { ed25519Verify, keccak256 } from './crypto';
import { decodeEnvelope, encodeEnvelope, signingPreimage } from './envelope';
import { assertBytes } from './errors';
import { bytesEqual, toHex } from './hex';
import { decodeNeg1 } from './neg1';
import { decodeFeedback } from './payloads';
import type { Envelope } from './types';
import { MsgType } from './types';

/** A party and its signer keys (owner and delegates, docs/protocol.md §2 "Signer"). */
export interface ReceiptParty {
  agentId: Uint8Array;
  keys: Uint8Array[];
}

/** A receipt: the conversation's envelopes (full, or as log entries with payload elided). */
export interface Receipt {
  version: 1;
  conversationId: Uint8Array;
  parties: ReceiptParty[];
  /** Encoded envelopes / log entries (12-item arrays), PROPOSE through VERDICT/FEEDBACK. */
  envelopes: Uint8Array[];
}

/** One failed check of {@link verifyReceipt}. */
export interface ReceiptFailure {
  check: string;
  detail: string;
}

/** Outcome of {@link verifyReceipt}; `failures` is empty when the receipt holds. */
export interface ReceiptVerification {
  ok: boolean;
  failures: ReceiptFailure[];
  /** Agreed Handshake verification tier (0..2), when an ACCEPT with a NEG1 payload is present. */
  tier?: number;
  /** Agreed price from the NEG1 ACCEPT. */
  price?: bigint;
  /** Outcomes from FEEDBACK payloads (0 negative, 1 neutral, 2 positive); 'verdict' if only VERDICT. */
  outcome?: number[] | 'verdict';
}

/** Parameters of {@link buildReceipt}. */
export interface BuildReceiptParams {
  conversationId: Uint8Array;
  /** Envelopes of the conversation in order (decoded or encoded). Others are ignored. */
  envelopes: (Envelope | Uint8Array)[];
  parties: ReceiptParty[];
}

/** Builds a receipt: the conversation's envelopes from the first PROPOSE to the last VERDICT/FEEDBACK. */
export function buildReceipt(params: BuildReceiptParams): Receipt {
  assertBytes('conversationId', params.conversationId, 16);
  const decoded = params.envelopes
    .map((e, i) => {
      if (e instanceof Uint8Array) {
        const r = decodeEnvelope(e);
        if (!r.ok) throw new TypeError(`envelopes[${i}] does not decode: ${r.detail}`);
        return { env: r.envelope, bytes: e };
      }
      return { env: e, bytes: encodeEnvelope(e) };
    })
    .filter((x) => bytesEqual(x.env.conversationId, params.conversationId));
  const start = decoded.findIndex((x) => x.env.msgType === MsgType.PROPOSE);
  let end = -1;
  decoded.forEach((x, i) => {
    if (x.env.msgType === MsgType.VERDICT || x.env.msgType === MsgType.FEEDBACK) end = i;
  });
  const slice = start >= 0 && end >= start ? decoded.slice(start, end + 1) : decoded;
  params.parties.forEach((p, i) => {
    assertBytes(`parties[${i}].agentId`, p.agentId, 32);
    p.keys.forEach((k, j) => assertBytes(`parties[${i}].keys[${j}]`, k, 32));
  });
  return {
    version: 1,
    conversationId: params.conversationId,
    parties: params.parties,
    envelopes: slice.map((x) => x.bytes),
  };
}

/** Canonical CBOR bytes of a receipt. */
export function encodeReceipt(r: Receipt): Uint8Array {
  return encodeCanonical([1, r.conversationId, r.parties.map((p): CborValue => [p.agentId, p.keys]), r.envelopes]);
}

/** Strict decode of receipt bytes. Never throws. */
export function decodeReceipt(bytes: Uint8Array): { ok: true; receipt: Receipt } | { ok: false; detail: string } {
  try {
    if (!(bytes instanceof Uint8Array)) return { ok: false, detail: 'not a Uint8Array' };
    const a = asArray(decodeCanonical(bytes), 4, 'receipt');
    asInt(a[0], 'version', 1n, 1n);
    return {
      ok: true,
      receipt: {
        version: 1,
        conversationId: asBytes(a[1], 'conversation_id', 16),
        parties: asList(a[2], 'parties').map((p) => {
          const pa = asArray(p, 2, 'party');
          return {
            agentId: asBytes(pa[0], 'agent_id', 32),
            keys: asList(pa[1], 'keys').map((k) => asBytes(k, 'key', 32)),
          };
        }),
        envelopes: asList(a[3], 'envelopes').map((e) => asBytes(e, 'envelope')),
      },
    };
  } catch (e) {
    return { ok: false, detail: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * Verifies a receipt offline: every envelope decodes, belongs to the conversation and is
 * signed by a key of its sender's party; every payload present matches payload_hash and
 * payload_len; there are two parties and each signed at least one envelope; an ACCEPT
 * carries a NEG1 tier equal to the offer it accepts; a VERDICT or FEEDBACK gives the outcome.
 */
export function verifyReceipt(receipt: Receipt): ReceiptVerification {
  const failures: ReceiptFailure[] = [];
  const fail = (check: string, detail: string) => failures.push({ check, detail });
  const out: ReceiptVerification = { ok: false, failures };
  const parties = Array.isArray(receipt?.parties) ? receipt.parties : [];
  if (parties.length !== 2) fail('parties', `expected 2 parties, got ${parties.length}`);
  const signedBy = new Set<string>();
  const envs: Envelope[] = [];
  (receipt?.envelopes ?? []).forEach((bytes, i) => {
    const d = decodeEnvelope(bytes);
    if (!d.ok) return fail('decode', `envelope ${i}: ${d.detail}`);
    const e = d.envelope;
    envs.push(e);
    if (!bytesEqual(e.conversationId, receipt.conversationId))
      fail('conversation', `envelope ${i} is in another conversation`);
    const party = parties.find((p) => bytesEqual(p.agentId, e.sender));
    if (!party) fail('unknown_signer', `envelope ${i}: sender ${toHex(e.sender)} is not a party`);
    else if (!party.keys.some((k) => ed25519Verify(e.signature, signingPreimage(e), k))) {
      fail('signature', `envelope ${i}: signature does not verify under ${toHex(e.sender)}'s keys`);
    } else signedBy.add(toHex(e.sender));
    const elided = e.payload.length === 0 && e.payloadLen > 0;
    if (!elided) {
      if (!bytesEqual(keccak256(e.payload), e.payloadHash))
        fail('payload_hash', `envelope ${i}: payload does not match payload_hash`);
      else if (e.payload.length !== e.payloadLen)
        fail('payload_len', `envelope ${i}: payload_len ${e.payloadLen} != ${e.payload.length}`);
    }
  });
  for (const p of parties) {
    if (!signedBy.has(toHex(p.agentId))) fail('party_signed', `party ${toHex(p.agentId)} signed nothing verifiable`);
  }
  // Tier: the ACCEPT's NEG1 tier must equal that of the last offer from the other side.
  const acceptIdx = envs.findIndex((e) => e.msgType === MsgType.ACCEPT);
  if (acceptIdx < 0) fail('tier', 'no ACCEPT in the receipt');
  else {
    const acc = decodeNeg1(envs[acceptIdx].payload);
    const offer = envs
      .slice(0, acceptIdx)
      .reverse()
      .find(
        (e) =>
          (e.msgType === MsgType.PROPOSE || e.msgType === MsgType.COUNTER) &&
          !bytesEqual(e.sender, envs[acceptIdx].sender),
      );
    const off = offer ? decodeNeg1(offer.payload) : undefined;
    if (!acc.ok) fail('tier', `ACCEPT has no readable NEG1 payload: ${acc.detail}`);
    else if (!off?.ok) fail('tier', 'no readable NEG1 offer from the other party before the ACCEPT');
    else if (off.value.verification.tier !== acc.value.verification.tier) {
      fail('tier', `ACCEPT tier ${acc.value.verification.tier} != offer tier ${off.value.verification.tier}`);
    } else {
      out.tier = acc.value.verification.tier;
      out.price = acc.value.bidValue;
    }
  }
  const outcomes: number[] = [];
  let verdict = false;
  for (const e of envs) {
    if (e.msgType === MsgType.VERDICT) verdict = true;
    if (e.msgType === MsgType.FEEDBACK) {
      const f = decodeFeedback(e.payload);
      if (f.ok) outcomes.push(f.value.outcome);
    }
  }
  if (outcomes.length) out.outcome = outcomes;
  else if (verdict) out.outcome = 'verdict';
  else fail('outcome', 'no VERDICT or readable FEEDBACK in the receipt');
  out.ok = failures.length === 0;
  return out;
}
