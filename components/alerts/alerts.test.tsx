// The page half of watching: the watch toggle names what it watches; an alert shows why it fired
// and what cleared it, its kind explained by the glossary; every rule kind has a tooltip and the
// thresholds reach the server in its units; the client never puts the list's token in a URL and
// passes the server's refusal through as a sentence; notifications announce only new unread
// alerts, a few at a time; the wallet texts are the ones the server checks.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import bs58 from 'bs58';
import { renderToStaticMarkup } from 'react-dom/server';
import { GLOSSARY } from '../glossary';
import { SiteProvider } from '../site';
import { AlertItem, mergeRules, NoAlerts, RulesTable, WatchIntro, WebhookList } from './AlertParts';
import { type AlertView, alertsApi, errorSentence, parseWatchlist, TOKEN_HEADER } from './api';
import { filtersOf, filtersQuery } from './filters';
import { ALERT_KINDS, checkParam, kindDef, ruleFields } from './kinds';
import { MAX_SINGLE, planNotifications } from './notify';
import { agentHexOf, itemKey, parseLocal, withItem } from './store';
import { WatchButton } from './WatchButton';
import { adoptMessage, encodeSignature, linkMessage } from './wallet-message';

const A = '11'.repeat(32);
const A58 = bs58.encode(Buffer.from(A, 'hex'));
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"');

const alert = (over: Partial<AlertView> = {}): AlertView => ({
  id: '7',
  kind: 'offline',
  agent: A,
  agentName: 'Amber Falcon',
  subject: '',
  state: 'open',
  read: false,
  why: 'no envelope from Amber Falcon for 12.0 min',
  openedAt: 1_800_000_000_000,
  clearedAt: null,
  clearedWhy: null,
  ...over,
});

test('the watch button says what it watches, in its accessible name and its pressed state', () => {
  const html = renderToStaticMarkup(<WatchButton kind="agent" target={A58} name="Amber Falcon" />);
  assert.match(html, /aria-label="Watch agent Amber Falcon"/);
  assert.match(html, /aria-pressed="false"/);
  assert.equal(text(html), 'Watch');
  // A conversation without a name is named by its id.
  const conv = renderToStaticMarkup(<WatchButton kind="conversation" target={'ab'.repeat(16)} compact />);
  assert.match(conv, new RegExp(`aria-label="Watch conversation ${'ab'.repeat(16)}"`));
});

test('an alert shows why it fired, what cleared it, its kind explained, the agent by name with its link', () => {
  const html = renderToStaticMarkup(
    <ul>
      <AlertItem
        a={alert({
          state: 'cleared',
          read: true,
          clearedAt: 1_800_000_600_000,
          clearedWhy: 'Amber Falcon sent an envelope at 10:10',
        })}
      />
    </ul>,
  );
  const t = text(html);
  assert.match(t, /Why it fired\s*no envelope from Amber Falcon for 12\.0 min/);
  assert.match(t, /What cleared it\s*Amber Falcon sent an envelope at 10:10/);
  assert.match(html, /data-term="alertOffline"/);
  assert.match(html, /title="Offline \(alert\): A watched agent has sent nothing/);
  assert.match(html, new RegExp(`href="/agents/${A58}"`));
  assert.match(t, /Amber Falcon/);
  // Both times through the project's time component (UTC on the server, the viewer's zone after hydration).
  assert.equal(html.match(/<time /g)?.length, 2);
  // An open alert says so and offers "mark read" only when asked to.
  const open = renderToStaticMarkup(
    <ul>
      <AlertItem a={alert()} onRead={() => {}} />
    </ul>,
  );
  assert.match(text(open), /still open/);
  assert.match(open, /aria-label="Mark the Offline alert read"/);
  assert.doesNotMatch(open, /What cleared it/);
});

test('an alert about a conversation links it; a throttled one says webhooks were skipped', () => {
  const html = renderToStaticMarkup(
    <ul>
      <AlertItem a={alert({ kind: 'dispute', subject: 'cd'.repeat(16), throttled: true })} />
    </ul>,
  );
  assert.match(html, new RegExp(`href="/conversations/${'cd'.repeat(16)}"`));
  assert.match(text(html), /not sent: this rule had already raised its most alerts for the hour/);
});

test('every alert kind has a glossary sentence, and the rules table shows each with its tooltip', () => {
  for (const k of ALERT_KINDS) {
    const g = GLOSSARY[k.term];
    assert.ok(g && g.group === 'alerts' && g.text.length > 60, `${k.kind}: a tooltip sentence`);
  }
  const html = renderToStaticMarkup(<RulesTable rules={mergeRules([])} />);
  for (const k of ALERT_KINDS)
    assert.ok(html.includes(`data-rule="${k.kind}"`) && html.includes(`data-term="${k.term}"`), k.kind);
  // Thresholds are labelled inputs: what, and in which unit.
  assert.match(html, /aria-label="Offline: silent for \(min\)"/);
  assert.match(html, /aria-label="Reputation drop: falls by more than \(points\)"/);
  assert.match(html, /aria-label="Offline alerts on"/);
});

test(
  'thresholds reach the server in the unit shown: whole numbers, ' +
    'reliability in score points (6 decimals), an empty optional left out',
  () => {
    const drop = kindDef('reputation_drop')!.params[0];
    assert.deepEqual(checkParam(drop, '0.25'), { value: 0.25 });
    assert.match((checkParam(drop, '1.0000001') as { error: string }).error, /decimals/);
    assert.deepEqual(
      ruleFields('reputation_drop', { drop: 5, windowMinutes: 60 }).map((f) => f.value),
      [5, 60],
    );
    const minutes = kindDef('offline')!.params[0];
    assert.deepEqual(checkParam(minutes, '15'), { value: 15 });
    assert.match((checkParam(minutes, '1.5') as { error: string }).error, /whole number/);
    assert.match((checkParam(minutes, '0') as { error: string }).error, /at least 1 min/);
    assert.match((checkParam(minutes, '') as { error: string }).error, /Give a number/);
    const grace = kindDef('batch_missing')!.params[0];
    assert.deepEqual(checkParam(grace, ''), { value: undefined });
    // A parameter this page does not know is still shown, by its name.
    assert.deepEqual(
      ruleFields('offline', { minutes: 5, quietHours: 2 }).map((f) => [f.def.label, f.value]),
      [
        ['silent for', 5],
        ['quiet hours', 2],
      ],
    );
  },
);

test("webhooks: status, the failing one's last error, a named delete button", () => {
  const html = renderToStaticMarkup(
    <WebhookList
      onDelete={() => {}}
      hooks={[
        {
          id: 'h1',
          url: 'https://hooks.slack.com/services/T/B/X',
          format: 'slack',
          status: 'ok',
          lastError: null,
          lastAt: 1_800_000_000_000,
        },
        {
          id: 'h2',
          url: 'https://example.org/hook',
          format: 'json',
          status: 'failing',
          lastError: 'HTTP 500 from example.org',
          lastAt: null,
        },
      ]}
    />,
  );
  assert.match(text(html), /ok\s*Slack/);
  assert.match(text(html), /failing\s*JSON \(HMAC signed\)/);
  assert.match(text(html), /HTTP 500 from example\.org/);
  assert.match(html, /aria-label="Delete the webhook to https:\/\/example\.org\/hook"/);
});

test('the empty states explain how to start watching', () => {
  const intro = text(renderToStaticMarkup(<WatchIntro />));
  assert.match(intro, /press Watch on a row, or on an agent's page/);
  assert.match(renderToStaticMarkup(<WatchIntro />), /data-term="watchlist"/);
  assert.match(text(renderToStaticMarkup(<NoAlerts filtered={false} watching={0} />)), /You watch nothing yet/);
  assert.match(text(renderToStaticMarkup(<NoAlerts filtered watching={3} />)), /No alert matches these filters/);
});

test("the client sends the token as a header, never in a URL, and passes the server's sentence through", async () => {
  const calls: { url: string; init: RequestInit }[] = [];
  let answer: () => Response = () => new Response('{}', { status: 200 });
  const api = alertsApi(async (url, init) => {
    calls.push({ url: String(url), init: init ?? {} });
    return answer();
  });
  const creds = { id: 'AAAAAAAAAAAAAAAAAAAAAA', token: 'secret-token-xyz' };
  await api.watch(creds, { kind: 'agent', target: A58 });
  await api.unwatch(creds, { kind: 'agent', target: A58 });
  await api.alerts(creds, { state: 'open', kind: 'offline', agent: A58, limit: 50 });
  await api.unread(creds);
  await api.markRead(creds, ['1', '2']);
  for (const c of calls) {
    assert.doesNotMatch(c.url, /secret-token-xyz/);
    assert.equal((c.init.headers as Record<string, string>)[TOKEN_HEADER], 'secret-token-xyz');
  }
  assert.equal(calls[0].init.method, 'PUT');
  assert.deepEqual(JSON.parse(String(calls[0].init.body)), { kind: 'agent', target: A58 });
  assert.equal(calls[1].url, `/api/watchlists/${creds.id}/items?kind=agent&target=${A58}`);
  assert.equal(calls[2].url, `/api/alerts?watchlist=${creds.id}&state=open&kind=offline&agent=${A58}&limit=50`);
  assert.deepEqual(JSON.parse(String(calls[4].init.body)), { watchlist: creds.id, ids: ['1', '2'] });

  answer = () => new Response(JSON.stringify({ error: 'url: 10.0.0.5 is a private address' }), { status: 400 });
  const r = await api.addWebhook(creds, { url: 'http://10.0.0.5/x', format: 'json', secret: 'x'.repeat(16) });
  assert.deepEqual(r, { ok: false, status: 400, error: 'url: 10.0.0.5 is a private address' });
  answer = () => new Response('<html>Bad gateway</html>', { status: 502 });
  assert.equal(
    ((await api.unread(creds)) as { error: string }).error,
    'The server could not count unread alerts (HTTP 502).',
  );
  const down = alertsApi(async () => {
    throw new TypeError('fetch failed');
  });
  assert.match(((await down.create()) as { error: string }).error, /did not answer/);
  assert.match(errorSentence(403, null, 'read your alerts'), /watchlist key is not accepted/);
});

test('the watchlist as GET /api/watchlists/{id} returns it', () => {
  const v = parseWatchlist({
    id: 'L',
    wallet: 'W1',
    items: [{ kind: 'agent', target: A }],
    rules: [{ kind: 'offline', enabled: true, params: { minutes: 10 } }],
    webhooks: [
      {
        id: 'h',
        url: 'https://x.example/h',
        format: 'discord',
        hasSecret: false,
        status: 'failing',
        lastError: 'timeout',
        lastDeliveredAt: 5,
      },
    ],
  });
  assert.deepEqual(v?.wallets, ['W1']);
  assert.deepEqual(v?.webhooks[0], {
    id: 'h',
    url: 'https://x.example/h',
    format: 'discord',
    status: 'failing',
    lastError: 'timeout',
    lastAt: 5,
  });
  assert.deepEqual(
    mergeRules(v!.rules).find((r) => r.kind === 'offline'),
    { kind: 'offline', enabled: true, params: { minutes: 10 } },
  );
});

test('one spelling per watched agent, base58 or hex; the stored list survives bad storage', () => {
  assert.equal(itemKey('agent', A58), itemKey('agent', A));
  assert.equal(itemKey('agent', `0x${A.toUpperCase()}`), `agent:${A}`);
  assert.equal(agentHexOf(A58), A);
  assert.equal(agentHexOf('not an id'), null);
  assert.equal(itemKey('conversation', 'AB'.repeat(16)), `conversation:${'ab'.repeat(16)}`);
  assert.equal(parseLocal('{"id":1}'), null);
  assert.equal(parseLocal('not json'), null);
  const w = parseLocal(JSON.stringify({ id: 'L', token: 'T' }))!;
  assert.deepEqual(
    withItem(withItem(w, { kind: 'agent', target: A58 }, true), { kind: 'agent', target: A }, false).items,
    [],
  );
});

test(
  'notifications: nothing for the backlog when first ' + 'enabled, then each new unread alert, a few and one summary',
  () => {
    const list = Array.from({ length: 6 }, (_, i) => alert({ id: String(10 - i), openedAt: 1_000 - i }));
    const first = planNotifications(list, null);
    assert.deepEqual([first.single.length, first.summary], [0, 0]);
    assert.equal(first.notified.length, 6);
    const fresh = [alert({ id: '12', openedAt: 2_000 }), alert({ id: '11', openedAt: 1_500 }), ...list];
    const next = planNotifications(fresh, first.notified);
    assert.deepEqual(
      next.single.map((a) => a.id),
      ['11', '12'],
    );
    assert.equal(next.summary, 0);
    const burst = Array.from({ length: 8 }, (_, i) => alert({ id: `b${i}`, openedAt: 3_000 + i }));
    const many = planNotifications([...burst, ...fresh], next.notified);
    assert.equal(many.single.length + (many.summary > 0 ? 1 : 0), MAX_SINGLE);
    assert.equal(many.single.length + many.summary, 8);
    assert.equal(many.single[0].id, 'b0');
    // Read alerts are never announced.
    assert.equal(planNotifications([alert({ id: 'r', read: true })], []).single.length, 0);
  },
);

test('the wallet texts read as the server checks them; the signature is base64 of 64 bytes', () => {
  const at = new Date('2026-11-27T22:00:00.000Z');
  const re = /^Zerox1 Observatory watchlist (\S+) owned by (\S+) at (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)$/;
  assert.deepEqual(re.exec(linkMessage('LIST', 'Wallet1', at))?.slice(1), [
    'LIST',
    'Wallet1',
    '2026-11-27T22:00:00.000Z',
  ]);
  assert.deepEqual(re.exec(adoptMessage('Wallet1', at))?.slice(1), ['*', 'Wallet1', '2026-11-27T22:00:00.000Z']);
  const sig = encodeSignature(new Uint8Array(64).fill(251));
  assert.match(sig, /^[A-Za-z0-9+/]{86}==$/);
  assert.equal(Buffer.from(sig, 'base64').length, 64);
});

test('the filters are the URL: read back as written, defaults left out', () => {
  const f = filtersOf({ state: 'open', kind: 'offline', agent: A58 });
  assert.equal(filtersQuery(f), `?state=open&kind=offline&agent=${A58}`);
  assert.deepEqual(filtersOf({ state: 'nonsense' }), { state: 'all', kind: '', agent: '' });
  assert.equal(filtersQuery(filtersOf({})), '');
});

test("an alert's reason shows its epochs with their clock span and its instants in the page's clock", () => {
  const why =
    'lease of Amber Falcon paid through epoch 90000000, ending 2027-01-15T08:00:20.000Z, in 2.00 h ' +
    '(no batch for epoch 89999999)';
  const html = renderToStaticMarkup(
    <SiteProvider value={{ names: {}, explorer: null, epochSeconds: 20 }}>
      <AlertItem a={alert({ kind: 'lease_due', why })} />
    </SiteProvider>,
  );
  const t = text(html);
  // Rendered on the server: UTC, swapped for the viewer's zone in the browser.
  assert.match(t, /paid through epoch 90000000 \(2027-01-15 08:00:00 UTC – 08:00:20 UTC\)/);
  assert.match(t, /ending 2027-01-15 08:00:20 UTC, in 2\.00 h/);
  assert.match(t, /no batch for epoch 89999999 \(2027-01-15 07:59:40 UTC – 08:00:00 UTC\)/);
  assert.doesNotMatch(t, /T08:00:20\.000Z/);
  // Without an epoch length the epoch says its clock time is unknown, never a bare number.
  const bare = text(renderToStaticMarkup(<AlertItem a={alert({ kind: 'lease_due', why: 'epoch 5 unpaid' })} />));
  assert.match(bare, /epoch 5 \(clock time unknown\) unpaid/);
});
