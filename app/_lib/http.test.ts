// The shared query parsing refuses what no route can take, whatever the route's schema says, for
// callers that reach a route without the server's request-target gate.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { z } from 'zod';
import { MeshHealthQuerySchema } from '../../lib/wire/mesh-health';
import { ConversationsQuerySchema } from '../../lib/wire/params';
import { HttpError, parseQuery } from './http';

const refused = (url: string, schema: z.ZodObject, re: RegExp) =>
  assert.throws(
    () => parseQuery(url, schema),
    (e: unknown) => e instanceof HttpError && e.status === 400 && re.test(e.message),
    url,
  );

test('NUL in a value or a name, and times past year 9999, are 400s naming the parameter', () => {
  refused('http://x/api/mesh/health?topic=%00', MeshHealthQuerySchema, /query parameter "topic": holds a NUL/);
  refused('http://x/api/mesh/health?observer=ab%00', MeshHealthQuerySchema, /"observer": holds a NUL/);
  refused('http://x/api/mesh/health?to%00=1', MeshHealthQuerySchema, /query parameter name holds a NUL/);
  refused(
    'http://x/api/conversations?from=0&to=253402300800000',
    ConversationsQuerySchema,
    /query parameter "to": out of range/,
  );
  refused('http://x/api/mesh/health?topic=%ED%A0%80', MeshHealthQuerySchema, /malformed percent-encoding in "topic"/);
  assert.equal(
    parseQuery('http://x/api/mesh/health?topic=%2F0x01%2Fv1%2Fbroadcast', MeshHealthQuerySchema).topic,
    '/0x01/v1/broadcast',
  );
  assert.equal(
    parseQuery('http://x/api/conversations?to=253402300799999', ConversationsQuerySchema).to,
    253402300799999,
  );
});
