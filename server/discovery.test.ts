// Discovery from On the embedded chain: our stand-in registry: SATI's accounts written as bytes (RegistryConfig,
// AgentIndex 1…n, member mints with their metadata uri); each registered agent's registration
// file is read (data: URIs here), the agent named by its SATI name and its zerox1-mesh endpoint
// dialled; a mint that is not a member and a file that is not JSON are counted by reason; a
// later registration is picked up by the next pass, which reads again only the incomplete file.
// On a cluster, files and endpoints that lead to private addresses are refused before any
// connection, and pages see failure classes only.

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { TOKEN_2022_PROGRAM_ID } from '@solana/spl-token';
import { Keypair, PublicKey } from '@solana/web3.js';
import { type ChainWorld, startChainWorld } from '../lib/chain/node/testing';
import { registrationDataUri } from '../lib/chain/registration-file';
import {
  agentIndexAddress,
  encodeAgentIndex,
  encodeRegistryConfig,
  registryConfigAddress,
  SATI_MAINNET,
} from '../lib/chain/sati';
import { satiAgentMintBytes } from '../lib/chain/testing';
import { startSatiDiscovery } from './discovery';

let w: ChainWorld;
before(async () => {
  w = await startChainWorld();
});
after(async () => {
  await w?.close();
});

const MESH = (n: number) => `/ip4/127.0.0.1/tcp/${4000 + n}/p2p/12D3KooWQYhTNQdmr3ArTeUHRYzFg94BKyTkoWBDWez9kSCVe2Xo`;

test('enumerates AgentIndex, reads registration files, names and dials; failures counted', async () => {
  const sati = { ...SATI_MAINNET, program: Keypair.generate().publicKey };
  const group = Keypair.generate().publicKey;
  const registry = registryConfigAddress(sati.program);
  const write = (a: PublicKey, data: Uint8Array, owner: PublicKey) =>
    w.chain.writeAccount(a.toBase58(), { lamports: 10_000_000n, data, owner: owner.toBase58() });
  const config = (total: bigint) =>
    write(
      registry,
      encodeRegistryConfig({ groupMint: group, authority: PublicKey.default, totalAgents: total, bump: 255 }),
      sati.program,
    );
  const member = (n: bigint, uri: string, name: string, inGroup = group) => {
    const mint = Keypair.generate().publicKey;
    write(
      mint,
      satiAgentMintBytes({
        mint,
        group: inGroup,
        registry,
        owner: Keypair.generate().publicKey,
        memberNumber: n,
        name,
        uri,
      }),
      TOKEN_2022_PROGRAM_ID,
    );
    write(agentIndexAddress(n, sati.program), encodeAgentIndex({ mint, bump: 255 }), sati.program);
    return mint;
  };
  const a = member(
    1n,
    registrationDataUri({
      name: 'Alpha file',
      description: 'forecasts',
      services: [
        { name: 'zerox1-mesh', endpoint: MESH(1) },
        { name: 'MCP', endpoint: 'https://alpha.example/mcp' },
      ],
    }),
    'alpha',
  );
  const b = member(2n, 'data:application/json,not json', 'beta');
  const c = member(3n, registrationDataUri({}), 'gamma', Keypair.generate().publicKey);
  config(3n);

  const dialled: string[] = [];
  const labels = new Map<string, string>();
  const d = startSatiDiscovery({
    // The embedded demo's rule (its agents listen on loopback); the cluster rule is the next test.
    connection: w.connection,
    sati,
    publicOnly: false,
    intervalMs: 3_600_000,
    log: { info() {}, warn() {} },
    dial: async (addr) => {
      dialled.push(addr);
      if (addr === MESH(4)) throw new Error('connect ECONNREFUSED 127.0.0.1:4004');
    },
    setLabel: async (id, l) => {
      labels.set(new PublicKey(id).toBase58(), l);
    },
  });
  try {
    await d.pass();
    const hex = (k: PublicKey) => Buffer.from(k.toBytes()).toString('hex');
    const pa = d.profile(hex(a));
    assert.equal(pa?.name, 'alpha');
    assert.equal(pa?.description, 'forecasts');
    assert.equal(pa?.meshEndpoint, MESH(1));
    assert.deepEqual(
      pa?.services.map((s) => s.name),
      ['zerox1-mesh', 'MCP'],
    );
    assert.equal(pa?.dialed, 'ok');
    assert.equal(d.profile(hex(b))?.fileError, 'not a registration file');
    assert.equal(d.profile(hex(c))?.registered, false);
    assert.equal(d.profile(hex(c))?.reason, 'not_sati_member');
    assert.deepEqual(dialled, [MESH(1)]);
    assert.deepEqual(Object.fromEntries(labels), { [a.toBase58()]: 'alpha', [b.toBase58()]: 'beta' });
    let s = d.stats();
    assert.deepEqual([s.total, s.agents, s.files, s.dials, s.nextMember], ['3', 3, 1, 1, '4']);
    assert.deepEqual(s.failures, { not_json: 1, not_registered: 1 });

    // A fourth registration: the next pass reads only it.
    const e = member(
      4n,
      registrationDataUri({ name: 'delta', services: [{ name: 'zerox1-mesh', endpoint: MESH(4) }] }),
      'delta',
    );
    config(4n);
    await d.pass();
    s = d.stats();
    assert.deepEqual([s.total, s.agents, s.files, s.dials, s.dialFailures], ['4', 4, 2, 1, 1]);
    assert.equal(s.failures.not_json, 2, 'the unreadable file was read again; the complete ones were not');
    // The class only: the system's text would tell any registrant which ports answer inside.
    assert.equal(d.profile(hex(e))?.dialed, 'failed: could not connect');
    assert.deepEqual(dialled, [MESH(1), MESH(4)]);
  } finally {
    await d.stop();
  }
});

test(
  'on a cluster (publicOnly) neither the registration file nor the ' +
    'mesh endpoint may lead inside; pages see failure classes only',
  async () => {
    const sati = { ...SATI_MAINNET, program: Keypair.generate().publicKey };
    const group = Keypair.generate().publicKey;
    const registry = registryConfigAddress(sati.program);
    const write = (a: PublicKey, data: Uint8Array, owner: PublicKey) =>
      w.chain.writeAccount(a.toBase58(), { lamports: 10_000_000n, data, owner: owner.toBase58() });
    const member = (n: bigint, uri: string, name: string) => {
      const mint = Keypair.generate().publicKey;
      write(
        mint,
        satiAgentMintBytes({ mint, group, registry, owner: Keypair.generate().publicKey, memberNumber: n, name, uri }),
        TOKEN_2022_PROGRAM_ID,
      );
      write(agentIndexAddress(n, sati.program), encodeAgentIndex({ mint, bump: 255 }), sati.program);
      return mint;
    };
    const hits: string[] = [];
    const inside = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end(JSON.stringify({ name: 'inside file' }));
    });
    await new Promise<void>((r) => inside.listen(0, '127.0.0.1', r));
    const port = (inside.address() as AddressInfo).port;
    const PEER = '12D3KooWQYhTNQdmr3ArTeUHRYzFg94BKyTkoWBDWez9kSCVe2Xo';
    const mapped = member(1n, `http://[::ffff:127.0.0.1]:${port}/reg.json`, 'mapped');
    const named = member(2n, `http://files.agent.invalid:${port}/reg.json`, 'named');
    const dialLoop = member(
      3n,
      registrationDataUri({ services: [{ name: 'zerox1-mesh', endpoint: `/ip4/127.0.0.1/tcp/1/p2p/${PEER}` }] }),
      'dial-loopback',
    );
    const dialName = member(
      4n,
      registrationDataUri({
        services: [{ name: 'zerox1-mesh', endpoint: `/dns4/mesh.agent.invalid/tcp/4001/p2p/${PEER}` }],
      }),
      'dial-name',
    );
    const dialPublic = member(
      5n,
      registrationDataUri({
        services: [{ name: 'zerox1-mesh', endpoint: `/dns4/public.agent.invalid/tcp/4001/p2p/${PEER}` }],
      }),
      'dial-public',
    );
    write(
      registry,
      encodeRegistryConfig({ groupMint: group, authority: PublicKey.default, totalAgents: 5n, bump: 255 }),
      sati.program,
    );
    const dialled: string[] = [];
    const d = startSatiDiscovery({
      connection: w.connection,
      sati,
      publicOnly: true,
      intervalMs: 3_600_000,
      log: { info() {}, warn() {} },
      resolve: async (h) => (h === 'public.agent.invalid' ? ['93.184.216.34'] : ['127.0.0.1']),
      dial: async (addr) => {
        dialled.push(addr);
        throw Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' });
      },
      setLabel: async () => undefined,
    });
    try {
      await d.pass();
      const hex = (k: PublicKey) => Buffer.from(k.toBytes()).toString('hex');
      assert.equal(d.profile(hex(mapped))?.fileError, 'refused: private address');
      assert.equal(d.profile(hex(named))?.fileError, 'refused: private address');
      assert.equal(hits.length, 0, 'the loopback server was never asked');
      assert.equal(d.profile(hex(dialLoop))?.dialed, 'failed: refused: private address');
      assert.equal(d.profile(hex(dialName))?.dialed, 'failed: refused: private address');
      // A public endpoint is dialled at the address that was checked, not by its name.
      assert.deepEqual(dialled, [`/ip4/93.184.216.34/tcp/4001/p2p/${PEER}`]);
      assert.equal(d.profile(hex(dialPublic))?.dialed, 'failed: timed out');
      assert.deepEqual(d.stats().failures, { private_host: 2 });
    } finally {
      await d.stop();
      await new Promise<void>((r) => inside.close(() => r()));
    }
  },
);
