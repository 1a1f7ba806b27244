// A receipt's price is shown in the deal's token when the page knows it (a deal settled on chain is in USDC), never as
// bare units then.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { USDC_TOKEN } from '../format';
import { priceText } from './ReceiptVerifier';

test('receipt price: USDC when the deal settled in USDC, units with the reason otherwise', () => {
  assert.equal(priceText(757_000_000n, USDC_TOKEN), 'price 757 USDC');
  assert.match(priceText(757n, null), /^price 757 units \(the offers name no token/);
});
