/**
 * What an agent is called everywhere (pages, search hits, graph labels, alert texts, the owner's
 * history): its SATI name when its registration has one, otherwise a short label derived from its
 * id, so the same agent reads the same everywhere and two agents rarely look alike at a glance.
 * The label is two words picked by the id's first 12 bits; it is a reading aid, never an
 * identifier (the base58 id stands beside it). Browser-safe; components/names re-exports it.
 */

const ADJECTIVES = [
  'amber',
  'azure',
  'bold',
  'brisk',
  'calm',
  'clever',
  'coral',
  'crisp',
  'dapper',
  'deft',
  'eager',
  'early',
  'fabled',
  'fair',
  'fleet',
  'fond',
  'gentle',
  'glad',
  'golden',
  'grand',
  'hardy',
  'hazel',
  'honest',
  'humble',
  'ivory',
  'jade',
  'jolly',
  'keen',
  'kind',
  'lively',
  'lucid',
  'lunar',
  'mellow',
  'merry',
  'mighty',
  'misty',
  'noble',
  'nimble',
  'olive',
  'opal',
  'patient',
  'plucky',
  'proud',
  'quick',
  'quiet',
  'rapid',
  'regal',
  'rosy',
  'rustic',
  'sage',
  'sharp',
  'silver',
  'solar',
  'steady',
  'sunny',
  'swift',
  'tidy',
  'true',
  'vivid',
  'warm',
  'wise',
  'witty',
  'young',
  'zesty',
] as const;
const NOUNS = [
  'badger',
  'beacon',
  'bison',
  'brook',
  'canyon',
  'cedar',
  'comet',
  'condor',
  'coyote',
  'crane',
  'delta',
  'dune',
  'eagle',
  'ember',
  'falcon',
  'fern',
  'finch',
  'fjord',
  'fox',
  'gecko',
  'glacier',
  'harbor',
  'hawk',
  'heron',
  'ibis',
  'island',
  'jaguar',
  'kestrel',
  'koala',
  'lagoon',
  'lark',
  'lynx',
  'maple',
  'marten',
  'meadow',
  'mesa',
  'newt',
  'oak',
  'orca',
  'osprey',
  'otter',
  'owl',
  'panda',
  'pine',
  'puffin',
  'quail',
  'raven',
  'reef',
  'ridge',
  'robin',
  'salmon',
  'sparrow',
  'spruce',
  'stork',
  'summit',
  'tern',
  'tiger',
  'tundra',
  'valley',
  'walrus',
  'willow',
  'wren',
  'yak',
  'zebra',
] as const;

/** The two-word label of a 64-hex agent id (`swift-otter`); ids that are not hex get their first characters. */
export function agentLabel(hex: string): string {
  if (!/^[0-9a-f]{3}/i.test(hex)) return hex.slice(0, 8);
  const bits = parseInt(hex.slice(0, 3), 16); // 12 bits: 6 for the adjective, 6 for the noun
  return `${ADJECTIVES[bits >> 6]}-${NOUNS[bits & 63]}`;
}

/**
 * The hex prefix every id with this label starts with (3 hex digits), or null when `text` is not a
 * label: search turns a label into a key range this way, as it does a hex prefix.
 */
export function labelPrefix(text: string): string | null {
  const m = /^([a-z]+)-([a-z]+)$/.exec(text.trim().toLowerCase());
  if (!m) return null;
  const a = (ADJECTIVES as readonly string[]).indexOf(m[1]);
  const n = (NOUNS as readonly string[]).indexOf(m[2]);
  if (a < 0 || n < 0) return null;
  return ((a << 6) | n).toString(16).padStart(3, '0');
}

/** The name to show: the stored (SATI) name when there is one, else the derived label. */
export function agentDisplayName(hex: string, name?: string | null): string {
  const n = name?.trim();
  return n ? n : agentLabel(hex);
}
