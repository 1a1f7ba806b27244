// SATI library against bytes written by hand at the offsets of docs/chain.md "SATI": account
// decoders, the register_agent/initialize encodings, the AgentRegistered event, and both rules
// (registration, delegation) with every refusal reason.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { keccak_256 } from '@noble/hashes/sha3.js';
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  getAssociatedTokenAddressSync,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { Keypair, PublicKey, SystemProgram } from '@solana/web3.js';
import fc from 'fast-check';
import { toHex } from '../protocol/hex';
import {
  agentIndexAddress,
  agentIndexHolds,
  decodeAgentIndex,
  decodeAgentRegistered,
  decodeDelegateAttestation,
  decodeRegisterAgentArgs,
  decodeRegistryConfig,
  delegateAttestationAddress,
  delegationValid,
  encodeAgentIndex,
  encodeAgentRegistered,
  encodeDelegateAttestation,
  encodeRegisterAgentArgs,
  encodeRegistryConfig,
  parseAgentRegisteredLogs,
  registerAgentInstruction,
  registryConfigAddress,
  SATI_DISCRIMINATORS,
  SATI_MAINNET,
  satiInitializeInstruction,
  satiRegistration,
} from './sati';
import { ext, type MintBase, mintBytes, satiAgentMintBytes } from './testing';

const key = () => Keypair.generate().publicKey;
const u32 = (n: number) => Buffer.from(Uint32Array.of(n).buffer).toString('hex');
const u64 = (n: bigint) => Buffer.from(BigUint64Array.of(n).buffer).toString('hex');
const str = (s: string) => u32(Buffer.byteLength(s)) + Buffer.from(s).toString('hex');

describe('SATI addresses and PDAs', () => {
  test('mainnet defaults are the published addresses', () => {
    assert.equal(SATI_MAINNET.program.toBase58(), 'satiRkxEiwZ51cv8PRu8UMzuaqeaNU9jABo6oAFMsLe');
    assert.equal(SATI_MAINNET.groupMint.toBase58(), 'satiG7i9iyFxjq23sdyeLB4ibAHf6GXCARuosGeqane');
    assert.equal(SATI_MAINNET.sas.toBase58(), '22zoJMtdu4tQc2PzL74ZUT7FrwgB1Udec8DdW4yw4BdG');
    assert.equal(SATI_MAINNET.delegateSchema.toBase58(), '93wrAiBtCWgfVzToT6kU4zkPSvZpWbKDG3XUQEEHXBrk');
  });

  test('registry and agent index PDAs use the documented seeds', () => {
    const p = SATI_MAINNET.program;
    assert.ok(registryConfigAddress().equals(PublicKey.findProgramAddressSync([Buffer.from('registry')], p)[0]));
    const seven = Buffer.from('0700000000000000', 'hex');
    assert.ok(
      agentIndexAddress(7n).equals(PublicKey.findProgramAddressSync([Buffer.from('agent_index'), seven], p)[0]),
    );
    assert.ok(!agentIndexAddress(7n).equals(agentIndexAddress(8n)));
    assert.throws(() => agentIndexAddress(0n), RangeError);
    const other = key();
    assert.ok(!registryConfigAddress(other).equals(registryConfigAddress()));
  });

  test(
    'delegate attestation PDA: ["attestation", credential, ' + 'schema, keccak256(schema ‖ delegate ‖ mint)] of SAS',
    () => {
      const delegate = key(),
        mint = key();
      const nonce = keccak_256(
        Buffer.concat([SATI_MAINNET.delegateSchema.toBuffer(), delegate.toBuffer(), mint.toBuffer()]),
      );
      const want = PublicKey.findProgramAddressSync(
        [Buffer.from('attestation'), SATI_MAINNET.credential.toBuffer(), SATI_MAINNET.delegateSchema.toBuffer(), nonce],
        SATI_MAINNET.sas,
      )[0];
      assert.ok(delegateAttestationAddress(delegate, mint).equals(want));
      assert.ok(!delegateAttestationAddress(mint, delegate).equals(want), 'order matters');
      // keccak-256, not SHA3-256: the empty-input digest tells them apart
      assert.equal(
        toHex(keccak_256(new Uint8Array(0))),
        'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
      );
    },
  );
});

describe('SATI accounts', () => {
  test('RegistryConfig: 81 bytes at the documented offsets', () => {
    const group = key(),
      auth = key();
    const bytes = Buffer.from(
      `${toHex(SATI_DISCRIMINATORS.registryConfig) + toHex(group.toBytes()) + toHex(auth.toBytes()) + u64(42n)}fe`,
      'hex',
    );
    assert.equal(bytes.length, 81);
    assert.equal(toHex(SATI_DISCRIMINATORS.registryConfig), toHex(Uint8Array.of(23, 118, 10, 246, 173, 231, 243, 156)));
    const c = decodeRegistryConfig(bytes);
    assert.ok(c);
    assert.deepEqual(
      [c.groupMint.toBase58(), c.authority.toBase58(), c.totalAgents, c.bump],
      [group.toBase58(), auth.toBase58(), 42n, 254],
    );
    assert.equal(toHex(encodeRegistryConfig(c)), toHex(bytes));
    assert.equal(decodeRegistryConfig(bytes.subarray(0, 80)), null);
    const wrong = Buffer.from(bytes);
    wrong[0] ^= 1;
    assert.equal(decodeRegistryConfig(wrong), null);
  });

  test('AgentIndex: 41 bytes', () => {
    const mint = key();
    const bytes = Buffer.from(`f19a2367b48d31b3${toHex(mint.toBytes())}ff`, 'hex');
    assert.deepEqual(decodeAgentIndex(bytes), { mint, bump: 255 });
    assert.equal(toHex(encodeAgentIndex({ mint, bump: 255 })), toHex(bytes));
    const prog = SATI_MAINNET.program;
    assert.equal(agentIndexHolds({ owner: prog, data: bytes }, mint), true);
    assert.equal(agentIndexHolds({ owner: key(), data: bytes }, mint), false, 'another program owns it');
    assert.equal(agentIndexHolds({ owner: prog, data: bytes }, key()), false, 'another mint');
    assert.equal(agentIndexHolds(null, mint), false);
  });

  test('DelegateV1 attestation: header 101, universal data layout, signer, expiry, token account', () => {
    const agent = key(),
      delegate = key(),
      delegator = key(),
      signer = key();
    const nonce = keccak_256(
      Buffer.concat([SATI_MAINNET.delegateSchema.toBuffer(), delegate.toBuffer(), agent.toBuffer()]),
    );
    const data =
      `01${'11'.repeat(32)}${toHex(agent.toBytes())}` +
      `${toHex(delegate.toBytes())}00${toHex(delegator.toBytes())}00abcd`;
    const dataLen = data.length / 2;
    const bytes = Buffer.from(
      '02' +
        toHex(nonce) +
        toHex(SATI_MAINNET.credential.toBytes()) +
        toHex(SATI_MAINNET.delegateSchema.toBytes()) +
        u32(dataLen) +
        data +
        toHex(signer.toBytes()) +
        u64(1_900_000_000n) +
        '00'.repeat(32),
      'hex',
    );
    assert.equal(bytes.length, 101 + 133 + 72);
    const d = decodeDelegateAttestation(bytes);
    assert.ok(d);
    assert.deepEqual(
      [
        d.agent.toBase58(),
        d.delegate.toBase58(),
        d.delegator.toBase58(),
        d.signer.toBase58(),
        d.expiry,
        d.layoutVersion,
        toHex(d.content),
      ],
      [agent.toBase58(), delegate.toBase58(), delegator.toBase58(), signer.toBase58(), 1_900_000_000n, 1, 'abcd'],
    );
    assert.equal(
      toHex(
        encodeDelegateAttestation({
          agent,
          delegate,
          delegator,
          signer,
          expiry: 1_900_000_000n,
          taskRef: new Uint8Array(32).fill(0x11),
          content: Uint8Array.of(0xab, 0xcd),
        }),
      ),
      toHex(bytes),
    );
    const tag = Buffer.from(bytes);
    tag[0] = 1;
    assert.equal(decodeDelegateAttestation(tag), null, 'a schema account is not an attestation');
    const long = Buffer.from(bytes);
    long.writeUInt32LE(10_000, 97);
    assert.equal(decodeDelegateAttestation(long), null, 'data_len past the end');
  });
});

describe('SATI instructions and event', () => {
  test('register_agent data: discriminator, Borsh strings, Option<Vec<(key, value)>>, bool', () => {
    const data = encodeRegisterAgentArgs({
      name: 'Ada',
      symbol: 'ADA',
      uri: 'data:,x',
      additionalMetadata: [['k', 'v']],
      nonTransferable: true,
    });
    assert.equal(
      toHex(data),
      `879d42c30271af1e${str('Ada')}${str('ADA')}${str('data:,x')}01${u32(1)}${str('k')}${str('v')}01`,
    );
    const none = encodeRegisterAgentArgs({ name: '', symbol: '', uri: '', nonTransferable: false });
    assert.equal(toHex(none), `879d42c30271af1e${u32(0)}${u32(0)}${u32(0)}0000`);
    assert.deepEqual(decodeRegisterAgentArgs(data), {
      name: 'Ada',
      symbol: 'ADA',
      uri: 'data:,x',
      additionalMetadata: [['k', 'v']],
      nonTransferable: true,
    });
    assert.throws(
      () => encodeRegisterAgentArgs({ name: 'x'.repeat(33), symbol: '', uri: '', nonTransferable: false }),
      /name/,
    );
    assert.throws(
      () => encodeRegisterAgentArgs({ name: '', symbol: 'x'.repeat(11), uri: '', nonTransferable: false }),
      /symbol/,
    );
    assert.throws(
      () => encodeRegisterAgentArgs({ name: '', symbol: '', uri: 'x'.repeat(201), nonTransferable: false }),
      /uri/,
    );
    assert.throws(
      () =>
        encodeRegisterAgentArgs({
          name: '',
          symbol: '',
          uri: '',
          additionalMetadata: Array(11).fill(['a', 'b']),
          nonTransferable: false,
        }),
      /at most 10/,
    );
    assert.equal(decodeRegisterAgentArgs(Buffer.concat([data, Buffer.of(0)])), null, 'trailing bytes');
  });

  test('register_agent accounts in SATI order; initialize accounts', () => {
    const payer = key(),
      owner = key(),
      agentMint = key(),
      group = key();
    const ix = registerAgentInstruction({
      payer,
      owner,
      agentMint,
      registry: { groupMint: group, totalAgents: 4n },
      name: 'a',
      symbol: 'b',
      uri: 'c',
      nonTransferable: false,
    });
    assert.ok(ix.programId.equals(SATI_MAINNET.program));
    const ata = getAssociatedTokenAddressSync(agentMint, owner, true, TOKEN_2022_PROGRAM_ID);
    assert.deepEqual(
      ix.keys.map((k) => [k.pubkey.toBase58(), k.isSigner, k.isWritable]),
      [
        [payer.toBase58(), true, true],
        [owner.toBase58(), false, false],
        [registryConfigAddress().toBase58(), false, true],
        [group.toBase58(), false, true],
        [agentMint.toBase58(), true, true],
        [ata.toBase58(), false, true],
        [TOKEN_2022_PROGRAM_ID.toBase58(), false, false],
        [agentIndexAddress(5n).toBase58(), false, true],
        [ASSOCIATED_TOKEN_PROGRAM_ID.toBase58(), false, false],
        [SystemProgram.programId.toBase58(), false, false],
      ],
    );
    const init = satiInitializeInstruction({ authority: payer, groupMint: group });
    assert.equal(toHex(init.data), 'afaf6d1f0d989bed');
    assert.deepEqual(
      init.keys.map((k) => k.pubkey.toBase58()),
      [payer.toBase58(), registryConfigAddress().toBase58(), group.toBase58(), SystemProgram.programId.toBase58()],
    );
  });

  test('AgentRegistered: Borsh after the event discriminator, only from the SATI program frame', () => {
    const mint = key(),
      owner = key();
    const bytes = Buffer.from(
      `bf4ed936e864bd55${toHex(mint.toBytes())}${toHex(owner.toBytes())}` +
        `${u64(3n)}${str('Ada')}${str('https://a/x.json')}01`,
      'hex',
    );
    const ev = { mint, owner, memberNumber: 3n, name: 'Ada', uri: 'https://a/x.json', nonTransferable: true };
    assert.deepEqual(decodeAgentRegistered(bytes), ev);
    assert.equal(toHex(encodeAgentRegistered(ev)), toHex(bytes));
    const p = SATI_MAINNET.program.toBase58(),
      t = TOKEN_2022_PROGRAM_ID.toBase58();
    const line = `Program data: ${bytes.toString('base64')}`;
    const logs = [
      `Program ${p} invoke [1]`,
      `Program ${t} invoke [2]`,
      line,
      `Program ${t} success`,
      line,
      'Program data: !!!',
      `Program ${p} success`,
      line,
    ];
    assert.deepEqual(parseAgentRegisteredLogs(logs), [ev]);
    assert.deepEqual(parseAgentRegisteredLogs(logs, key()), []);
  });
});

describe('satiRegistration (rule 3)', () => {
  const group = key(),
    registry = registryConfigAddress();
  const cfg = { groupMint: group };
  const mintAt = (address: PublicKey, data: Uint8Array, owner = TOKEN_2022_PROGRAM_ID) => ({
    address,
    owner,
    data,
    lamports: 1_000_000,
  });

  test('a member of the registry group is registered, with its metadata', () => {
    const mint = key(),
      owner = key();
    const r = satiRegistration(
      mintAt(
        mint,
        satiAgentMintBytes({
          mint,
          group,
          registry,
          owner,
          memberNumber: 9n,
          name: 'Ada',
          uri: 'data:,{}',
          nonTransferable: true,
        }),
      ),
      cfg,
    );
    assert.deepEqual(
      r.ok && [r.memberNumber, r.name, r.symbol, r.uri, r.nonTransferable, r.metadataAuthority?.toBase58()],
      [9n, 'Ada', 'AGT', 'data:,{}', true, owner.toBase58()],
    );
  });

  test('refusals name the reason', () => {
    const mint = key(),
      owner = key();
    const nft = (
      exts: Parameters<typeof mintBytes>[1],
      base: MintBase = { mintAuthority: null, supply: 1n, decimals: 0 },
    ) => satiRegistration(mintAt(mint, mintBytes(base, exts)), cfg);
    const reason = (r: ReturnType<typeof satiRegistration>) => (r.ok ? 'ok' : r.reason);
    // A supply-1 Token-2022 NFT with no group membership is not a SATI agent, whoever holds it.
    assert.equal(reason(nft([])), 'not_sati_member');
    assert.equal(reason(nft([ext.metadataPointer(owner, mint)])), 'not_sati_member');
    assert.equal(reason(nft([ext.tokenGroupMember(mint, key(), 1n)])), 'not_sati_member', 'another group');
    assert.equal(
      reason(nft([ext.tokenGroupMember(key(), group, 1n)])),
      'not_sati_member',
      'member extension naming another mint',
    );
    assert.equal(reason(nft([ext.tokenGroupMember(mint, group, 1n)])), 'ok');
    assert.equal(
      reason(nft([ext.tokenGroupMember(mint, group, 1n)], { mintAuthority: owner, supply: 1n, decimals: 0 })),
      'not_nft',
    );
    assert.equal(
      reason(nft([ext.tokenGroupMember(mint, group, 1n)], { mintAuthority: null, supply: 2n, decimals: 0 })),
      'not_nft',
    );
    assert.equal(
      reason(nft([ext.tokenGroupMember(mint, group, 1n)], { mintAuthority: null, supply: 1n, decimals: 6 })),
      'not_nft',
    );
    const good = satiAgentMintBytes({ mint, group, registry, owner, memberNumber: 1n });
    assert.equal(
      reason(satiRegistration(mintAt(mint, good, TOKEN_PROGRAM_ID), cfg)),
      'unregistered',
      'SPL Token, not Token-2022',
    );
    assert.equal(reason(satiRegistration(null, cfg)), 'unregistered');
    assert.equal(reason(satiRegistration({ ...mintAt(mint, good), lamports: 0 }, cfg)), 'unregistered');
    assert.equal(reason(satiRegistration(mintAt(mint, good.subarray(0, 60)), cfg)), 'unregistered');
    const tokenAccountType = Uint8Array.from(good);
    tokenAccountType[165] = 2;
    assert.equal(reason(satiRegistration(mintAt(mint, tokenAccountType), cfg)), 'unregistered');
  });

  test('random bytes never throw', () => {
    const mint = key();
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), fc.boolean(), (bytes, pad) => {
        const data =
          pad && bytes.length > 0
            ? Uint8Array.from([
                ...mintBytes({ mintAuthority: null, supply: 1n, decimals: 0 }),
                ...new Uint8Array(83),
                1,
                ...bytes,
              ])
            : bytes;
        const r = satiRegistration(mintAt(mint, data), cfg);
        return typeof r.ok === 'boolean';
      }),
      { numRuns: 300 },
    );
  });
});

describe('delegationValid', () => {
  const agent = key(),
    delegate = key(),
    owner = key(),
    issuer = key();
  const at = (
    data: Uint8Array,
    address = delegateAttestationAddress(delegate, agent),
    ownerProgram = SATI_MAINNET.sas,
  ) => ({ address, owner: ownerProgram, data, lamports: 1 });
  const q = { agent, delegate, currentOwner: owner, nowSec: 1_800_000_000n };
  const bytes = (over: Partial<Parameters<typeof encodeDelegateAttestation>[0]> = {}) =>
    encodeDelegateAttestation({ agent, delegate, delegator: owner, signer: issuer, expiry: 1_800_000_100n, ...over });
  const reason = (r: ReturnType<typeof delegationValid>) => (r.ok ? 'ok' : r.reason);

  test('valid while every condition holds', () => {
    assert.deepEqual(delegationValid(at(bytes()), q), { ok: true, expiry: 1_800_000_100n, delegator: owner });
    assert.equal(
      reason(delegationValid(at(bytes({ expiry: 0n })), { ...q, nowSec: 4_000_000_000 })),
      'ok',
      'expiry 0 = never',
    );
  });

  test('each refusal', () => {
    assert.equal(reason(delegationValid(null, q)), 'no_delegation');
    assert.equal(reason(delegationValid({ ...at(bytes()), lamports: 0 }, q)), 'delegation_revoked');
    assert.equal(reason(delegationValid(at(new Uint8Array(0)), q)), 'delegation_revoked');
    assert.equal(
      reason(delegationValid(at(bytes(), undefined, key()), q)),
      'not_delegate_attestation',
      'not owned by SAS',
    );
    assert.equal(reason(delegationValid(at(bytes(), key()), q)), 'not_delegate_attestation', 'not at the PDA');
    assert.equal(
      reason(
        delegationValid(
          at(bytes({ addresses: { credential: key(), delegateSchema: SATI_MAINNET.delegateSchema } })),
          q,
        ),
      ),
      'not_delegate_attestation',
      'another credential',
    );
    assert.equal(reason(delegationValid(at(bytes({ agent: key() })), q)), 'delegation_mismatch');
    assert.equal(reason(delegationValid(at(bytes({ delegate: key() })), q)), 'delegation_mismatch');
    assert.equal(
      reason(delegationValid(at(bytes()), { ...q, currentOwner: key() })),
      'delegator_not_owner',
      'the NFT moved',
    );
    assert.equal(
      reason(delegationValid(at(bytes()), { ...q, nowSec: 1_800_000_100 })),
      'delegation_expired',
      'expiry is exclusive',
    );
  });
});
