// The register form's check (register-form.ts): byte lengths as SATI counts them, http(s)/data:
// uris only, and the accepted values encode as register_agent arguments SATI takes.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeRegisterAgentArgs, encodeRegisterAgentArgs } from '../../lib/chain/sati';
import { checkRegisterForm } from './register-form';

const ok = { name: 'weather bot', symbol: 'WTHR', uri: 'https://agents.example/weather.json', nonTransferable: false };

test('a valid form yields register_agent arguments that round-trip through the Borsh encoding', () => {
  const c = checkRegisterForm({ ...ok, name: '  weather bot ', nonTransferable: true });
  assert.ok(c.ok);
  assert.deepEqual(c.args, {
    name: 'weather bot',
    symbol: 'WTHR',
    uri: 'https://agents.example/weather.json',
    nonTransferable: true,
  });
  const back = decodeRegisterAgentArgs(encodeRegisterAgentArgs(c.args));
  assert.equal(back?.name, 'weather bot');
  assert.equal(back?.nonTransferable, true);
});

test('limits count UTF-8 bytes, not characters, and say both', () => {
  assert.ok(checkRegisterForm({ ...ok, name: 'a'.repeat(32) }).ok);
  const c = checkRegisterForm({ ...ok, name: 'é'.repeat(17) }); // 17 characters, 34 bytes
  assert.equal(c.ok, false);
  assert.equal(!c.ok && c.errors.name, 'The name is 34 bytes of UTF-8 (17 characters); SATI allows at most 32 bytes');
  assert.ok(checkRegisterForm({ ...ok, symbol: 'é'.repeat(5) }).ok);
  const s = checkRegisterForm({ ...ok, symbol: 'SYMBOL12345' });
  assert.equal(!s.ok && s.errors.symbol, 'The symbol is 11 bytes of UTF-8; SATI allows at most 10 bytes');
  const long = `https://a.example/${'x'.repeat(183)}`;
  assert.equal(long.length, 201);
  const u = checkRegisterForm({ ...ok, uri: long });
  assert.equal(!u.ok && u.errors.uri, 'The uri is 201 bytes of UTF-8; SATI allows at most 200 bytes');
  assert.ok(checkRegisterForm({ ...ok, uri: long.slice(0, 200) }).ok);
});

test('name is required; symbol and uri may be empty', () => {
  const c = checkRegisterForm({ ...ok, name: '   ' });
  assert.equal(!c.ok && c.errors.name, 'Give the agent a name');
  assert.ok(checkRegisterForm({ name: 'x', symbol: '', uri: '', nonTransferable: false }).ok);
});

test('uri: http(s) and data: only, each error names the problem', () => {
  assert.ok(checkRegisterForm({ ...ok, uri: 'data:application/json,{"name":"x"}' }).ok);
  assert.ok(checkRegisterForm({ ...ok, uri: 'http://127.0.0.1:3000/api/agents/x/registration' }).ok);
  const bad = (uri: string) => {
    const c = checkRegisterForm({ ...ok, uri });
    return c.ok ? null : c.errors.uri;
  };
  assert.equal(bad('ipfs://bafy'), "The uri's scheme ipfs: is not read by observers: use https://, http:// or data:");
  assert.equal(
    bad('javascript:alert(1)'),
    "The uri's scheme javascript: is not read by observers: use https://, http:// or data:",
  );
  assert.equal(bad('agents.example/x.json'), 'The uri is not a URL: use https://…, http://… or data:…');
  assert.equal(bad('https://a.example/x y'), 'The uri must not contain spaces or line breaks');
});

test('several problems are reported together', () => {
  const c = checkRegisterForm({ name: '', symbol: 'TOOLONGSYMBOL', uri: 'ftp://x', nonTransferable: false });
  assert.equal(c.ok, false);
  assert.deepEqual(Object.keys(!c.ok ? c.errors : {}).sort(), ['name', 'symbol', 'uri']);
});
