// Explorer links name a URL the viewer can open: each cluster by Explorer's own parameter, any
// other chain by its public RPC URL, and a loopback or private URL only for a viewer on that machine.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type ExplorerChain,
  explorerAddress,
  explorerBlock,
  explorerChainOf,
  explorerQuery,
  explorerTx,
  isLoopbackHost,
  isPrivateHost,
} from './explorer';

const remote = { viewerHost: 'observatory.example.org' };
const local = { viewerHost: '127.0.0.1' };

test('each cluster Explorer knows has its parameter, whatever the RPC URL or the viewer', () => {
  const rpcUrl = 'http://127.0.0.1:8899';
  assert.equal(
    explorerTx('5sig', { cluster: 'mainnet-beta', rpcUrl, ...remote }),
    'https://explorer.solana.com/tx/5sig',
  );
  assert.equal(
    explorerTx('5sig', { cluster: 'devnet', rpcUrl, ...remote }),
    'https://explorer.solana.com/tx/5sig?cluster=devnet',
  );
  assert.equal(
    explorerAddress('Abc', { cluster: 'testnet', rpcUrl: null, ...remote }),
    'https://explorer.solana.com/address/Abc?cluster=testnet',
  );
  assert.equal(
    explorerBlock(42n, { cluster: 'devnet', rpcUrl: null }),
    'https://explorer.solana.com/block/42?cluster=devnet',
  );
});

test('another chain is linked by its public RPC URL, to any viewer', () => {
  const chain: ExplorerChain = { cluster: 'embedded', rpcUrl: 'https://rpc.example.org/api/chain/rpc', ...remote };
  assert.equal(
    explorerTx('5sig', chain),
    `https://explorer.solana.com/tx/5sig?cluster=custom&customUrl=${encodeURIComponent(
      'https://rpc.example.org/api/chain/rpc',
    )}`,
  );
  assert.equal(
    explorerQuery({ cluster: 'custom', rpcUrl: 'https://validator.example.net:8899', ...remote }),
    '?cluster=custom&customUrl=https%3A%2F%2Fvalidator.example.net%3A8899',
  );
  assert.equal(explorerQuery({ cluster: 'custom', rpcUrl: null, ...local }), null, 'no URL: no link');
  assert.equal(
    explorerQuery({ cluster: 'custom', rpcUrl: 'ftp://x.example.org', ...local }),
    null,
    'not http(s): no link',
  );
});

test('a loopback or private RPC URL is hidden from a viewer elsewhere and shown to one on the machine', () => {
  for (const rpcUrl of [
    'http://127.0.0.1:8899',
    'http://127.8.9.10:8899',
    'http://localhost:8899',
    'http://[::1]:8899',
    'http://10.1.2.3:8899',
    'http://172.16.0.1:8899',
    'http://172.31.255.255',
    'http://192.168.1.20:8899',
    'http://[fd12:3456::1]:8899',
    'http://[fc00::5]',
    'http://[::ffff:127.0.0.1]:8899',
    'http://2130706433:8899',
  ]) {
    assert.equal(explorerTx('5sig', { cluster: 'embedded', rpcUrl, ...remote }), null, `${rpcUrl} to a remote viewer`);
    assert.equal(
      explorerTx('5sig', { cluster: 'localnet', rpcUrl, viewerHost: null }),
      null,
      `${rpcUrl} to an unknown viewer`,
    );
    for (const viewerHost of ['127.0.0.1', 'localhost', '[::1]', '::1', 'app.localhost']) {
      assert.equal(
        explorerTx('5sig', { cluster: 'embedded', rpcUrl, viewerHost }),
        `https://explorer.solana.com/tx/5sig?cluster=custom&customUrl=${encodeURIComponent(rpcUrl)}`,
        `${rpcUrl} to ${viewerHost}`,
      );
    }
  }
  // A viewer on the private network is not on the machine: the rule is loopback only.
  assert.equal(
    explorerTx('5sig', { cluster: 'embedded', rpcUrl: 'http://192.168.1.20:8899', viewerHost: '192.168.1.20' }),
    null,
  );
  // Public neighbours of the private ranges are linked.
  for (const rpcUrl of [
    'http://172.32.0.1',
    'http://172.15.0.1',
    'http://11.0.0.1',
    'http://192.169.0.1',
    'http://[fe80::1]',
    'http://[2001:db8::1]',
    'http://localhost.example.org',
  ]) {
    assert.notEqual(explorerTx('5sig', { cluster: 'custom', rpcUrl, ...remote }), null, rpcUrl);
  }
});

test('PUBLIC_RPC_URL set: the link names it and so shows to everyone', () => {
  const chainRpcUrl = 'http://127.0.0.1:8899';
  const publicRpcUrl = 'https://chain.example.org/rpc';
  assert.equal(explorerTx('5sig', { ...explorerChainOf({ cluster: 'embedded', chainRpcUrl }), ...remote }), null);
  assert.equal(
    explorerTx('5sig', { ...explorerChainOf({ cluster: 'embedded', chainRpcUrl, publicRpcUrl }), ...remote }),
    `https://explorer.solana.com/tx/5sig?cluster=custom&customUrl=${encodeURIComponent(publicRpcUrl)}`,
  );
  assert.equal(
    explorerTx('5sig', { ...explorerChainOf({ cluster: 'embedded', chainRpcUrl, publicRpcUrl }), ...local }),
    `https://explorer.solana.com/tx/5sig?cluster=custom&customUrl=${encodeURIComponent(publicRpcUrl)}`,
    'the local viewer gets the public URL too',
  );
});

test('the host classifiers', () => {
  assert.ok(isLoopbackHost('LOCALHOST.') && isLoopbackHost('[::1]') && isLoopbackHost('127.255.0.1'));
  assert.ok(!isLoopbackHost('10.0.0.1') && !isLoopbackHost('example.org') && !isLoopbackHost('128.0.0.1'));
  assert.ok(
    isPrivateHost('10.0.0.1') && isPrivateHost('fdff::1') && !isPrivateHost('fe00::1') && !isPrivateHost('8.8.8.8'),
  );
});
