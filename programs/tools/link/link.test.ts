import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { TransactionInstruction } from '@solana/web3.js';
import { fundedWallet, Keypair, kitAddress, newSvm, programData, send } from '../../testing';
import { compileSources, toolchainAvailable } from '../build';
import { checkOpcodes, LinkError, link } from './link';
import { murmur3_32 } from './syscalls';

const skip = toolchainAvailable() ? false : 'clang-19 / llvm-link-19 not installed (apt-get install clang-19 llvm-19)';

describe('link step', () => {
  test('murmur3-32 matches the loader hash of known syscall names', () => {
    // Values from the Solana C SDK (sol/inc headers, static syscall ids).
    assert.equal(murmur3_32(new TextEncoder().encode('sol_log_')), 0x207559bd);
    assert.equal(murmur3_32(new TextEncoder().encode('sol_log_data')), 0x7317b434);
    assert.equal(murmur3_32(new TextEncoder().encode('sol_invoke_signed_c')), 0xa22b9c85);
  });

  test('opcode guard rejects ALU32 and atomics', () => {
    assert.throws(() => checkOpcodes(Uint8Array.of(0x04, 0, 0, 0, 1, 0, 0, 0), 0, 8), LinkError);
    assert.throws(() => checkOpcodes(Uint8Array.of(0xdb, 0x12, 0, 0, 0, 0, 0, 0), 0, 8), LinkError);
    assert.doesNotThrow(() => checkOpcodes(Uint8Array.of(0x95, 0, 0, 0, 0, 0, 0, 0), 0, 8));
  });

  test('rejects a non-ELF input', () => {
    assert.throws(() => link(new Uint8Array(64)), LinkError);
  });

  test('unknown syscall fails the build', { skip }, () => {
    assert.throws(
      () => compileSources(['tools/link/fixtures/bad-syscall.c']),
      /unknown syscall or undefined symbol "sol_not_a_syscall"/,
    );
  });

  test('fixture builds deterministically and runs in litesvm', { skip }, () => {
    const a = compileSources(['tools/link/fixtures/hello.c']);
    const b = compileSources(['tools/link/fixtures/hello.c']);
    assert.deepEqual(Buffer.from(a.so), Buffer.from(b.so));
    assert.deepEqual(a.syscalls.slice().sort(), [
      'sol_keccak256',
      'sol_log_',
      'sol_log_data',
      'sol_memcpy_',
      'sol_set_return_data',
    ]);
    const svm = newSvm({ programs: [] });
    const id = Keypair.generate().publicKey;
    svm.addProgram(kitAddress(id), a.so);
    const payer = fundedWallet(svm);
    const data = Buffer.from([5, 0, 0, 0, 0, 0, 0, 0, 1]);
    const ok = send(svm, [new TransactionInstruction({ programId: id, keys: [], data })], [payer]);
    assert.ok(ok.ok, ok.error);
    assert.ok(ok.logs.includes('Program log: hello from zerox1'));
    const [[y, h]] = programData(ok.logs);
    assert.deepEqual([...y], [15, 0, 0, 0, 0, 0, 0, 0]);
    assert.deepEqual(Buffer.from(h), Buffer.from(keccak_256(data)));
    const bad = send(svm, [new TransactionInstruction({ programId: id, keys: [], data: Buffer.from([1]) })], [payer]);
    assert.equal(bad.customError, 42);
  });
});
