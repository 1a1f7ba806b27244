/**
 * The SBPF v0 runtime's syscall names (agave program-runtime, `create_program_runtime_environment_v1`)
 * and the murmur3-32 hash the loader keys them by. A call to a name outside this list would only
 * fail when executed, so the link step refuses it up front.
 */
export const SYSCALLS: readonly string[] = [
  'abort',
  'sol_panic_',
  'sol_log_',
  'sol_log_64_',
  'sol_log_compute_units_',
  'sol_log_pubkey',
  'sol_log_data',
  'sol_create_program_address',
  'sol_try_find_program_address',
  'sol_sha256',
  'sol_keccak256',
  'sol_blake3',
  'sol_secp256k1_recover',
  'sol_curve_validate_point',
  'sol_curve_group_op',
  'sol_curve_multiscalar_mul',
  'sol_get_clock_sysvar',
  'sol_get_epoch_schedule_sysvar',
  'sol_get_rent_sysvar',
  'sol_get_last_restart_slot',
  'sol_get_epoch_rewards_sysvar',
  'sol_get_sysvar',
  'sol_memcpy_',
  'sol_memmove_',
  'sol_memcmp_',
  'sol_memset_',
  'sol_invoke_signed_c',
  'sol_invoke_signed_rust',
  'sol_set_return_data',
  'sol_get_return_data',
  'sol_get_processed_sibling_instruction',
  'sol_get_stack_height',
  'sol_remaining_compute_units',
  'sol_alt_bn128_group_op',
  'sol_alt_bn128_compression',
  'sol_big_mod_exp',
  'sol_poseidon',
  'sol_get_epoch_stake',
];

/** murmur3 x86 32-bit, seed 0: the loader's `hash_symbol_name`. */
export function murmur3_32(bytes: Uint8Array, seed = 0): number {
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  let h = seed >>> 0;
  const n = bytes.length;
  const blocks = n & ~3;
  for (let i = 0; i < blocks; i += 4) {
    let k = bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  let k = 0;
  switch (n & 3) {
    // biome-ignore lint/suspicious/noFallthroughSwitchClause: the tail takes its last bytes from the highest down
    case 3:
      k ^= bytes[blocks + 2] << 16; // falls through
    // biome-ignore lint/suspicious/noFallthroughSwitchClause: as above
    case 2:
      k ^= bytes[blocks + 1] << 8; // falls through
    case 1:
      k ^= bytes[blocks];
      k = Math.imul(k, c1);
      k = (k << 15) | (k >>> 17);
      k = Math.imul(k, c2);
      h ^= k;
  }
  h ^= n;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Opcodes SBPF v0 accepts that upstream clang (`-mcpu=v2`) emits. ALU32, JMP32, atomics,
 * packet loads and callx are left out on purpose: the first two are v3-only forms, the rest are
 * either rejected by the verifier or encode differently in v0.
 */
export const OPCODE_ALLOWLIST: ReadonlySet<number> = new Set([
  // ALU64 imm / reg
  0x07, 0x0f, 0x17, 0x1f, 0x27, 0x2f, 0x37, 0x3f, 0x47, 0x4f, 0x57, 0x5f, 0x67, 0x6f, 0x77, 0x7f, 0x87, 0x97, 0x9f,
  0xa7, 0xaf, 0xb7, 0xbf, 0xc7, 0xcf,
  // endianness
  0xd4, 0xdc,
  // lddw
  0x18,
  // loads / stores
  0x61, 0x69, 0x71, 0x79, 0x62, 0x6a, 0x72, 0x7a, 0x63, 0x6b, 0x73, 0x7b,
  // jumps
  0x05, 0x15, 0x1d, 0x25, 0x2d, 0x35, 0x3d, 0x45, 0x4d, 0x55, 0x5d, 0x65, 0x6d, 0x75, 0x7d, 0xa5, 0xad, 0xb5, 0xbd,
  0xc5, 0xcd, 0xd5, 0xdd,
  // call, exit
  0x85, 0x95,
]);
