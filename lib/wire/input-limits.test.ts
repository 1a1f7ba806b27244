import assert from 'node:assert/strict';
import test from 'node:test';
import { jsonTextProblem, MAX_TIME_MS, textProblem, timeMsParam } from './input-limits';
import { ConversationCursorSchema, ConversationsQuerySchema, EnvelopesQuerySchema, ExportQuerySchema } from './params';
import { ReplayQuerySchema } from './replay';

const YEAR_10000 = '253402300800000';

test('a time parameter is unix ms up to the end of year 9999; year 10000 is out of range', () => {
  assert.equal(timeMsParam().parse(String(MAX_TIME_MS)), MAX_TIME_MS);
  assert.equal(new Date(MAX_TIME_MS).toISOString(), '9999-12-31T23:59:59.999Z');
  for (const schema of [ConversationsQuerySchema, EnvelopesQuerySchema, ReplayQuerySchema]) {
    const r = schema.safeParse({ from: '0', to: YEAR_10000 });
    assert.equal(r.success, false);
    assert.deepEqual(r.error!.issues[0].path, ['to']);
    assert.match(r.error!.issues[0].message, /out of range/);
    assert.equal(schema.safeParse({ from: '0', to: '999999999999999999999' }).success, false);
  }
  assert.equal(ExportQuerySchema.safeParse({ to: YEAR_10000 }).success, false);
  assert.equal(ExportQuerySchema.safeParse({ to: '9999-12-31T23:59:59-05:00' }).success, false);
  assert.equal(ExportQuerySchema.safeParse({ to: '9999-12-31T23:59:59Z' }).success, true);
  assert.equal(ConversationCursorSchema.safeParse(`${YEAR_10000}-${'ab'.repeat(16)}`).success, false);
  assert.equal(ConversationCursorSchema.safeParse(`messages.${YEAR_10000}.${'ab'.repeat(16)}`).success, true);
});

test('text with a NUL or a lone surrogate is refused; paired surrogates are not', () => {
  assert.match(textProblem('a\u0000b') ?? '', /NUL/);
  assert.match(textProblem('\uD800') ?? '', /surrogate/);
  assert.match(textProblem('x\uDC00') ?? '', /surrogate/);
  assert.equal(textProblem('😀 é'), null);
  assert.deepEqual(jsonTextProblem({ a: [1, { b: 'ok', c: 'x\u0000' }] }), {
    path: 'a.1.c',
    problem: textProblem('\u0000'),
  });
  assert.equal(jsonTextProblem({ a: ['fine'] }), null);
});

test('a cursor or epoch is at most 2^63 − 1: the store keeps them as int8', () => {
  assert.equal(EnvelopesQuerySchema.parse({ before: '9223372036854775807' }).before, '9223372036854775807');
  const r = EnvelopesQuerySchema.safeParse({ before: '9223372036854775808' });
  assert.equal(r.success, false);
  assert.deepEqual(r.error!.issues[0].path, ['before']);
  assert.match(r.error!.issues[0].message, /at most 9223372036854775807/);
  // A malformed cursor is refused by name too (the bound is checked without parsing it).
  const bad = EnvelopesQuerySchema.safeParse({ before: '0000-01-01' });
  assert.equal(bad.success, false);
  assert.deepEqual(bad.error!.issues[0].path, ['before']);
});
