/**
 * The generated OpenAPI document is valid OpenAPI 3.1 (a maintained validator checks it against
 * the specification's own JSON Schema) and says what the routes accept: the query parameters of
 * the lib/wire request schemas, with their requiredness.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { openApiDocument } from './openapi';
import { API_ROUTES } from './routes';

type Op = {
  operationId: string;
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
  responses: Record<string, unknown>;
};

test('the document is valid OpenAPI 3.1', async () => {
  const doc = openApiDocument();
  assert.equal(doc.openapi, '3.1.0');
  const v = new Validator();
  const res = await v.validate(structuredClone(doc) as unknown as Parameters<Validator['validate']>[0]);
  assert.ok(res.valid, JSON.stringify(res.errors, null, 2));
  assert.equal(v.version, '3.1');
});

test('the validator does refuse a broken document (the check above can fail)', async () => {
  const broken = structuredClone(openApiDocument()) as unknown as {
    paths: Record<string, Record<string, { responses?: unknown }>>;
  };
  delete broken.paths['/api/search'].get.responses;
  broken.paths['/api/search'].get.responses = 'none';
  const res = await new Validator().validate(broken as unknown as Parameters<Validator['validate']>[0]);
  assert.equal(res.valid, false);
});

test('every route of the table is documented with its parameters; operation ids are unique', () => {
  const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, Op>> };
  const ids = new Set<string>();
  for (const r of API_ROUTES) {
    const op = doc.paths[r.path]?.[r.method];
    assert.ok(op, `${r.method} ${r.path}`);
    assert.ok(!ids.has(op.operationId), op.operationId);
    ids.add(op.operationId);
    const documented = (op.parameters ?? [])
      .filter((p) => p.in === 'query')
      .map((p) => p.name)
      .sort();
    assert.deepEqual(documented, Object.keys(r.query?.shape ?? {}).sort(), `${r.method} ${r.path} query parameters`);
    for (const name of Object.keys(r.params?.shape ?? {})) {
      assert.ok(
        op.parameters?.some((p) => p.in === 'path' && p.name === name && p.required),
        `${r.path} path parameter ${name}`,
      );
    }
    assert.ok(op.responses['429'], `${r.path} documents 429`);
  }
  const search = doc.paths['/api/search'].get.parameters!;
  assert.equal(search.find((p) => p.name === 'q')?.required, true);
  assert.notEqual(search.find((p) => p.name === 'limit')?.required, true, 'limit has a default');
});
