// The conversation page's settlement table (components/OnChainNegotiation) from the view the
// server builds (app/_lib/haggle.ts). Here because it holds a component against app/_lib:
// components/ may not import app/, and app/_lib imports no component.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { onChainNegotiationView } from '../app/_lib/haggle';
import { haggleRow } from '../app/_lib/haggle-testing';
import { OnChainNegotiation } from '../components/OnChainNegotiation';
import type { PriceStepView } from '../lib/wire';

test(
  'the settlement table shows NEG1 rounds: an opening ' + 'PROPOSE in round 0 is round 0, whatever the chain counts',
  () => {
    const at = (type: string, bidValue: string, round: number): PriceStepView => ({
      envelopeId: String(round).padStart(64, '0'),
      type,
      sender: 'aa'.repeat(32),
      round,
      bidValue,
      kind: 'neg1',
      timestampMs: round,
    });
    const v = onChainNegotiationView(haggleRow(), [
      at('PROPOSE', '400', 0),
      at('COUNTER', '900', 1),
      at('COUNTER', '600', 2),
      at('ACCEPT', '600', 3),
    ]);
    const html = renderToStaticMarkup(createElement(OnChainNegotiation, { negotiations: [v] }));
    assert.deepEqual(
      [...html.matchAll(/data-round="(\d+)"/g)].map((m) => Number(m[1])),
      [0, 1, 2],
    );
    assert.deepEqual(
      [...html.matchAll(/title="the chain&#x27;s round \d+"[^>]*><div class="dt-v">(\d+)</g)].map((m) => Number(m[1])),
      [0, 1, 2],
    );
  },
);
