/**
 * The dataset card of a release (docs/datasets.md "Dataset card"): a human card (README.md: what
 * the data is, how it is collected, what the observer cannot see, the licence, how to cite, the
 * schema changelog), CITATION.cff naming the release id, and a machine-readable description of
 * every table as a Frictionless Data Package (`datapackage.json`, https://specs.frictionlessdata.io/)
 * with types, units and descriptions. Each table's Frictionless Table Schema is also written into
 * its Parquet files' key-value metadata (`zerox1.table_schema`, writers.ts), so a file carries its
 * own description wherever it is copied.
 *
 * Why Frictionless rather than MLCommons Croissant: Croissant is JSON-LD whose readers are Python
 * ML loaders (mlcroissant, TFDS); a Data Package is plain JSON whose table schemas pandas, R and
 * frictionless-py read, and which a JSON-schema validator checks without a JSON-LD processor.
 */
import { type Column, type ColumnType, RELEASE_TABLE_NAMES, type TableName, type TableSchema } from './schema';
import { TABLES } from './tables';

/** The data's licence: the releases are a compilation of public, signed protocol messages and chain state. */
export const DATA_LICENSE = {
  name: 'CC-BY-4.0',
  path: 'https://creativecommons.org/licenses/by/4.0/',
  title: 'Creative Commons Attribution 4.0 International',
} as const;

const TYPES_V =
  'Ids, keys and hashes are lowercase hex text in Parquet too (were raw bytes); u64 ' +
  'columns are DECIMAL(20,0) and int128 prices DECIMAL(38,0) in Parquet (were decimal text).';

const TIME_V =
  "A sender's timestamp is its unix µs integer in CSV and JSONL too (was ISO-8601 text there), as in Parquet.";

/** Every schema version of every table, oldest first: the card's changelog (docs/datasets.md "Schema history"). */
export const SCHEMA_CHANGELOG: { table: TableName; version: number; change: string }[] = [
  { table: 'envelopes', version: 1, change: 'first version.' },
  {
    table: 'envelopes',
    version: 2,
    change: 'timestamp is unsigned 64-bit µs in Parquet (was TIMESTAMP), so any u64 a sender signs is exact.',
  },
  { table: 'envelopes', version: 3, change: TYPES_V },
  { table: 'envelopes', version: 4, change: TIME_V },
  { table: 'offers', version: 1, change: 'first version.' },
  {
    table: 'offers',
    version: 2,
    change: 'step and row order follow the NEG1 round, then the timestamp, then the envelope id.',
  },
  {
    table: 'offers',
    version: 3,
    change:
      `${TYPES_V} NegMAS fidelity: time is seconds from the negotiation's start (the absolute ` +
      `time moved to timestamp), relative_time against the deadline or max_rounds, responses ` +
      `and state columns and a final ACCEPT/REJECT row; offer and round may be null on that row.`,
  },
  {
    table: 'offers',
    version: 4,
    change:
      `responses (JSON text) replaced by response, the one answer's ResponseType ` +
      `name; the final REJECT's state is ended (was broken). ${TIME_V}`,
  },
  {
    table: 'negmas',
    version: 1,
    change:
      "first version: NegMAS's trace shape (outcome tuples as lists, " +
      'ResponseType names, NegMAS state names, the NEG1 round as step).',
  },
  { table: 'negotiations', version: 1, change: 'first version.' },
  { table: 'negotiations', version: 2, change: 'on-chain Haggle settlement columns.' },
  {
    table: 'negotiations',
    version: 3,
    change:
      'roles from evidence; verified reservations only; exact decimals for nash figures; new columns ' +
      'roles_source, *_reservation_status, *_fit_error, *_movement, *_surplus, rubinstein_price, notary_bidders.',
  },
  {
    table: 'negotiations',
    version: 4,
    change: `${TYPES_V} New columns max_rounds, deadline, service_hash, token_mint (of the opening NEG1).`,
  },
  {
    table: 'negotiations',
    version: 5,
    change:
      "new column outside_zopa_by; outcome is the conversation state machine's " +
      '(no_deal for deal steps without an ACCEPT; a DISPUTE makes disputed only ' +
      'after an ACCEPT); opening and final offers by round, never by arrival.',
  },
  {
    table: 'negotiations',
    version: 6,
    change:
      'nash_price and nash_distance are DECIMAL(38,1), rubinstein_price DECIMAL(38,6) ' +
      'in Parquet (were text); notary_bidders is a list of hex ids (was JSON text).',
  },
  { table: 'feedback', version: 1, change: 'first version.' },
  { table: 'feedback', version: 2, change: 'timestamp is unsigned 64-bit µs in Parquet.' },
  { table: 'feedback', version: 3, change: TYPES_V },
  { table: 'feedback', version: 4, change: TIME_V },
  { table: 'batches', version: 1, change: 'first version.' },
  { table: 'batches', version: 2, change: TYPES_V },
  { table: 'challenges', version: 1, change: 'first version.' },
  { table: 'challenges', version: 2, change: TYPES_V },
  {
    table: 'challenges',
    version: 3,
    change: 'transitions is a list of {status, slot, signature} structs (was JSON text).',
  },
  { table: 'reconciliation', version: 1, change: 'first version.' },
  { table: 'disputes', version: 1, change: 'first version.' },
  {
    table: 'disputes',
    version: 2,
    change:
      'opinions, upheld, rejected, unclear and last_opinion_at count ' +
      'only the reviewers the deployment names (DISPUTE_REVIEWERS).',
  },
  { table: 'disputes', version: 3, change: TIME_V },
];

const PRICE = 'smallest unit of the negotiated token (the NEG1 token_mint)';
const USDC = 'USDC base units (1e-6 USDC)';

/** Columns holding a price in the deal's units. */
const PRICE_COLUMNS = new Set([
  'neg1_bid_value',
  'negr_price',
  'opening_offer',
  'opening_counter',
  'final_offer',
  'agreed_price',
  'buyer_reservation',
  'seller_reservation',
  'buyer_surplus',
  'seller_surplus',
  'outside_zopa_by',
  'nash_price',
  'nash_distance',
  'rubinstein_price',
  'onchain_buyer_reservation',
  'onchain_seller_reservation',
]);

/** The unit of a column's values, when it has one (shown in the card and the datapackage). */
export function unitOf(table: TableName, c: Column): string | undefined {
  const n = c.name;
  if (c.type === 'u64_timestamp') return 'microseconds since 1970-01-01T00:00:00Z';
  if (c.type === 'timestamp') return undefined;
  if (n.endsWith('_bps')) return 'basis points (1/10,000)';
  if (n === 'duration_ms') return 'milliseconds';
  if (n === 'relative_time') return 'fraction of the negotiation (0..1)';
  if ((table === 'offers' || table === 'negmas') && n === 'time') return "seconds from the negotiation's first message";
  if (n === 'deadline') return 'unix seconds (0 = none)';
  if (n === 'neg1_deadline') return 'unix seconds (0 = none)';
  if (n === 'block_ref' || n === 'slot' || n.endsWith('_slot')) return 'Solana slot';
  if (n === 'epoch') return "epochs of the manifest's epochSeconds since 1970";
  if (/^(escrow_|settled_)|^protocol_fee$|^refund_to_buyer$|^onchain_last_offer$/.test(n)) return USDC;
  if ((table === 'offers' || table === 'negmas') && n === 'offer') return PRICE;
  if (PRICE_COLUMNS.has(n)) return PRICE;
  if (/score$/.test(n)) return 'score (-100..100)';
  return undefined;
}

/** Frictionless field type and format of a column type (as the Parquet files hold it). */
const FIELD_TYPE: Record<ColumnType, { type: string; format?: string; note?: string }> = {
  string: { type: 'string' },
  int32: { type: 'integer' },
  int64: { type: 'integer' },
  u64: { type: 'integer', note: 'unsigned 64-bit' },
  i128: { type: 'integer', note: 'signed 128-bit' },
  double: { type: 'number' },
  bool: { type: 'boolean' },
  bytes: { type: 'any', note: 'bytes: Parquet BYTE_ARRAY; lowercase hex text in CSV and JSONL' },
  hex: { type: 'string', note: 'lowercase hex text in every format' },
  timestamp: { type: 'datetime', note: 'UTC, microsecond precision' },
  u64_timestamp: { type: 'integer', note: 'unsigned 64-bit, the same integer in every format' },
  decimal1: {
    type: 'number',
    note: 'exact decimal with up to 1 place: Parquet DECIMAL(38,1), decimal text in CSV and JSONL',
  },
  decimal6: {
    type: 'number',
    note: 'exact decimal with up to 6 places: Parquet DECIMAL(38,6), decimal text in CSV and JSONL',
  },
  list: { type: 'array', note: 'Parquet LIST; a JSON array in JSONL, its JSON text in CSV' },
};

/** One column as a Frictionless Table Schema field. */
export function fieldDescriptor(table: TableName, c: Column): Record<string, unknown> {
  const t = FIELD_TYPE[c.type];
  const unit = unitOf(table, c);
  return {
    name: c.name,
    type: t.type,
    ...(t.format ? { format: t.format } : {}),
    description: [c.doc, t.note ? `(${t.note})` : '', unit ? `Unit: ${unit}.` : ''].filter(Boolean).join(' '),
    ...(unit ? { unit } : {}),
    ...(c.type === 'hex'
      ? { constraints: { ...(c.nullable === false ? { required: true } : {}), pattern: '^[0-9a-f]*$' } }
      : c.nullable === false
        ? { constraints: { required: true } }
        : {}),
  };
}

/** A table as a Frictionless Table Schema (the datapackage's `schema`, and the Parquet key-value metadata). */
export function tableSchemaJson(schema: TableSchema): Record<string, unknown> {
  const key = {
    envelopes: ['id'],
    offers: ['envelope_id'],
    negmas: ['envelope_id'],
    negotiations: ['conversation_id'],
    feedback: ['envelope_id'],
    batches: ['agent_id', 'epoch'],
    challenges: ['address'],
    reconciliation: ['agent_id', 'epoch'],
    disputes: ['dispute_id'],
  }[schema.name];
  return {
    fields: schema.columns.map((c) => fieldDescriptor(schema.name, c)),
    primaryKey: key,
    missingValues: [''],
    zerox1: { table: schema.name, schemaVersion: schema.version, doc: schema.doc },
  };
}

/** What a card needs to know of its release. */
export interface CardRelease {
  epoch: number;
  revision: number;
  from: string;
  to: string;
  asOf: string;
  epochSeconds: number;
  final: boolean;
  supersedes: string | null;
  moving: { pendingChallenges: string[]; openNegotiations: string[] };
  files: {
    name: TableName | 'context';
    file: string;
    rows: number;
    sha256: string;
    bytes: number;
    schema: TableSchema;
  }[];
}

/** The Frictionless Data Package of a release; resource paths are relative to the release folder. */
export function dataPackage(r: CardRelease): Record<string, unknown> {
  return {
    profile: 'data-package',
    name: `zerox1-observatory-epoch-${r.epoch}${r.revision ? `-r${r.revision}` : ''}`,
    title: `Zerox1 Observatory: the 0x01 agent mesh, epoch ${r.epoch}${r.revision ? ` revision ${r.revision}` : ''}`,
    description:
      `What one observer of the 0x01 agent mesh saw in [${r.from}, ${r.to}) and ` +
      `the chain's state of it as of ${r.asOf}. See README.md of this release.`,
    version: `${r.epoch}.${r.revision}`,
    created: r.asOf,
    licenses: [DATA_LICENSE],
    keywords: ['multi-agent systems', 'negotiation', 'alternating offers', 'NegMAS', 'Solana', 'reputation'],
    resources: r.files.map((f) => ({
      name: f.name === 'context' ? 'envelopes-context' : f.name,
      path: f.file,
      profile: 'data-resource',
      format: 'parquet',
      mediatype: 'application/vnd.apache.parquet',
      bytes: f.bytes,
      hash: `sha256:${f.sha256}`,
      description:
        f.name === 'context'
          ? "Envelopes of this epoch's negotiations dated outside the epoch: six of the envelopes table's " +
            'columns (id, seq, raw, seen_via, gossip_topic, first_seen); decode raw for the others.'
          : f.schema.doc,
      schema: tableSchemaJson(f.schema),
    })),
  };
}

/** What the observer can and cannot see: the card's "collection" section, also on the datasets page. */
export const COLLECTION_TEXT = [
  'The observer is one node of the 0x01 mesh. It stores every envelope that passes validation ' +
    "(docs/protocol.md §3: canonical CBOR, signature under the sender's registered key, nonce, timestamp " +
    'window) from three sources: the three GossipSub topics it subscribes to, envelopes sent to it over ' +
    "the bilateral stream protocol, and agents' uploads of their bilateral envelopes and epoch logs.",
  'It cannot see: bilateral messages between two agents that neither uploads nor sends to it; gossip that ' +
    'never reaches it (partitions, peers it is not connected to); envelopes it dropped (invalid, rate-limited ' +
    'or over size: counted per reason, not stored); anything off the mesh; the meaning of opaque payloads beyond ' +
    "the protocol's own encodings. An agent's log may leave out what it received; challenges exist for that.",
  'Chain columns (batches, challenges, on-chain Haggle settlement) are the ' +
    "observer's chain indexer's view of the chain it follows, as of the release's asOf.",
];

/** The human card, README.md of a release. */
export function cardMarkdown(r: CardRelease): string {
  const lines = [
    `# Zerox1 Observatory dataset: epoch ${r.epoch}${r.revision ? `, revision ${r.revision}` : ''}`,
    '',
    `Epoch ${r.epoch} of ${r.epochSeconds} s: [${r.from}, ${r.to}). Derived tables describe the state as of ${r.asOf}.`,
    r.final
      ? 'Final: nothing was still moving at that time (or the settle time had passed).'
      : `Not final: ${r.moving.pendingChallenges.length} challenge(s) pending ` +
        `and ${r.moving.openNegotiations.length} negotiation(s) open at ` +
        `that time; a later revision supersedes this one when they settle.`,
    ...(r.supersedes ? [`Supersedes the release ${r.supersedes}.`] : []),
    '',
    '## What the data is',
    '',
    'Signed messages of autonomous agents on the 0x01 mesh (advertise, discover, alternating-offer ' +
      'negotiation with NEG1 payloads, delivery, notarisation, feedback) and the on-chain ' +
      "commitments around them (daily merkle roots of each agent's log, challenges, Haggle escrow " +
      'settlement). Every envelope row carries its raw signed bytes, so anyone can re-verify it.',
    '',
    '| file | rows | sha256 |',
    '|---|---|---|',
    ...r.files.map((f) => `| ${f.file} | ${f.rows} | ${f.sha256} |`),
    '',
    '## How it was collected, and what the observer cannot see',
    '',
    ...COLLECTION_TEXT.flatMap((p) => [p, '']),
    '## Licence',
    '',
    `${DATA_LICENSE.title} (${DATA_LICENSE.name}, ${DATA_LICENSE.path}). The envelopes are public protocol ` +
      `messages signed by their senders; this licence covers the compilation, its derived tables and this card.`,
    '',
    '## How to cite',
    '',
    `Cite the release id: the sha256 of this release's manifest file (\`epoch=${r.epoch}` +
      `${r.revision ? `.r${r.revision}` : ''}.manifest.json\`), which the observer ` +
      `signs (\`.manifest.sig.json\`) and which CITATION.cff beside this card names. Verify ` +
      `it with \`npm run verify-dataset -- DIR --key <observer key> --rpc <RPC URL>\`.`,
    '',
    '## Columns',
    '',
    'Types, units and descriptions of every column: datapackage.json beside this card ' +
      "(Frictionless Data Package), and each Parquet file's key-value metadata `zerox1.table_schema`.",
    '',
    '## Schema changelog',
    '',
    ...RELEASE_TABLE_NAMES.flatMap((t) => [
      `- **${t}** (now version ${TABLES[t].version}):`,
      ...SCHEMA_CHANGELOG.filter((c) => c.table === t).map((c) => `  - version ${c.version}: ${c.change}`),
    ]),
    '',
  ];
  return lines.join('\n');
}

/** CITATION.cff (Citation File Format 1.2.0) of a release, naming its release id. */
export function citationCff(r: CardRelease, releaseId: string, manifestFile: string): string {
  const q = (s: string) => JSON.stringify(s);
  return [
    'cff-version: 1.2.0',
    'message: "If you use this dataset, cite it by its release id (the sha256 of its manifest file)."',
    'type: dataset',
    `title: ${q(
      `Zerox1 Observatory: the 0x01 agent mesh, epoch ${r.epoch}${r.revision ? ` revision ${r.revision}` : ''}`,
    )}`,
    'authors:',
    '  - name: "Zerox1 Observatory"',
    `version: ${q(`${r.epoch}.${r.revision}`)}`,
    `date-released: ${q(r.asOf.slice(0, 10))}`,
    `license: ${DATA_LICENSE.name}`,
    'identifiers:',
    '  - type: other',
    `    value: ${q(`sha256:${releaseId}`)}`,
    `    description: ${q(`release id: sha256 of ${manifestFile}`)}`,
    `abstract: ` +
      `${q(
        `Envelopes, NEG1 offers, negotiations with analytics, feedback, batches and ` +
          `challenges observed on the 0x01 mesh in [${r.from}, ${r.to}), as of ${r.asOf}.`,
      )}`,
    'keywords:',
    '  - multi-agent systems',
    '  - negotiation',
    '  - Solana',
    '',
  ].join('\n');
}
