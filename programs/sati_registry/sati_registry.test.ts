// The SATI stand-in in litesvm. Transactions are built with lib/chain/sati.ts, the builder a
// wallet uses for the real SATI; the accounts it leaves are read with the code the observer uses
// on mainnet (satiRegistration, decodeRegistryConfig, decodeAgentIndex, parseAgentRegisteredLogs)
// and compared byte for byte with the layouts written in docs/chain.md.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeGroupPointerInstruction,
  createInitializeMint2Instruction,
  createTransferCheckedInstruction,
  ExtensionType,
  getAssociatedTokenAddressSync,
  getExtensionTypes,
  getGroupMemberPointerState,
  getMetadataPointerState,
  getMintLen,
  getTokenGroupState,
  unpackMint,
} from '@solana/spl-token';
import { createInitializeGroupInstruction } from '@solana/spl-token-group';
import { SystemProgram, TransactionInstruction } from '@solana/web3.js';
import * as gen from '../../lib/chain/gen/sati_registry';
import {
  agentIndexAddress,
  agentIndexHolds,
  decodeRegistryConfig,
  encodeRegisterAgentArgs,
  parseAgentRegisteredLogs,
  registerAgentInstruction,
  registryConfigAddress,
  SATI_DISCRIMINATORS,
  satiInitializeInstruction,
  satiRegistration,
} from '../../lib/chain/sati';

const { ERRORS } = gen;

import { toHex } from '../../lib/protocol/hex';
import {
  accountData,
  createIdentity,
  fundedWallet,
  getAccount,
  initSati,
  Keypair,
  newSvm,
  PublicKey,
  registerSati,
  SATI_PROGRAM_ID,
  send,
  sendErr,
  sendOk,
  TOKEN_2022_PROGRAM_ID,
  tokenBalance,
} from '../testing';

const u64 = (n: bigint) => Buffer.from(BigUint64Array.of(n).buffer).toString('hex');
const mintOf = (svm: ReturnType<typeof newSvm>, key: PublicKey) => {
  const a = getAccount(svm, key)!;
  return unpackMint(
    key,
    { data: Buffer.from(a.data), owner: a.owner, lamports: Number(a.lamports), executable: false },
    TOKEN_2022_PROGRAM_ID,
  );
};
const asRaw = (svm: ReturnType<typeof newSvm>, key: PublicKey) => {
  const a = getAccount(svm, key);
  return a ? { address: key, owner: a.owner, data: a.data, lamports: Number(a.lamports) } : null;
};

describe('sati_registry: initialize', () => {
  test(
    'creates the TokenGroup mint (update authority = registry ' + 'PDA) and RegistryConfig in the documented 81 bytes',
    () => {
      const svm = newSvm({ programs: ['sati_registry'] });
      const admin = fundedWallet(svm);
      const sati = initSati(svm, admin);
      const [pda, bump] = PublicKey.findProgramAddressSync([Buffer.from('registry')], SATI_PROGRAM_ID);
      assert.ok(sati.registry.equals(pda));
      const data = accountData(svm, pda);
      // docs/chain.md: disc 8 | group_mint 32 | authority 32 | total_agents u64 | bump u8
      assert.equal(
        toHex(data),
        `17760af6ade7f39c${toHex(sati.groupMint.toBytes())}` +
          `${toHex(admin.publicKey.toBytes())}${u64(0n)}${bump.toString(16).padStart(2, '0')}`,
      );
      assert.equal(getAccount(svm, pda)!.owner.toBase58(), SATI_PROGRAM_ID.toBase58());
      // program.json's generated codec (the C struct's twin) and lib/chain/sati.ts read the same bytes.
      assert.deepEqual(gen.decodeRegistryConfig(data), decodeRegistryConfig(data));
      assert.ok(gen.findRegistryPda(SATI_PROGRAM_ID)[0].equals(pda));
      const group = getTokenGroupState(mintOf(svm, sati.groupMint));
      assert.ok(group?.updateAuthority?.equals(pda) && group.mint?.equals(sati.groupMint));
      assert.equal(group?.size, 0n);
      const mint = mintOf(svm, sati.groupMint);
      assert.equal(mint.mintAuthority?.toBase58(), pda.toBase58());
      assert.equal(mint.supply, 0n);

      const again = Keypair.generate();
      sendErr(
        svm,
        [satiInitializeInstruction({ authority: admin.publicKey, groupMint: again.publicKey, createGroupMint: true })],
        [admin, again],
        ERRORS.AlreadyInitialized,
      );
    },
  );

  test(
    "SATI's four accounts with a group mint that already exists " +
      '(the cluster case); a group not run by the registry is refused',
    () => {
      const svm = newSvm({ programs: ['sati_registry'] });
      const admin = fundedWallet(svm);
      const registry = registryConfigAddress(SATI_PROGRAM_ID);
      const group = (updateAuthority: PublicKey) => {
        const g = Keypair.generate();
        const space = getMintLen([ExtensionType.GroupPointer]);
        sendOk(
          svm,
          [
            SystemProgram.createAccount({
              fromPubkey: admin.publicKey,
              newAccountPubkey: g.publicKey,
              space,
              lamports: Number(svm.minimumBalanceForRentExemption(BigInt(space + 84))),
              programId: TOKEN_2022_PROGRAM_ID,
            }),
            createInitializeGroupPointerInstruction(g.publicKey, updateAuthority, g.publicKey, TOKEN_2022_PROGRAM_ID),
            createInitializeMint2Instruction(g.publicKey, 0, admin.publicKey, null, TOKEN_2022_PROGRAM_ID),
            createInitializeGroupInstruction({
              programId: TOKEN_2022_PROGRAM_ID,
              group: g.publicKey,
              mint: g.publicKey,
              mintAuthority: admin.publicKey,
              updateAuthority,
              maxSize: 1000n,
            }),
          ],
          [admin, g],
        );
        return g.publicKey;
      };
      const foreign = group(admin.publicKey);
      const ix = satiInitializeInstruction({ authority: admin.publicKey, groupMint: foreign });
      assert.equal(ix.keys.length, 4);
      sendErr(svm, [ix], [admin], ERRORS.WrongGroupMint);
      const ours = group(registry);
      sendOk(svm, [satiInitializeInstruction({ authority: admin.publicKey, groupMint: ours })], [admin]);
      assert.ok(decodeRegistryConfig(accountData(svm, registry))?.groupMint.equals(ours));
      const owner = Keypair.generate().publicKey;
      const a = registerSati(svm, admin, owner);
      assert.equal(satiRegistration(asRaw(svm, a.agent), { groupMint: ours }).ok, true);
    },
  );
});

describe('sati_registry: register_agent', () => {
  test('a transaction built for the real SATI registers an agent; the observer code reads it', () => {
    const svm = newSvm({ programs: ['sati_registry'] });
    const admin = fundedWallet(svm);
    const sati = initSati(svm, admin);
    const payer = fundedWallet(svm);
    const owner = Keypair.generate().publicKey;
    const fields: [string, string][] = [
      ['zerox1-mesh', '/ip4/127.0.0.1/tcp/4001'],
      ['version', '1'],
    ];
    const a = registerSati(svm, payer, owner, {
      name: 'Ada',
      symbol: 'ADA',
      uri: 'https://example.org/ada.json',
      additionalMetadata: fields,
      nonTransferable: true,
    });
    assert.equal(a.memberNumber, 1n);

    // Rule 3, with the same function the observer runs against mainnet.
    const cfg = decodeRegistryConfig(accountData(svm, sati.registry))!;
    assert.equal(cfg.totalAgents, 1n);
    const reg = satiRegistration(asRaw(svm, a.agent), cfg);
    assert.ok(reg.ok);
    assert.deepEqual(
      [reg.memberNumber, reg.name, reg.symbol, reg.uri, reg.nonTransferable, reg.metadataAuthority?.toBase58()],
      [1n, 'Ada', 'ADA', 'https://example.org/ada.json', true, owner.toBase58()],
    );
    assert.deepEqual(reg.additionalMetadata, fields);

    // The Token-2022 state SATI leaves.
    const mint = mintOf(svm, a.agent);
    assert.deepEqual([mint.decimals, mint.supply, mint.mintAuthority, mint.freezeAuthority], [0, 1n, null, null]);
    const types = getExtensionTypes(mint.tlvData);
    for (const t of [
      ExtensionType.MetadataPointer,
      ExtensionType.GroupMemberPointer,
      ExtensionType.NonTransferable,
      ExtensionType.TokenMetadata,
      ExtensionType.TokenGroupMember,
    ])
      assert.ok(types.includes(t), ExtensionType[t]);
    const mp = getMetadataPointerState(mint),
      gp = getGroupMemberPointerState(mint);
    assert.ok(mp?.authority?.equals(owner) && mp.metadataAddress?.equals(a.agent));
    assert.ok(gp?.authority?.equals(sati.registry) && gp.memberAddress?.equals(a.agent));
    assert.equal(tokenBalance(svm, a.tokenAccount), 1n);
    assert.ok(new PublicKey(accountData(svm, a.tokenAccount).subarray(32, 64)).equals(owner));
    assert.equal(getTokenGroupState(mintOf(svm, sati.groupMint))?.size, 1n);

    // AgentIndex bytes: disc 8 | mint 32 | bump u8.
    const [index, ibump] = PublicKey.findProgramAddressSync(
      [Buffer.from('agent_index'), Buffer.from(u64(1n), 'hex')],
      SATI_PROGRAM_ID,
    );
    assert.ok(index.equals(agentIndexAddress(1n)));
    assert.equal(
      toHex(accountData(svm, index)),
      toHex(SATI_DISCRIMINATORS.agentIndex) + toHex(a.agent.toBytes()) + ibump.toString(16).padStart(2, '0'),
    );
    assert.ok(agentIndexHolds(asRaw(svm, index), a.agent));

    // AgentRegistered, emitted by the registry's own frame.
    assert.deepEqual(parseAgentRegisteredLogs(a.result.logs), [
      {
        mint: a.agent,
        owner,
        memberNumber: 1n,
        name: 'Ada',
        uri: 'https://example.org/ada.json',
        nonTransferable: true,
      },
    ]);

    // Non-transferable: the NFT cannot leave the owner (here the owner is a fresh key; use one that can sign).
    const holder = fundedWallet(svm);
    const b = registerSati(svm, payer, holder.publicKey, { nonTransferable: true });
    assert.equal(b.memberNumber, 2n);
    const to = Keypair.generate().publicKey;
    const dst = getAssociatedTokenAddressSync(b.agent, to, true, TOKEN_2022_PROGRAM_ID);
    const r = send(
      svm,
      [
        createAssociatedTokenAccountIdempotentInstruction(holder.publicKey, dst, to, b.agent, TOKEN_2022_PROGRAM_ID),
        createTransferCheckedInstruction(
          b.tokenAccount,
          b.agent,
          dst,
          holder.publicKey,
          1n,
          0,
          [],
          TOKEN_2022_PROGRAM_ID,
        ),
      ],
      [holder],
    );
    assert.equal(r.ok, false);
  });

  test('transferable agent without extra fields: owner is the metadata authority from the start; the NFT moves', () => {
    const svm = newSvm({ programs: ['sati_registry'] });
    const admin = fundedWallet(svm);
    const sati = initSati(svm, admin);
    const owner = fundedWallet(svm);
    const a = registerSati(svm, admin, owner.publicKey, { name: 'Bo' });
    const reg = satiRegistration(asRaw(svm, a.agent), sati);
    assert.ok(reg.ok && reg.metadataAuthority?.equals(owner.publicKey) && !reg.nonTransferable);
    const to = Keypair.generate().publicKey;
    const dst = getAssociatedTokenAddressSync(a.agent, to, true, TOKEN_2022_PROGRAM_ID);
    sendOk(
      svm,
      [
        createAssociatedTokenAccountIdempotentInstruction(owner.publicKey, dst, to, a.agent, TOKEN_2022_PROGRAM_ID),
        createTransferCheckedInstruction(
          a.tokenAccount,
          a.agent,
          dst,
          owner.publicKey,
          1n,
          0,
          [],
          TOKEN_2022_PROGRAM_ID,
        ),
      ],
      [owner],
    );
    assert.equal(tokenBalance(svm, dst), 1n);
  });

  test('a supply-1 Token-2022 NFT that is not a member of the group is refused by satiRegistration', () => {
    const svm = newSvm({ programs: ['sati_registry'] });
    const admin = fundedWallet(svm);
    const sati = initSati(svm, admin);
    const id = createIdentity(svm, admin, fundedWallet(svm));
    const mint = mintOf(svm, id.agent);
    assert.deepEqual([mint.decimals, mint.supply, mint.mintAuthority], [0, 1n, null]);
    assert.deepEqual(satiRegistration(asRaw(svm, id.agent), decodeRegistryConfig(accountData(svm, sati.registry))!), {
      ok: false,
      reason: 'not_sati_member',
    });
    // A member of another registry's group (same program at another id) is not a member of ours.
    const otherProgram = Keypair.generate().publicKey;
    const svm2 = newSvm({ programs: ['sati_registry'], satiProgram: otherProgram });
    const admin2 = fundedWallet(svm2);
    const other = initSati(svm2, admin2, otherProgram);
    const b = registerSati(svm2, admin2, admin2.publicKey, {}, otherProgram);
    assert.equal(satiRegistration(asRaw(svm2, b.agent), other).ok, true, 'PDAs follow the running program id');
    assert.deepEqual(satiRegistration(asRaw(svm2, b.agent), sati), { ok: false, reason: 'not_sati_member' });
  });

  test('refusals: bad arguments, wrong accounts, group mismatch', () => {
    const svm = newSvm({ programs: ['sati_registry'] });
    const admin = fundedWallet(svm);
    const sati = initSati(svm, admin);
    const cfg = decodeRegistryConfig(accountData(svm, sati.registry))!;
    const build = (over: Partial<Parameters<typeof registerAgentInstruction>[0]> = {}) => {
      const m = Keypair.generate();
      return {
        m,
        ix: registerAgentInstruction({
          payer: admin.publicKey,
          agentMint: m.publicKey,
          registry: cfg,
          name: 'a',
          symbol: 'b',
          uri: 'c',
          nonTransferable: false,
          ...over,
        }),
      };
    };
    const withData = (ix: TransactionInstruction, data: Uint8Array) =>
      new TransactionInstruction({ programId: ix.programId, keys: ix.keys, data: Buffer.from(data) });
    const raw = (parts: (number[] | Uint8Array)[]) => Uint8Array.from(parts.flatMap((p) => [...p]));
    const str = (b: number[]) => [b.length, 0, 0, 0, ...b];

    let { m, ix } = build();
    sendErr(
      svm,
      [withData(ix, raw([SATI_DISCRIMINATORS.registerAgent, str(Array(33).fill(97)), str([]), str([]), [0, 0]]))],
      [admin, m],
      ERRORS.NameTooLong,
    );
    sendErr(
      svm,
      [withData(ix, raw([SATI_DISCRIMINATORS.registerAgent, str([]), str(Array(11).fill(97)), str([]), [0, 0]]))],
      [admin, m],
      ERRORS.SymbolTooLong,
    );
    sendErr(
      svm,
      [withData(ix, raw([SATI_DISCRIMINATORS.registerAgent, str([]), str([]), str(Array(201).fill(97)), [0, 0]]))],
      [admin, m],
      ERRORS.UriTooLong,
    );
    sendErr(
      svm,
      [withData(ix, raw([SATI_DISCRIMINATORS.registerAgent, str([0xc0, 0x80]), str([]), str([]), [0, 0]]))],
      [admin, m],
      ERRORS.InvalidInstruction,
    );
    sendErr(
      svm,
      [withData(ix, raw([SATI_DISCRIMINATORS.registerAgent, str([]), str([]), str([]), [1, 11, 0, 0, 0], [0]]))],
      [admin, m],
      ERRORS.TooManyFields,
    );
    sendErr(
      svm,
      [withData(ix, raw([encodeRegisterAgentArgs({ name: 'a', symbol: 'b', uri: 'c', nonTransferable: false }), [0]]))],
      [admin, m],
      ERRORS.InvalidInstruction,
    );
    sendErr(
      svm,
      [withData(ix, raw([SATI_DISCRIMINATORS.registerAgent, str([]), str([]), str([]), [0, 2]]))],
      [admin, m],
      ERRORS.InvalidInstruction,
    );
    sendErr(svm, [withData(ix, Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8))], [admin, m], ERRORS.InvalidInstruction);

    ({ m, ix } = build({ registry: { ...cfg, totalAgents: 5n } }));
    sendErr(svm, [ix], [admin, m], ERRORS.WrongPda);
    ({ m, ix } = build({ registry: { ...cfg, groupMint: Keypair.generate().publicKey } }));
    sendErr(svm, [ix], [admin, m], ERRORS.WrongGroupMint);
    ({ m, ix } = build({ program: Keypair.generate().publicKey }));
    const foreignRegistry = new TransactionInstruction({ programId: SATI_PROGRAM_ID, keys: ix.keys, data: ix.data });
    sendErr(svm, [foreignRegistry], [admin, m], ERRORS.NotInitialized);
    // A mint that already exists (an identity minted elsewhere) cannot be registered.
    const existing = createIdentity(svm, admin, admin);
    ({ ix } = build({ agentMint: existing.agent }));
    const keys = ix.keys.map((k) => ({ ...k, isSigner: k.pubkey.equals(existing.agent) ? false : k.isSigner }));
    sendErr(
      svm,
      [new TransactionInstruction({ programId: ix.programId, keys, data: ix.data })],
      [admin],
      ERRORS.MissingSignature,
    );
    // Nothing changed: the next registration is still member 1.
    assert.equal(registerSati(svm, admin, admin.publicKey).memberNumber, 1n);
  });
});
