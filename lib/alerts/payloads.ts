/**
 * What a webhook receives for one alert event, per format:
 *
 * - `slack`: `{"text": …, "blocks": [section, context]}`, what Slack incoming webhooks accept
 *   (`text` is the notification fallback; blocks use mrkdwn).
 * - `discord`: `{"content": … (≤ 2,000 characters), "embeds": [{title, description, url, color, timestamp}]}`.
 * - `json`: `{id, kind, state, agent, agentName, subject, why, at, url, delivery, sentAt}`.
 *
 * Every request carries `X-Zerox1-Delivery` (the outbox row's id: the same on every retry, so a
 * receiver drops a repeat) and `X-Zerox1-Timestamp` (unix seconds of this attempt, also `sentAt`
 * in the json body); with a secret, `X-Zerox1-Signature: sha256=<hex HMAC-SHA256 of
 * "<timestamp>.<delivery>.<raw body>">`. The signed text binds the time and the id to the body in
 * every format (Slack and Discord bodies have no room for them), so a receiver that checks the
 * signature, refuses a timestamp far from its clock and drops an id it has seen cannot be fed a
 * captured request again.
 */
import { createHmac } from 'node:crypto';
import type { z } from 'zod';
import { WebhookFormatSchema } from '../wire/alerts';

export type WebhookFormat = z.infer<typeof WebhookFormatSchema>;
export const WEBHOOK_FORMATS: readonly WebhookFormat[] = WebhookFormatSchema.options;

export interface AlertMessage {
  /** The alert's id (decimal). */
  id: string;
  kind: string;
  /** `throttled`: the notice that this rule's further alerts are stored but not delivered. */
  state: 'open' | 'cleared' | 'throttled';
  /** Agent id, lowercase hex. */
  agent: string;
  agentName: string | null;
  subject: string;
  /** The sentence of this event (the open or the clearing reason). */
  why: string;
  /** When the alert opened or cleared, ISO 8601. */
  at: string;
  /** The alert's page in the observatory. */
  url: string;
}

const DISCORD_CONTENT_MAX = 2_000;
const DISCORD_DESCRIPTION_MAX = 4_096;
const COLOR = { open: 0xd94f4f, cleared: 0x3f9f5f, throttled: 0xc79a2a } as const;

function title(m: AlertMessage): string {
  const who = m.agentName ?? `${m.agent.slice(0, 8)}…`;
  const what =
    m.state === 'throttled'
      ? `alerts of rule ${m.kind} throttled`
      : `${m.kind} ${m.state === 'open' ? 'opened' : 'cleared'}`;
  return `[Zerox1] ${who}: ${what}`;
}

const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);
/** Slack mrkdwn treats &, < and > as control characters. */
const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The request body for a format, as the exact bytes that are signed and sent. */
export function webhookBody(format: WebhookFormat, m: AlertMessage, delivery: string, sentAt: number): string {
  if (format === 'slack') {
    const text = `${title(m)}: ${m.why}`;
    return JSON.stringify({
      text: slackEscape(text),
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: `*${slackEscape(title(m))}*\n${slackEscape(m.why)}` } },
        {
          type: 'context',
          elements: [{ type: 'mrkdwn', text: `<${m.url}|Open in the observatory> · agent \`${m.agent}\` · ${m.at}` }],
        },
      ],
    });
  }
  if (format === 'discord') {
    return JSON.stringify({
      content: clip(`${title(m)}: ${m.why}`, DISCORD_CONTENT_MAX),
      embeds: [
        {
          title: clip(title(m), 256),
          description: clip(`${m.why}\n\nagent ${m.agent}`, DISCORD_DESCRIPTION_MAX),
          url: m.url,
          color: COLOR[m.state],
          timestamp: m.at,
        },
      ],
      allowed_mentions: { parse: [] },
    });
  }
  return JSON.stringify({
    id: m.id,
    kind: m.kind,
    state: m.state,
    agent: m.agent,
    agentName: m.agentName,
    subject: m.subject,
    why: m.why,
    at: m.at,
    url: m.url,
    delivery,
    sentAt,
  });
}

/** `sha256=<hex>` of HMAC-SHA256(secret, "<sentAt>.<delivery>.<body>"). */
export function signature(secret: string, sentAt: number, delivery: string, body: string | Uint8Array): string {
  return `sha256=${createHmac('sha256', secret).update(`${sentAt}.${delivery}.`).update(body).digest('hex')}`;
}

/** The headers of one attempt. */
export function webhookHeaders(
  body: string,
  delivery: string,
  sentAt: number,
  secret: string | null,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Zerox1-Observatory-Alerts/1',
    'x-zerox1-delivery': delivery,
    'x-zerox1-timestamp': String(sentAt),
    ...(secret ? { 'x-zerox1-signature': signature(secret, sentAt, delivery, body) } : {}),
  };
}
