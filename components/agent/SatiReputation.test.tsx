// SATI's reputation line on the agent page: without PHOTON_URL it says how to configure it, with
// one it says it is not supported yet (no number is made up); the definition is in the tooltip,
// and only the indexer's host is shown (its URL may carry an API key).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderToStaticMarkup } from 'react-dom/server';
import { satiReputationOf } from '../../lib/wire';
import { SatiReputation } from './SatiReputation';

const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&#x27;/g, "'");

test('PHOTON_URL unset: "not configured", with SATI\'s definition in the tooltip', () => {
  const html = renderToStaticMarkup(<SatiReputation r={satiReputationOf(undefined)} />);
  assert.equal(text(html), 'SATI reputation: not configured (set PHOTON_URL to a Photon indexer)');
  assert.match(html, /title="SATI reputation: unweighted average of public feedback scores/);
  assert.match(html, /data-state="not_configured"/);
});

test('PHOTON_URL set: configured but not supported yet, naming the host and never the key', () => {
  const r = satiReputationOf('https://mainnet.helius-rpc.com/?api-key=secret123');
  assert.deepEqual(r, { state: 'unsupported', photonHost: 'mainnet.helius-rpc.com' });
  const html = renderToStaticMarkup(<SatiReputation r={r} />);
  assert.match(text(html), /^SATI reputation: configured \(Photon at mainnet\.helius-rpc\.com\) but not supported yet/);
  assert.doesNotMatch(html, /secret123/);
});
