// Every layer's own errors extend the one base (lib/protocol/errors.ts BaseError) and keep their
// names, messages and instanceof: callers match them by class or, across module copies, by name.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HttpError } from '../app/_lib/http';
import { FaucetRefused } from '../app/_lib/wallet-services';
import { AlertsError } from '../lib/alerts/service';
import { ChainError, ChainTransactionError } from '../lib/chain/errors';
import { EmbeddedChainError, RpcError } from '../lib/devchain/errors';
import { ParamError } from '../lib/export/params';
import { ExportFailedError } from '../lib/export/prime';
import { ToolInputError } from '../lib/mcp/errors';
import { MeshError, MeshStoppedError } from '../lib/mesh/errors';
import { FrameError } from '../lib/mesh/frames';
import { OutboundError } from '../lib/net/outbound';
import { NotRunningError, ObserverError } from '../lib/observer/errors';
import { BaseError, DecodeError, ProtocolError } from '../lib/protocol/errors';
import { StoreClosedError, StoreError } from '../lib/store/engine';
import { WireError } from '../lib/wire/codec';
import { LinkError } from '../programs/tools/link/link';
import { ConfigError } from '../server/config';

test('each error is its class, its layer base, BaseError and Error, under its own name and message', () => {
  const cases: Array<[Error, string, string, Array<abstract new (...a: never[]) => Error>]> = [
    [new DecodeError('bad cbor'), 'DecodeError', 'bad cbor', [DecodeError, ProtocolError]],
    [new MeshStoppedError('stopped'), 'MeshStoppedError', 'stopped', [MeshStoppedError, MeshError]],
    [new FrameError('UnexpectedEOFError', 'eof'), 'UnexpectedEOFError', 'eof', [FrameError]],
    [new RpcError(-32602, 'bad params'), 'RpcError', 'bad params', [RpcError, EmbeddedChainError]],
    [
      new ChainTransactionError('refused', ['log'], 6001),
      'ChainTransactionError',
      'refused',
      [ChainTransactionError, ChainError],
    ],
    [new StoreClosedError(), 'StoreClosedError', 'store is closed', [StoreClosedError, StoreError]],
    [new NotRunningError('not started'), 'NotRunningError', 'not started', [NotRunningError, ObserverError]],
    [new ToolInputError('agent: not an id'), 'ToolInputError', 'agent: not an id', [ToolInputError]],
    [new WireError('hex: odd'), 'WireError', 'hex: odd', [WireError]],
    [new AlertsError(409, 'over the cap'), 'AlertsError', 'over the cap', [AlertsError]],
    [new OutboundError('timeout'), 'OutboundError', new OutboundError('timeout').message, [OutboundError]],
    [new ParamError('limit', 'too big'), 'ParamError', 'parameter "limit": too big', [ParamError]],
    [new ExportFailedError('broken'), 'ExportFailedError', 'broken', [ExportFailedError]],
    [new HttpError(400, 'field "x": bad'), 'HttpError', 'field "x": bad', [HttpError]],
    [new FaucetRefused('off'), 'FaucetRefused', 'off', [FaucetRefused]],
    [new ConfigError('PORT', 'not a port'), 'ConfigError', 'PORT: not a port', [ConfigError]],
    [new LinkError('input is not ELF'), 'LinkError', 'input is not ELF', [LinkError]],
  ];
  for (const [e, name, message, classes] of cases) {
    for (const C of [...classes, BaseError, Error]) assert.ok(e instanceof C, `${name} instanceof ${C.name}`);
    assert.equal(e.name, name);
    assert.equal(e.message, message);
    assert.equal(String(e), `${name}: ${message}`);
    assert.ok(!('cause' in e), `${name}: no cause unless one is given`);
  }
  assert.ok(!(new WireError('x') instanceof ChainError), 'layers stay apart');
});

test('the base carries cause and details as Error carries cause', () => {
  const root = new Error('ECONNREFUSED');
  const e = new StoreError('the database is unreachable', { cause: root, details: { host: 'db', attempts: 3 } });
  assert.equal(e.cause, root);
  assert.deepEqual(e.details, { host: 'db', attempts: 3 });
  assert.deepEqual(Object.keys(e), ['name'], 'details and cause are not enumerable, as message is not');
  assert.equal(
    new ChainTransactionError('x', [], null, { cause: root }).cause,
    root,
    'a subclass passing ErrorOptions still sets cause',
  );
  assert.equal(new ProtocolError('x').details, undefined);
});
