// Discovery from On the embedded chain: our stand-in registry: SATI's accounts written as bytes (RegistryConfig,
// AgentIndex 1…n, member mints with their metadata uri); each registered agent's registration
// file is read (data: URIs here), the agent named by its SATI name and its zerox1-mesh endpoint
// dialled; a mint that is not a member and a file that is not JSON are counted by reason; a
// later registration is picked up by the next pass, which reads again only the incomplete file.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Keypair, PublicKey } from '@solana/web3.js';
import { TOKEN_2022_PROGRAM_ID } from '@solana/spl-token';
import { SATI_MAINNET, agentIndexAddress, encodeAgentIndex, encodeRegistryConfig, registryConfigAddress } from '../lib/chain/sati';
import { satiAgentMintBytes } from '../lib/chain/testing';
import { registrationDataUri } from '../lib/chain/registration-file';
import { startChainWorld, type ChainWorld } from '../lib/chain/node/testing';
import { startSatiDiscovery } from './discovery';

let w: ChainWorld;
before(async () => { w = await startChainWorld(); });
after(async () => { await w?.close(); });

const MESH = (n: number) => `/ip4/127.0.0.1/tcp/${4000 + n}/p2p/12D3KooWQYhTNQdmr3ArTeUHRYzFg94BKyTkoWBDWez9kSCVe2Xo`;

test('enumerates AgentIndex, reads registration files, names and dials; failures counted', async () => {
  const sati = { ...SATI_MAINNET, program: Keypair.generate().publicKey };
  const group = Keypair.generate().publicKey;
  const registry = registryConfigAddress(sati.program);
  const write = (a: PublicKey, data: Uint8Array, owner: PublicKey) => w.chain.writeAccount(a.toBase58(), { lamports: 10_000_000n, data, owner: owner.toBase58() });
  const config = (total: bigint) => write(registry, encodeRegistryConfig({ groupMint: group, authority: PublicKey.default, totalAgents: total, bump: 255 }), sati.program);
  const member = (n: bigint, uri: string, name: string, inGroup = group) => {
    const mint = Keypair.generate().publicKey;
    write(mint, satiAgentMintBytes({ mint, group: inGroup, registry, owner: Keypair.generate().publicKey, memberNumber: n, name, uri }), TOKEN_2022_PROGRAM_ID);
    write(agentIndexAddress(n, sati.program), encodeAgentIndex({ mint, bump: 255 }), sati.program);
    return mint;
  };
  const a = member(1n, registrationDataUri({ name: 'Alpha file', description: 'forecasts', services: [{ name: 'zerox1-mesh', endpoint: MESH(1) }, { name: 'MCP', endpoint: 'https://alpha.example/mcp' }] }), 'alpha');
  const b = member(2n, 'data:application/json,not json', 'beta');
  const c = member(3n, registrationDataUri({}), 'gamma', Keypair.generate().publicKey);
  config(3n);

  const dialled: string[] = [];
  const labels = new Map<string, string>();
  const d = startSatiDiscovery({
    connection: w.connection, sati, publicOnly: true, intervalMs: 3_600_000, log: { info() {}, warn() {} },
    dial: async (addr) => { dialled.push(addr); if (addr === MESH(4)) throw new Error('refused'); },
    setLabel: async (id, l) => { labels.set(new PublicKey(id).toBase58(), l); },
  });
  try {
    await d.pass();
    const hex = (k: PublicKey) => Buffer.from(k.toBytes()).toString('hex');
    const pa = d.profile(hex(a));
    assert.equal(pa?.name, 'alpha');
    assert.equal(pa?.description, 'forecasts');
    assert.equal(pa?.meshEndpoint, MESH(1));
    assert.deepEqual(pa?.services.map((s) => s.name), ['zerox1-mesh', 'MCP']);
    assert.equal(pa?.dialed, 'ok');
    assert.equal(d.profile(hex(b))?.fileError?.startsWith('not_json'), true);
    assert.equal(d.profile(hex(c))?.registered, false);
    assert.equal(d.profile(hex(c))?.reason, 'not_sati_member');
    assert.deepEqual(dialled, [MESH(1)]);
    assert.deepEqual(Object.fromEntries(labels), { [a.toBase58()]: 'alpha', [b.toBase58()]: 'beta' });
    let s = d.stats();
    assert.deepEqual([s.total, s.agents, s.files, s.dials, s.nextMember], ['3', 3, 1, 1, '4']);
    assert.deepEqual(s.failures, { not_json: 1, not_registered: 1 });

    // A fourth registration: the next pass reads only it.
    const e = member(4n, registrationDataUri({ name: 'delta', services: [{ name: 'zerox1-mesh', endpoint: MESH(4) }] }), 'delta');
    config(4n);
    await d.pass();
    s = d.stats();
    assert.deepEqual([s.total, s.agents, s.files, s.dials, s.dialFailures], ['4', 4, 2, 1, 1]);
    assert.equal(s.failures.not_json, 2, 'the unreadable file was read again; the complete ones were not');
    assert.match(d.profile(hex(e))?.dialed ?? '', /^failed: refused/);
    assert.deepEqual(dialled, [MESH(1), MESH(4)]);
  } finally {
    await d.stop();
  }
});
