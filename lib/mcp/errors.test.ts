/**
 * A tool whose read fails answers a fixed sentence: the database's own text (here PGlite's
 * refusal of a year-10000 time, what `list_negotiations` once passed through) stays in the log.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer, type McpReads } from './server';

test('a failing read is a tool error with a generic sentence, never the database text', async () => {
  const db = new PGlite();
  const failing = async () => {
    await db.query(`SELECT '+010000-01-01T00:00:00.000Z'::timestamptz`);
    return null as never;
  };
  const reads = { negotiations: failing, search: failing, agent: failing } as unknown as McpReads;
  const server = createMcpServer(reads);
  const client = new Client({ name: 'errors-test', version: '1' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const logged: unknown[] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => void logged.push(args);
  try {
    await Promise.all([server.connect(a), client.connect(b)]);
    for (const [name, args] of [
      ['list_negotiations', {}],
      ['search', { query: 'abc' }],
      ['get_agent', { agent: 'abc' }],
    ] as const) {
      const r = (await client.callTool({ name, arguments: args })) as {
        isError?: boolean;
        content: Array<{ text: string }>;
      };
      assert.equal(r.isError, true, name);
      assert.match(r.content[0].text, /could not answer this call/);
      assert.doesNotMatch(r.content[0].text, /displacement|timestamptz|out of range/, name);
    }
    // The real error is logged for the operator.
    assert.match(String((logged[0] as unknown[])[1]), /time zone displacement out of range/);
  } finally {
    console.error = error;
    await client.close();
    await server.close();
    await db.close();
  }
});
