/**
 * A SATI group mint written as account bytes, for an embedded chain that imitates a cluster's
 * addresses (SATI's own group mint, whose key nobody here holds, so no transaction can create
 * it). The bytes are what Token-2022 leaves after GroupPointer, InitializeMint2 and
 * InitializeGroup with the registry PDA as mint and update authority: the stand-in registry's
 * `initialize` then takes it with SATI's four accounts, as SATI's own initialize does on a cluster.
 */
import type { PublicKey } from '@solana/web3.js';
import { registryConfigAddress } from '../chain/sati';

const TOKEN_GROUP_POINTER = 20;
const TOKEN_GROUP = 21;

/** Token-2022 mint data of a TokenGroup `group` run by `program`'s registry PDA (318 bytes). */
export function satiGroupMintBytes(group: PublicKey, program: PublicKey): Uint8Array {
  const registry = registryConfigAddress(program).toBytes();
  const out = new Uint8Array(166 + 4 + 64 + 4 + 80);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 1, true); // mint authority: Some(registry)
  out.set(registry, 4);
  out[45] = 1; // initialized; supply 0, decimals 0, no freeze authority
  out[165] = 1; // account type: mint
  let o = 166;
  dv.setUint16(o, TOKEN_GROUP_POINTER, true);
  dv.setUint16(o + 2, 64, true);
  out.set(registry, o + 4);
  out.set(group.toBytes(), o + 36);
  o += 68;
  dv.setUint16(o, TOKEN_GROUP, true);
  dv.setUint16(o + 2, 80, true);
  out.set(registry, o + 4);
  out.set(group.toBytes(), o + 36);
  dv.setBigUint64(o + 68, 0n, true); // size
  dv.setBigUint64(o + 76, 0xffff_ffff_ffff_ffffn, true); // max_size
  return out;
}
