/**
 * Test helper: Token-2022 mint bytes written by hand (base 82 bytes, padding to 165, account type
 * 1, TLV extensions), so SATI's rule can be tested against exact bytes, including hostile ones,
 * without any program producing them. Layout facts: docs/chain.md "Token-2022 mint bytes".
 */

import { pack as packTokenMetadata } from '@solana/spl-token-metadata';
import type { PublicKey } from '@solana/web3.js';

/** One TLV extension: type (u16) and value. */
export interface TlvExtension {
  type: number;
  value: Uint8Array;
}

/** Fields of the 82-byte mint base. */
export interface MintBase {
  mintAuthority: PublicKey | null;
  supply: bigint;
  decimals: number;
  freezeAuthority?: PublicKey | null;
  initialized?: boolean;
}

const u16 = (n: number) => Uint8Array.of(n & 0xff, n >> 8);
const u64 = (n: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, n, true);
  return b;
};
const cat = (...xs: Uint8Array[]) => {
  const o = new Uint8Array(xs.reduce((n, x) => n + x.length, 0));
  let i = 0;
  for (const x of xs) {
    o.set(x, i);
    i += x.length;
  }
  return o;
};
const coption = (k: PublicKey | null | undefined) =>
  cat(Uint8Array.of(k ? 1 : 0, 0, 0, 0), k ? k.toBytes() : new Uint8Array(32));

/** A Token-2022 mint account's data: base, then (with extensions) padding, type byte 1 and TLVs. */
export function mintBytes(base: MintBase, extensions: readonly TlvExtension[] = []): Uint8Array {
  const head = cat(
    coption(base.mintAuthority),
    u64(base.supply),
    Uint8Array.of(base.decimals, base.initialized === false ? 0 : 1),
    coption(base.freezeAuthority ?? null),
  );
  if (extensions.length === 0) return head;
  const tlv = extensions.map((e) => cat(u16(e.type), u16(e.value.length), e.value));
  return cat(head, new Uint8Array(165 - 82), Uint8Array.of(1), ...tlv);
}

/** Extension values by type (numbers as Token-2022 defines them). */
export const ext = {
  nonTransferable: (): TlvExtension => ({ type: 9, value: new Uint8Array(0) }),
  metadataPointer: (authority: PublicKey, metadata: PublicKey): TlvExtension => ({
    type: 18,
    value: cat(authority.toBytes(), metadata.toBytes()),
  }),
  groupMemberPointer: (authority: PublicKey, member: PublicKey): TlvExtension => ({
    type: 22,
    value: cat(authority.toBytes(), member.toBytes()),
  }),
  tokenGroupMember: (mint: PublicKey, group: PublicKey, memberNumber: bigint): TlvExtension => ({
    type: 23,
    value: cat(mint.toBytes(), group.toBytes(), u64(memberNumber)),
  }),
  tokenMetadata: (m: {
    updateAuthority?: PublicKey;
    mint: PublicKey;
    name: string;
    symbol: string;
    uri: string;
    additionalMetadata?: [string, string][];
  }): TlvExtension => ({ type: 19, value: Uint8Array.from(packTokenMetadata({ additionalMetadata: [], ...m })) }),
};

/** The mint SATI's register_agent leaves behind (as bytes), for `mint` in `group` as member `n`. */
export function satiAgentMintBytes(p: {
  mint: PublicKey;
  group: PublicKey;
  registry: PublicKey;
  owner: PublicKey;
  memberNumber: bigint;
  name?: string;
  symbol?: string;
  uri?: string;
  nonTransferable?: boolean;
}): Uint8Array {
  const exts: TlvExtension[] = [ext.metadataPointer(p.owner, p.mint), ext.groupMemberPointer(p.registry, p.mint)];
  if (p.nonTransferable) exts.push(ext.nonTransferable());
  exts.push(
    ext.tokenMetadata({
      updateAuthority: p.owner,
      mint: p.mint,
      name: p.name ?? 'agent',
      symbol: p.symbol ?? 'AGT',
      uri: p.uri ?? 'https://example.org/agent.json',
    }),
  );
  exts.push(ext.tokenGroupMember(p.mint, p.group, p.memberNumber));
  return mintBytes({ mintAuthority: null, supply: 1n, decimals: 0 }, exts);
}
