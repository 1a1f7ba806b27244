/**
 * What GET /api/search returns: hits grouped by kind, each with the page it opens, and `direct`
 * when exactly one hit matches the query in full (the search box then goes straight there).
 */
import { z } from 'zod';

export const SEARCH_KINDS = ['agent', 'conversation', 'envelope', 'batch', 'challenge', 'transaction'] as const;
export const SearchKindSchema = z.enum(SEARCH_KINDS);
export type SearchKind = z.infer<typeof SearchKindSchema>;

export const SearchHitSchema = z.object({
  kind: SearchKindSchema,
  /**
   * The hit's own id: hex for agents, conversations and envelopes; `agent/epoch` for batches; base58 for challenges and
   * transactions.
   */
  id: z.string(),
  /** One line for a person: a label, a state, a msg_type. */
  detail: z.string(),
  /** The page that shows it. */
  href: z.string(),
  /** When an agent or conversation was last seen (ISO 8601, UTC), where the hit has such a time. */
  at: z.string().optional(),
  /** The query is this hit's whole id (not a prefix). */
  exact: z.boolean(),
});
export type SearchHit = z.infer<typeof SearchHitSchema>;

export const SearchResultSchema = z.object({
  query: z.string(),
  /** Hits in SEARCH_KINDS order, at most `limit` per kind. */
  hits: z.array(SearchHitSchema),
  /** The page of the one exact hit, when there is exactly one. */
  direct: z.string().nullable(),
});
export type SearchResult = z.infer<typeof SearchResultSchema>;
