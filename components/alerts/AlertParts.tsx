'use client';
/**
 * The pieces of /alerts that only show what they are given (no fetching, no storage), so a test
 * renders them as they are: one alert, the rules table, the webhook list, the empty state.
 */
import Link from 'next/link';
import { useState } from 'react';
import { shortHex } from '../format';
import { glossaryText } from '../glossary';
import { AgentName } from '../names/AgentName';
import { AccountLink, TxLink, useSite } from '../site';
import { Term } from '../Term';
import { EpochTime, Time } from '../time/Time';
import { TimedText } from '../time/TimedText';
import type { AlertView, RuleView, WebhookView } from './api';
import { ALERT_KINDS, checkParam, kindDef, kindLabel, ruleFields } from './kinds';
import { agentHexOf } from './store';

/** A kind's name with its glossary sentence as tooltip (linking to the glossary entry). */
export function KindName({ kind }: { kind: string }) {
  const d = kindDef(kind);
  return d ? <Term k={d.term}>{d.label}</Term> : <span>{kindLabel(kind)}</span>;
}

/** What the alert is about beyond the agent: an epoch, a challenge, a transaction, a conversation. */
function Subject({ kind, subject }: { kind: string; subject: string }) {
  const { epochSeconds } = useSite();
  if ((kind === 'batch_missing' || kind === 'batch_mismatch') && /^\d+$/.test(subject))
    return <EpochTime epoch={subject} epochSeconds={epochSeconds} />;
  if ((kind === 'challenged' || kind === 'challenge_resolved') && /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(subject))
    return (
      <>
        challenge <AccountLink address={subject} />
      </>
    );
  if (kind === 'slashed' && /^[1-9A-HJ-NP-Za-km-z]{64,90}$/.test(subject))
    return (
      <>
        transaction <TxLink signature={subject} />
      </>
    );
  if (/^[0-9a-f]{32}$/i.test(subject))
    return (
      <Link href={`/conversations/${subject.toLowerCase()}`} className="mono" title={subject}>
        conversation {shortHex(subject, 8, 4)}
      </Link>
    );
  return <span>{subject}</span>;
}

/** The server's sentence with its times and epochs in the page's clock, or what its absence means. */
function Reason({ text, none }: { text: string | null; none: string }) {
  return text ? <TimedText text={text} /> : <span className="muted">{none}</span>;
}

export function AlertItem({
  a,
  onRead,
  busy = false,
}: {
  a: AlertView;
  onRead?: (id: string) => void;
  busy?: boolean;
}) {
  const agent = a.agent ? agentHexOf(a.agent) : null;
  return (
    <li
      className={`alert-item ${a.read ? 'read' : 'unread'}`}
      data-alert={a.id}
      data-kind={a.kind}
      data-state={a.state}
    >
      <span className="alert-dot" aria-hidden />
      <div>
        <div className="alert-top">
          <span className="alert-kind">
            <KindName kind={a.kind} />
          </span>
          <span className={`alert-state ${a.state}`}>{a.state === 'open' ? 'open' : 'cleared'}</span>
          {agent ? (
            <AgentName id={agent} name={a.agentName} copy={false} />
          ) : a.agent ? (
            <span className="mono small">{a.agent}</span>
          ) : null}
          {a.subject ? (
            <span className="alert-subject">
              <Subject kind={a.kind} subject={a.subject} />
            </span>
          ) : null}
          {a.read ? null : <span className="visually-hidden">unread</span>}
        </div>
        <dl className="alert-why">
          <dt>Why it fired</dt>
          <dd data-testid="alert-why">
            <Reason text={a.why} none="the server gave no reason" />
          </dd>
          {a.state === 'cleared' ? (
            <>
              <dt>What cleared it</dt>
              <dd data-testid="alert-cleared-why">
                <Reason text={a.clearedWhy} none="the condition ended (no detail given)" />
              </dd>
            </>
          ) : null}
          {a.throttled ? (
            <>
              <dt>Webhooks</dt>
              <dd className="muted">not sent: this rule had already raised its most alerts for the hour</dd>
            </>
          ) : null}
        </dl>
      </div>
      <div className="alert-side">
        <div>
          opened <Time ms={a.openedAt} />
        </div>
        {a.state === 'cleared' ? (
          <div>
            cleared <Time ms={a.clearedAt} />
          </div>
        ) : (
          <div className="muted">still open</div>
        )}
        {!a.read && onRead ? (
          <button
            type="button"
            className="linkish"
            onClick={() => onRead(a.id)}
            disabled={busy}
            aria-label={`Mark the ${kindLabel(a.kind)} alert read`}
          >
            mark read
          </button>
        ) : null}
      </div>
    </li>
  );
}

export function AlertList({
  alerts,
  onRead,
  busy,
}: {
  alerts: AlertView[];
  onRead?: (id: string) => void;
  busy?: boolean;
}) {
  return (
    <ul className="alert-list" data-testid="alert-list">
      {alerts.map((a) => (
        <AlertItem key={a.id} a={a} onRead={onRead} busy={busy} />
      ))}
    </ul>
  );
}

/** Why the list is empty, and what to do: the filters, or nothing watched yet. */
export function NoAlerts({ filtered, watching }: { filtered: boolean; watching: number }) {
  if (filtered) return <p className="muted empty">No alert matches these filters.</p>;
  if (watching === 0)
    return (
      <p className="muted empty">
        You watch nothing yet, so nothing can alert. Press <strong>Watch</strong> on an agent&apos;s page, or on a row
        of <Link href="/agents">Agents</Link> or <Link href="/conversations">Conversations</Link>.
      </p>
    );
  return (
    <p className="muted empty">
      No alerts yet: everything you watch is quiet. Alerts open here when a rule below fires, and clear by themselves
      when the condition ends.
    </p>
  );
}

/** For a browser without a watchlist: what watching is and how to start. */
export function WatchIntro({ children }: { children?: React.ReactNode }) {
  return (
    <section className="card alerts-empty" data-testid="alerts-intro">
      <h2>Watch without staring</h2>
      <p>
        This browser watches nothing yet. A <Term k="watchlist">watchlist</Term> lets the observatory keep an eye on
        agents and conversations for you and raise an <Term k="alert">alert</Term> when something needs you: an agent
        goes offline, its <Term k="lease">lease</Term> runs out, a <Term k="batch">batch</Term> is missing or does not
        match, it is <Term k="challenge">challenged</Term> or slashed, its reputation drops, a deal is disputed.
      </p>
      <ol>
        <li>
          Open <Link href="/agents">Agents</Link> or <Link href="/conversations">Conversations</Link> and press{' '}
          <strong>Watch</strong> on a row, or on an agent&apos;s page. No account: the list&apos;s key stays in this
          browser.
        </li>
        <li>Come back here, or keep an eye on the bell at the top: it counts unread alerts.</li>
        <li>
          Optionally turn on browser notifications, send alerts to Slack, Discord or your own server (
          <Term k="webhook">webhooks</Term>), or follow your wallet to watch the agents it holds.
        </li>
      </ol>
      {children}
    </section>
  );
}

/** One rule's row: toggle, thresholds, save. `onSave` answers with an error sentence or null. */
export function RuleRow({ rule, onSave }: { rule: RuleView; onSave?: (r: RuleView) => Promise<string | null> }) {
  const d = kindDef(rule.kind);
  const fields = ruleFields(rule.kind, rule.params);
  const [enabled, setEnabled] = useState(rule.enabled);
  const [texts, setTexts] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((f) => [f.def.name, f.value === null ? '' : String(f.value)])),
  );
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  /** True when the server took the rule. */
  const save = async (nextEnabled = enabled): Promise<boolean> => {
    const params: Record<string, number> = {};
    for (const f of fields) {
      const c = checkParam(f.def, texts[f.def.name] ?? '');
      if ('error' in c) {
        setStatus({ ok: false, text: c.error });
        return false;
      }
      if (c.value !== undefined) params[f.def.name] = c.value;
    }
    if (!onSave) return false;
    setBusy(true);
    const err = await onSave({ kind: rule.kind, enabled: nextEnabled, params });
    setBusy(false);
    setStatus(
      err
        ? { ok: false, text: err }
        : { ok: true, text: nextEnabled === enabled ? 'saved' : nextEnabled ? 'on, saved' : 'off, saved' },
    );
    return !err;
  };
  const toggle = async (on: boolean) => {
    setEnabled(on);
    // Refused (a bad threshold, the server's cap): the switch shows what the server has.
    if (!(await save(on))) setEnabled(!on);
  };
  const label = d?.label ?? kindLabel(rule.kind);
  return (
    <tr data-rule={rule.kind}>
      <td>
        <KindName kind={rule.kind} />
      </td>
      <td>
        <label className="switch">
          <input
            type="checkbox"
            checked={enabled}
            disabled={busy}
            onChange={(e) => void toggle(e.target.checked)}
            aria-label={`${label} alerts on`}
          />
          {enabled ? 'on' : 'off'}
        </label>
      </td>
      <td className="rule-params">
        {fields.length === 0 ? (
          <span className="muted small">no threshold</span>
        ) : (
          fields.map((f) => (
            <label key={f.def.name} className="rule-param">
              <span>{f.def.label}</span>
              <input
                type="number"
                inputMode="decimal"
                min={f.def.min}
                step={f.def.step}
                value={texts[f.def.name] ?? ''}
                aria-label={`${label}: ${f.def.label}${f.def.unit ? ` (${f.def.unit})` : ''}`}
                onChange={(e) => setTexts((t) => ({ ...t, [f.def.name]: e.target.value }))}
                disabled={busy}
                placeholder={f.def.optional ?? undefined}
              />
              {f.def.unit ? <span className="muted small">{f.def.unit}</span> : null}
            </label>
          ))
        )}
      </td>
      <td>
        {fields.length > 0 ? (
          <button
            type="button"
            className="btn"
            onClick={() => void save()}
            disabled={busy}
            aria-label={`Save the ${label} thresholds`}
          >
            Save
          </button>
        ) : null}
        {status ? (
          <div className={`rule-status ${status.ok ? 'form-ok' : 'form-error'}`} role={status.ok ? 'status' : 'alert'}>
            {status.text}
          </div>
        ) : null}
      </td>
    </tr>
  );
}

/** Every kind, in the pages' order: the server's rule where it sent one, else the kind's defaults. */
export function mergeRules(server: RuleView[]): RuleView[] {
  const byKind = new Map(server.map((r) => [r.kind, r]));
  const known = ALERT_KINDS.map(
    (k) =>
      byKind.get(k.kind) ?? {
        kind: k.kind,
        enabled: false,
        params: Object.fromEntries(
          k.params.filter((p) => p.fallback !== null).map((p) => [p.name, (p.fallback as number) * (p.scale ?? 1)]),
        ),
      },
  );
  return [...known, ...server.filter((r) => !kindDef(r.kind))];
}

export function RulesTable({ rules, onSave }: { rules: RuleView[]; onSave?: (r: RuleView) => Promise<string | null> }) {
  return (
    <table className="rules-table" data-testid="rules-table">
      <thead>
        <tr>
          <th>Alert</th>
          <th>On</th>
          <th>Threshold</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {rules.map((r) => (
          <RuleRow key={`${r.kind}:${JSON.stringify(r.params)}:${r.enabled}`} rule={r} onSave={onSave} />
        ))}
      </tbody>
    </table>
  );
}

const FORMAT_LABEL = { slack: 'Slack', discord: 'Discord', json: 'JSON (HMAC signed)' } as const;

export function WebhookList({
  hooks,
  onDelete,
  busy,
}: {
  hooks: WebhookView[];
  onDelete?: (id: string) => void;
  busy?: string | null;
}) {
  if (hooks.length === 0) return <p className="muted empty">No webhook yet.</p>;
  return (
    <ul className="hook-list" data-testid="webhook-list">
      {hooks.map((h) => (
        <li key={h.id} data-webhook={h.id}>
          <div>
            <div className="hook-url">{h.url}</div>
            <div className="small">
              <span
                className={`hook-status ${h.status}`}
                title={
                  h.status === 'new'
                    ? 'Nothing sent to it yet.'
                    : h.status === 'ok'
                      ? 'The last delivery was accepted.'
                      : 'The last delivery failed; the observatory retries.'
                }
              >
                {h.status === 'failing' ? 'failing' : h.status}
              </span>
              <span className="muted">{FORMAT_LABEL[h.format]}</span>
              {h.lastAt ? (
                <span className="muted">
                  {' '}
                  · last delivery <Time ms={h.lastAt} />
                </span>
              ) : null}
            </div>
            {h.status === 'failing' && h.lastError ? <div className="hook-error">{h.lastError}</div> : null}
          </div>
          {onDelete ? (
            <div>
              <button
                type="button"
                className="btn danger"
                onClick={() => onDelete(h.id)}
                disabled={busy === h.id}
                aria-label={`Delete the webhook to ${h.url}`}
              >
                Delete
              </button>
            </div>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** The HMAC format's tooltip for the form's select. */
export const HMAC_TIP = glossaryText('hmac');
