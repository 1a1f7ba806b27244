'use client';
/**
 * The agent page's row lists (envelopes, conversations, counterparties) drawn in the browser from
 * their rows. The server still renders their HTML; what changes is the page's RSC payload, which
 * then carries each row's data (a few hundred bytes) instead of each row's rendered element tree
 * on top of its HTML: the page stays about a third lighter per row.
 */
import { ConversationList } from '../ConversationList';
import { EnvelopeFeed, type EnvelopeFeedProps } from '../EnvelopeFeed';
import { Counterparties } from './AgentTrust';

export function AgentEnvelopes(props: EnvelopeFeedProps) {
  return <EnvelopeFeed {...props} />;
}

export function AgentConversations(props: Parameters<typeof ConversationList>[0]) {
  return <ConversationList {...props} />;
}

export function AgentCounterparties(props: Parameters<typeof Counterparties>[0]) {
  return <Counterparties {...props} />;
}
