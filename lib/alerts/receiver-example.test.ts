// The receiver code docs/app.md gives ("Delivery"), taken from the document as it stands and run
// in a real node:http receiver against the bodies and headers the sender posts: it accepts every
// format, drops a repeat of a delivery id, and refuses a captured request replayed under a fresh
// timestamp or another id, a tampered body and an old timestamp.

import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { post } from './delivery';
import { type AlertMessage, signature, WEBHOOK_FORMATS, webhookBody, webhookHeaders } from './payloads';

type Verify = (raw: Buffer, headers: IncomingHttpHeaders, secret: string) => 'ok' | 'duplicate' | 'refused';

function docsVerify(): Verify {
  const doc = readFileSync(new URL('../../docs/app.md', import.meta.url), 'utf8');
  const start = doc.indexOf('```js', doc.indexOf('For every format:'));
  const code = doc.slice(start + 5, doc.indexOf('```', start + 5)).replace(/^import .*$/m, '');
  assert.match(code, /function verify\(/);
  return new Function('createHmac', 'timingSafeEqual', `${code}\nreturn verify;`)(
    createHmac,
    timingSafeEqual,
  ) as Verify;
}

const MSG: AlertMessage = {
  id: '9',
  kind: 'offline',
  state: 'open',
  agent: 'cd'.repeat(32),
  agentName: 'demo',
  subject: '',
  why: 'no envelope for 12 min',
  at: '2026-11-28T10:00:00.000Z',
  url: 'https://obs.example/alerts?alert=9',
};
const SECRET = 'the receiver secret, 32 characters';

test('the receiver code of docs/app.md accepts Slack, Discord and json deliveries and refuses replays', async () => {
  const verify = docsVerify();
  const verdicts: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const v = verify(Buffer.concat(chunks), req.headers, SECRET);
      verdicts.push(v);
      res.writeHead(v === 'refused' ? 401 : 200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const send = (body: string, headers: Record<string, string>) =>
    post(url, body, headers, { allowPrivate: true, timeoutMs: 2_000 });
  try {
    const now = Math.floor(Date.now() / 1000);
    for (const format of WEBHOOK_FORMATS) {
      const id = `delivery-${format}`;
      const body = webhookBody(format, MSG, id, now);
      const headers = webhookHeaders(body, id, now, SECRET);
      assert.equal(await send(body, headers), 200, `${format} accepted`);
      // The same request captured and sent again: dropped as a repeat.
      assert.equal(await send(body, headers), 200);
      // Replayed under a fresh timestamp, or another id, with the old signature: refused.
      assert.equal(
        await send(body, { ...headers, 'x-zerox1-timestamp': String(now + 60) }),
        401,
        `${format} fresh timestamp`,
      );
      assert.equal(await send(body, { ...headers, 'x-zerox1-delivery': `${id}-again` }), 401, `${format} new id`);
      assert.equal(await send(body.replace('12 min', '13 min'), headers), 401, `${format} tampered`);
      // Correctly signed but old: refused.
      const old = now - 3_600;
      assert.equal(
        await send(body, {
          ...headers,
          'x-zerox1-timestamp': String(old),
          'x-zerox1-signature': signature(SECRET, old, id, body),
        }),
        401,
        `${format} old`,
      );
    }
    assert.deepEqual(
      verdicts,
      WEBHOOK_FORMATS.flatMap(() => ['ok', 'duplicate', 'refused', 'refused', 'refused', 'refused']),
    );
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
});
