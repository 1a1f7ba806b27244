'use client';
/**
 * /alerts, all in the browser because the watchlist's key lives there: the alerts of this
 * browser's watchlist with their filters (kept in the URL, so a filtered view can be bookmarked),
 * what is watched, the rules with their thresholds, the webhooks, and browser notifications.
 * Every refusal is shown as the server's sentence where it happened.
 */
import Link from 'next/link';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { shortHex } from '../format';
import { AgentName } from '../names/AgentName';
import { Term } from '../Term';
import { AlertList, HMAC_TIP, mergeRules, NoAlerts, RulesTable, WatchIntro, WebhookList } from './AlertParts';
import {
  type AlertQuery,
  type AlertView,
  alertsApi,
  type WatchlistView,
  type WebhookFormat,
  type WebhookView,
} from './api';
import { announceAlertsChanged } from './Bell';
import { useNotifyState } from './browser-notifications';
import { type AlertFilters, filtersQuery } from './filters';
import { ALERT_KINDS } from './kinds';
import { agentHexOf, type LocalWatchlist, setLocal } from './store';
import { publishUnread, useUnread } from './unread';
import { setWatched, syncItems, useHydrated, useWatchlist } from './useWatchlist';
import { AdoptWallet, FollowWallet } from './WalletFollow';
import { WebhookIntro } from './WebhookIntro';

const api = alertsApi();
const PAGE = 50;

export function AlertsView({ initial }: { initial: AlertFilters }) {
  const hydrated = useHydrated();
  const w = useWatchlist();
  if (!hydrated) return <p className="muted">Reading this browser&apos;s watchlist…</p>;
  return (
    <div className="alerts-page">
      <header className="page-head">
        <div>
          <h1>Alerts</h1>
          <p className="muted">
            What the agents and conversations you watch need you for. An <Term k="alert">alert</Term> opens when its
            condition starts and clears by itself when it ends; both are kept here.
          </p>
        </div>
        <div className="alerts-head-actions">
          <NotifyButton />
        </div>
      </header>
      {w ? (
        <WithList w={w} initial={initial} />
      ) : (
        <WatchIntro>
          <AdoptWallet />
        </WatchIntro>
      )}
    </div>
  );
}

function NotifyButton() {
  const { state, enable, disable } = useNotifyState();
  if (state === 'unsupported') return <span className="muted small">This browser shows no notifications.</span>;
  if (state === 'denied')
    return (
      <span
        className="muted small"
        title="Allow notifications for this site in the browser's site settings, then reload."
      >
        Notifications are blocked for this site in your browser.
      </span>
    );
  if (state === 'on')
    return (
      <button
        type="button"
        className="btn"
        onClick={disable}
        data-testid="notify-off"
        title="New unread alerts pop up as browser notifications while an observatory page is open."
      >
        Browser notifications on · turn off
      </button>
    );
  return (
    <button type="button" className="btn primary" onClick={() => void enable()} data-testid="notify-on">
      Enable browser notifications
    </button>
  );
}

function WithList({ w, initial }: { w: LocalWatchlist; initial: AlertFilters }) {
  const [view, setView] = useState<WatchlistView | null>(null);
  const [viewError, setViewError] = useState<string | null>(null);
  const [refused, setRefused] = useState(false);
  const creds = useMemo(() => ({ id: w.id, token: w.token }), [w.id, w.token]);

  const reload = useCallback(async () => {
    const r = await api.get(creds);
    if (r.ok) {
      setView(r.value);
      setViewError(null);
      syncItems(creds.id, r.value.items);
    } else {
      setViewError(r.error);
      setRefused(r.status === 403 || r.status === 404);
    }
  }, [creds]);
  useEffect(() => {
    void reload();
  }, [reload]);

  return (
    <>
      {refused ? (
        <p className="notice" role="alert" data-testid="watchlist-refused">
          The observatory no longer accepts this browser&apos;s watchlist ({viewError}). It may have been deleted, or
          this observatory&apos;s data was reset. Forget it at the bottom of this page: the next Watch starts a new
          list, and if a wallet followed it, signing with that wallet gets it back.
        </p>
      ) : null}
      <Alerts
        creds={creds}
        initial={initial}
        watching={view ? view.items.length + (view.wallets.length ? 1 : 0) : w.items.length}
      />
      <section className="card" data-testid="watching">
        <h2>What you watch</h2>
        {viewError ? (
          <p className="form-error" role="alert">
            {viewError}
          </p>
        ) : null}
        <Watching view={view} local={w} onChange={reload} />
        <FollowWallet linked={view?.wallets[0] ?? null} onLinked={reload} />
      </section>
      <section className="card" data-testid="rules">
        <h2>
          <Term k="alertRule">Rules</Term>
        </h2>
        <p className="muted small">
          Which alerts this watchlist raises, and when. Hover an alert&apos;s name for what it means.
        </p>
        {view ? (
          <div className="table-wrap">
            <RulesTable
              rules={mergeRules(view.rules)}
              onSave={async (rule) => {
                const r = await api.setRule(creds, rule);
                return r.ok ? null : r.error;
              }}
            />
          </div>
        ) : (
          <p className="muted">{viewError ? 'The rules show once the watchlist can be read.' : 'Reading the rules…'}</p>
        )}
      </section>
      <Webhooks creds={creds} hooks={view?.webhooks ?? null} onChange={reload} />
      <ThisBrowser w={w} />
    </>
  );
}

function Alerts({
  creds,
  initial,
  watching,
}: {
  creds: { id: string; token: string };
  initial: AlertFilters;
  watching: number;
}) {
  const [filters, setFilters] = useState(initial);
  const [agentText, setAgentText] = useState(initial.agent);
  const [alerts, setAlerts] = useState<AlertView[] | null>(null);
  const [more, setMore] = useState(false);
  // The bell's count and this list's are one value (unread.ts), set by whichever read last.
  const unread = useUnread() ?? 0;
  const setUnread = publishUnread;
  /** The count the shown rows were read with: when the bell reads another, the rows are read again. */
  const listed = useRef<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const query = useCallback(
    (before?: string): AlertQuery => ({
      state: filters.state,
      kind: filters.kind || undefined,
      agent: filters.agent.trim() || undefined,
      limit: PAGE,
      before,
    }),
    [filters],
  );

  const load = useCallback(async () => {
    const r = await api.alerts(creds, query());
    if (!r.ok) return setError(r.error);
    setError(null);
    setAlerts(r.value.alerts);
    listed.current = r.value.unread;
    setUnread(r.value.unread);
    setMore(r.value.alerts.length >= PAGE);
  }, [creds, query]);

  // The filters are the URL's query string: replaced in place, so Back leaves the page as before.
  useEffect(() => {
    const q = filtersQuery(filters);
    if (window.location.search !== q) window.history.replaceState(window.history.state, '', `/alerts${q}`);
  }, [filters]);

  useEffect(() => {
    void load();
    // New alerts appear without a reload, at the bell's pace.
    const t = setInterval(() => {
      if (!document.hidden) void load();
    }, 10_000);
    return () => clearInterval(t);
  }, [load]);

  useEffect(() => {
    if (listed.current !== null && unread !== listed.current) void load();
  }, [unread, load]);

  const older = async () => {
    const last = alerts?.[alerts.length - 1];
    if (!last) return;
    setBusy(true);
    const r = await api.alerts(creds, query(last.id));
    setBusy(false);
    if (!r.ok) return setError(r.error);
    setAlerts((a) => [...(a ?? []), ...r.value.alerts.filter((x) => !a?.some((y) => y.id === x.id))]);
    setMore(r.value.alerts.length >= PAGE);
  };

  const markRead = async (ids: string[] | 'all') => {
    setBusy(true);
    const r = await api.markRead(creds, ids);
    setBusy(false);
    if (!r.ok) return setError(r.error);
    setAlerts((a) => a?.map((x) => (ids === 'all' || ids.includes(x.id) ? { ...x, read: true } : x)) ?? a);
    announceAlertsChanged();
    void load();
  };

  const filtered = filters.state !== 'all' || !!filters.kind || !!filters.agent.trim();
  const agentHex = filters.agent.trim() ? agentHexOf(filters.agent) : null;
  return (
    <section className="card" data-testid="alerts">
      <h2>Alerts {unread ? <span className="muted">· {unread} unread</span> : null}</h2>
      <form
        className="alert-filters"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters((f) => ({ ...f, agent: agentText }));
        }}
        data-testid="alert-filters"
      >
        <label>
          State
          <select
            value={filters.state}
            onChange={(e) => setFilters((f) => ({ ...f, state: e.target.value as AlertFilters['state'] }))}
          >
            <option value="all">all</option>
            <option value="open">open</option>
            <option value="cleared">cleared</option>
          </select>
        </label>
        <label>
          Kind
          <select value={filters.kind} onChange={(e) => setFilters((f) => ({ ...f, kind: e.target.value }))}>
            <option value="">any</option>
            {ALERT_KINDS.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Agent
          <input
            value={agentText}
            onChange={(e) => setAgentText(e.target.value)}
            placeholder="base58 or hex"
            size={18}
            className="mono"
          />
        </label>
        <button type="submit" className="btn">
          Apply
        </button>
        {filtered ? (
          <button
            type="button"
            className="linkish"
            onClick={() => {
              setAgentText('');
              setFilters({ state: 'all', kind: '', agent: '' });
            }}
          >
            reset
          </button>
        ) : null}
        <span className="spacer" />
        <button
          type="button"
          className="btn"
          onClick={() => void markRead('all')}
          disabled={busy || unread === 0}
          data-testid="mark-all-read"
        >
          Mark all read
        </button>
      </form>
      {agentHex ? (
        <p className="small muted">
          Only alerts about <AgentName id={agentHex} copy={false} />.
        </p>
      ) : null}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {alerts === null ? (
        error ? null : (
          <p className="muted">Reading alerts…</p>
        )
      ) : alerts.length === 0 ? (
        <NoAlerts filtered={filtered} watching={watching} />
      ) : (
        <>
          <AlertList alerts={alerts} onRead={(id) => void markRead([id])} busy={busy} />
          {more ? (
            <p>
              <button type="button" className="btn" onClick={() => void older()} disabled={busy}>
                Older alerts
              </button>
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

function Watching({
  view,
  local,
  onChange,
}: {
  view: WatchlistView | null;
  local: LocalWatchlist;
  onChange: () => void;
}) {
  const [error, setError] = useState<string | null>(null);
  // The server's list when read; until then, what this browser remembers.
  const items = view
    ? view.items
    : local.items.map((k) => ({
        kind: k.slice(0, k.indexOf(':')) as 'agent' | 'conversation',
        target: k.slice(k.indexOf(':') + 1),
      }));
  const stop = async (item: { kind: 'agent' | 'conversation'; target: string }) => {
    const r = await setWatched(item, false);
    if (!r.ok) return setError(r.error);
    setError(null);
    onChange();
  };
  if (items.length === 0)
    return (
      <p className="muted empty">
        Nothing yet. Press <strong>Watch</strong> on an agent&apos;s page or on a row of{' '}
        <Link href="/agents">Agents</Link> or <Link href="/conversations">Conversations</Link>.
      </p>
    );
  return (
    <>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <ul className="watched-list" data-testid="watched-list">
        {items.map((i) => {
          const hex = i.kind === 'agent' ? agentHexOf(i.target) : null;
          return (
            <li key={`${i.kind}:${i.target}`}>
              <span>
                {i.kind === 'agent' ? (
                  hex ? (
                    <AgentName id={hex} />
                  ) : (
                    <span className="mono">{i.target}</span>
                  )
                ) : (
                  <Link href={`/conversations/${i.target}`} className="mono" title={i.target}>
                    conversation {shortHex(i.target, 8, 4)}
                  </Link>
                )}
              </span>
              <button
                type="button"
                className="linkish"
                onClick={() => void stop(i)}
                aria-label={`Stop watching ${i.kind} ${i.target}`}
              >
                stop watching
              </button>
            </li>
          );
        })}
      </ul>
    </>
  );
}

function Webhooks({
  creds,
  hooks,
  onChange,
}: {
  creds: { id: string; token: string };
  hooks: WebhookView[] | null;
  onChange: () => Promise<void>;
}) {
  const [url, setUrl] = useState('');
  const [format, setFormat] = useState<WebhookFormat>('slack');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const add = async (e: React.FormEvent) => {
    e.preventDefault();
    const u = url.trim();
    if (!/^https?:\/\//i.test(u)) return setError("Give the webhook's full address, starting with https://.");
    if (format === 'json' && !secret.trim())
      return setError('A JSON webhook needs an HMAC secret: your receiver checks each request with it.');
    setBusy('add');
    setError(null);
    const r = await api.addWebhook(creds, { url: u, format, ...(secret.trim() ? { secret: secret.trim() } : {}) });
    setBusy(null);
    if (!r.ok) return setError(r.error);
    setUrl('');
    setSecret('');
    await onChange();
  };
  const del = async (id: string) => {
    setBusy(id);
    const r = await api.deleteWebhook(creds, id);
    setBusy(null);
    if (!r.ok) return setError(r.error);
    setError(null);
    await onChange();
  };
  return (
    <section className="card" data-testid="webhooks">
      <h2>
        <Term k="webhook">Webhooks</Term>
      </h2>
      <WebhookIntro />
      <form className="webhook-form" onSubmit={add} data-testid="webhook-form">
        <label>
          URL
          <input
            type="url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://hooks.slack.com/services/…"
            required
            className="mono"
          />
        </label>
        <label>
          Format
          <select value={format} onChange={(e) => setFormat(e.target.value as WebhookFormat)}>
            <option value="slack">Slack</option>
            <option value="discord">Discord</option>
            <option value="json">JSON with HMAC</option>
          </select>
        </label>
        <label>
          <span className="tip" title={HMAC_TIP}>
            HMAC secret{format === 'json' ? '' : ' (optional: for a receiver of your own)'}
          </span>
          <input
            type="password"
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
            autoComplete="off"
            placeholder={format === 'json' ? 'a long random string' : 'optional'}
          />
        </label>
        <button type="submit" className="btn primary" disabled={busy === 'add'}>
          {busy === 'add' ? 'Adding…' : 'Add webhook'}
        </button>
      </form>
      {error ? (
        <p className="form-error" role="alert" data-testid="webhook-error">
          {error}
        </p>
      ) : null}
      {hooks === null ? null : <WebhookList hooks={hooks} onDelete={(id) => void del(id)} busy={busy} />}
    </section>
  );
}

/** The list's id and what this browser can do with its key. */
function ThisBrowser({ w }: { w: LocalWatchlist }) {
  const [sure, setSure] = useState(false);
  return (
    <section className="card" data-testid="this-browser">
      <h2>
        This browser&apos;s <Term k="watchlist">watchlist</Term>
      </h2>
      <p className="small">
        List <span className="creds">{w.id}</span>. Its key is kept in this browser only; follow your wallet above to
        reach the list from another browser.
      </p>
      {sure ? (
        <p className="small">
          Forget the list here? Unless a wallet follows it, this browser cannot get it back.{' '}
          <button
            type="button"
            className="btn danger"
            onClick={() => {
              setLocal(null);
              announceAlertsChanged();
            }}
          >
            Forget it
          </button>{' '}
          <button type="button" className="linkish" onClick={() => setSure(false)}>
            keep it
          </button>
        </p>
      ) : (
        <button type="button" className="linkish small" onClick={() => setSure(true)}>
          Forget this list in this browser…
        </button>
      )}
    </section>
  );
}
