// The webhook form's words against the API's: the refusal it quotes is the one the URL check
// gives, and the hint names the setting that allows private receivers. Here because it holds a
// component (browser-safe) against the server's URL check, which components may not import.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderToStaticMarkup } from 'react-dom/server';
import { withPrivateHint } from '../components/alerts/api';
import { WebhookIntro } from '../components/alerts/WebhookIntro';
import { checkWebhookUrl } from '../lib/alerts/url-guard';

test(
  'a webhook refused for its address names the setting ' + "that allows private receivers; other refusals don't",
  async () => {
    for (const url of ['http://localhost:9/x', 'http://127.0.0.1/x', 'http://192.168.1.4/x']) {
      const r = await checkWebhookUrl(url, { allowPrivate: false });
      assert.equal(r.ok, false, url);
      if (!r.ok) assert.match(withPrivateHint(r.error), /ALERT_WEBHOOK_ALLOW_PRIVATE=1/, url);
    }
    const other = await checkWebhookUrl('ftp://example.com/', { allowPrivate: false });
    assert.ok(!other.ok && !withPrivateHint(other.error).includes('ALLOW_PRIVATE'));
    // The form quotes the API's own refusal, and the setting.
    const local = await checkWebhookUrl('http://localhost/x', { allowPrivate: false });
    const html = renderToStaticMarkup(<WebhookIntro />);
    assert.ok(!local.ok && html.includes(local.error), html);
    assert.ok(
      !local.ok && withPrivateHint(local.error).startsWith('url: localhost is this machine. This server refuses'),
    );
    assert.match(html, /ALERT_WEBHOOK_ALLOW_PRIVATE=1/);
    assert.match(html, /data-term="privateAddress"/);
  },
);
