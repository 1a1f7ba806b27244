// Every route reads its JSON body through jsonBody: each refusal is a 4xx whose sentence names the
// field, in one format whichever route it is.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { jsonBody } from './body';
import { HttpError } from './http';

const Schema = z.strictObject({
  name: z.string().min(1),
  tags: z.array(z.string()).optional(),
  inner: z.strictObject({ n: z.number() }).optional(),
});
const post = (body: string) => new Request('http://x/api/thing', { method: 'POST', body });

async function refused(body: string, status: number, re: RegExp, opts: { cap?: number; example?: string } = {}) {
  await assert.rejects(
    jsonBody(post(body), Schema, opts),
    (e: unknown) => e instanceof HttpError && e.status === status && re.test(e.message),
    body.slice(0, 40),
  );
}

test('a body that is not JSON, or over the cap, is refused before its schema is asked', async () => {
  await refused('{"name":', 400, /^body must be JSON in UTF-8 \(what came is not JSON\)$/);
  await refused('{"name":', 400, /^body must be JSON in UTF-8: \{"name": "…"\} /, { example: '{"name": "…"}' });
  await refused(JSON.stringify({ name: 'x'.repeat(100) }), 413, /larger than 64 bytes/, { cap: 64 });
  // Bytes that are not UTF-8 are not JSON text, even where a lenient decoder would mend them.
  await assert.rejects(
    jsonBody(new Request('http://x', { method: 'POST', body: new Uint8Array([0x7b, 0xff, 0x7d]) }), Schema),
    /body must be JSON/,
  );
});

test('a NUL or a lone surrogate, spelled with a JSON escape, is refused naming its field', async () => {
  await refused('{"name":"a\\u0000b"}', 400, /^field "name": holds a NUL/);
  await refused('{"name":"a","tags":["ok","\\ud800"]}', 400, /^field "tags\.1": holds a lone UTF-16 surrogate/);
  await refused('"\\u0000"', 400, /^body: holds a NUL/);
});

test("the schema's refusal names the field; an unknown field lists the allowed ones", async () => {
  await refused('{"name":""}', 400, /^field "name": /);
  await refused('{"name":"a","inner":{"n":"1"}}', 400, /^field "inner\.n": /);
  await refused('{"name":"a","extra":1}', 400, /^field "extra": unknown field \(allowed: name, tags, inner\)$/);
  await refused('{"name":"a","inner":{"n":1,"m":2}}', 400, /^field "inner\.m": unknown field$/);
  await refused('[]', 400, /^body: /);
  await refused('', 400, /^body: /);
  assert.deepEqual(await jsonBody(post('{"name":"a","tags":["b"]}'), Schema), { name: 'a', tags: ['b'] });
});
