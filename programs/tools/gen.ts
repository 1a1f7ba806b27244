/**
 * Generator: programs/<name>/program.json → programs/include/gen/<name>.h (C structs, tags,
 * discriminators, errors, seeds) and lib/chain/gen/<name>.ts (codecs, PDA finders, instruction
 * builders, event decoder). Also ids.h / ids.ts from programs/ids.json. Format: programs/README.md.
 *
 *   gen.ts            write all generated files
 *   gen.ts --check    fail if a generated file is missing or differs
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PublicKey } from '@solana/web3.js';
import { type FieldSpec, type FieldType, fieldSize } from '../../lib/chain/codec';
import * as constants from '../../lib/protocol/constants';

const PROGRAMS_DIR = fileURLToPath(new URL('..', import.meta.url));
const ROOT = join(PROGRAMS_DIR, '..');
const C_OUT = join(PROGRAMS_DIR, 'include', 'gen');
const TS_OUT = join(ROOT, 'lib', 'chain', 'gen');

export interface SeedSpec {
  const?: string;
  pubkey?: string;
  u64?: string;
}
export interface PdaSpec {
  name: string;
  seeds: SeedSpec[];
}
export interface StructSpec {
  name: string;
  doc?: string;
  fields: FieldSpec[];
}
export interface IxAccountSpec {
  name: string;
  signer?: boolean;
  writable?: boolean;
  address?: string;
  pda?: string;
  doc?: string;
}
export interface IxSpec {
  name: string;
  tag: number;
  doc?: string;
  accounts: IxAccountSpec[];
  args: FieldSpec[];
}
export interface ErrorSpec {
  name: string;
  code: number;
  msg: string;
}
export interface ProgramSpec {
  /** A program standing in for an outside one (SATI) names its default id here instead of ids.json. */
  id?: string;
  name: string;
  doc?: string;
  pdas: PdaSpec[];
  accounts: StructSpec[];
  instructions: IxSpec[];
  events: StructSpec[];
  errors: ErrorSpec[];
}

/** Addresses an instruction account may name in `address` instead of a base58 key. */
export const WELL_KNOWN: Record<string, string> = {
  system: '11111111111111111111111111111111',
  token: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  token2022: 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
  instructions: 'Sysvar1nstructions1111111111111111111111111',
  clock: 'SysvarC1ock11111111111111111111111111111111',
  ed25519: 'Ed25519SigVerify111111111111111111111111111',
};

export const discriminator = (kind: 'account' | 'event', name: string) =>
  createHash('sha256').update(`${kind}:${name}`).digest().subarray(0, 8);

export const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
export const pascal = (s: string) => camel(s).replace(/^./, (c) => c.toUpperCase());
export const upper = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
const hexBytes = (b: Uint8Array) => [...b].map((x) => `0x${x.toString(16).padStart(2, '0')}`).join(', ');
const leU64 = (b: Uint8Array) => `0x${Buffer.from(b).reverse().toString('hex')}ULL`;

function ctype(t: FieldType, name: string): string {
  switch (t) {
    case 'u8':
      return `uint8_t ${name}`;
    case 'u16':
      return `uint16_t ${name}`;
    case 'u32':
      return `uint32_t ${name}`;
    case 'u64':
      return `uint64_t ${name}`;
    case 'i64':
      return `int64_t ${name}`;
    case 'pubkey':
      return `SolPubkey ${name}`;
    default:
      return `uint8_t ${name}[${fieldSize(t)}]`;
  }
}
const calign = (t: FieldType) => (['u16', 'u32', 'u64', 'i64'].includes(t) ? fieldSize(t) : 1);

/** Validates a description; throws naming the offending entry. */
export function validateSpec(spec: ProgramSpec): void {
  const seen = new Set<string>();
  const uniq = (k: string) => {
    if (seen.has(k)) throw new Error(`${spec.name}: duplicate ${k}`);
    seen.add(k);
  };
  for (const a of spec.accounts) uniq(`account ${a.name}`);
  for (const e of spec.events) uniq(`event ${e.name}`);
  for (const i of spec.instructions) {
    uniq(`instruction ${i.name}`);
    uniq(`tag ${i.tag}`);
  }
  for (const e of spec.errors) {
    uniq(`error ${e.name}`);
    uniq(`code ${e.code}`);
    if (e.code <= 0 || e.code >= 2 ** 32) throw new Error(`${spec.name}: error ${e.name} code out of range`);
  }
  for (const s of [...spec.accounts, ...spec.events]) for (const f of s.fields) fieldSize(f.type);
  for (const i of spec.instructions) {
    for (const f of i.args) fieldSize(f.type);
    for (const a of i.accounts)
      if (a.pda && !spec.pdas.some((p) => p.name === a.pda))
        throw new Error(`${spec.name}.${i.name}: unknown pda ${a.pda}`);
  }
}

/** C struct text; natural (unpacked) when every field is naturally aligned, otherwise packed. */
function cStruct(typeName: string, prefix: FieldSpec[], fields: FieldSpec[]): string {
  const all = [...prefix, ...fields];
  let off = 0,
    maxAlign = 1,
    natural = true;
  const offsets: number[] = [];
  for (const f of all) {
    const a = calign(f.type);
    if (off % a !== 0) natural = false;
    maxAlign = Math.max(maxAlign, a);
    offsets.push(off);
    off += fieldSize(f.type);
  }
  if (off % maxAlign !== 0) natural = false;
  const body = all.map((f) => `  ${ctype(f.type, f.name)};`).join('\n');
  const asserts = all
    .map(
      (f, i) => `_Static_assert(__builtin_offsetof(${typeName}, ${f.name}) == ${offsets[i]}, "${typeName}.${f.name}");`,
    )
    .join('\n');
  return (
    `typedef struct${natural ? '' : ' __attribute__((packed))'} {\n${body}\n} ${typeName}` +
    `;\n_Static_assert(sizeof(${typeName}) == ${off}, "${typeName} size");\n${asserts}\n`
  );
}

export function genC(spec: ProgramSpec): string {
  const P = upper(spec.name);
  const p = spec.name;
  const disc: FieldSpec = { name: 'discriminator', type: 'u64' };
  const out: string[] = [
    `/* Generated from programs/${p}/program.json by programs/tools/gen.ts. Do not edit. */`,
    `#ifndef ZX_GEN_${P}_H`,
    `#define ZX_GEN_${P}_H`,
    '#include "zerox1.h"',
    '#include "ids.h"',
    '#include "constants.h"',
    '',
    '/* ---- PDA seeds ---- */',
  ];
  for (const pda of spec.pdas)
    for (const s of pda.seeds) if (s.const) out.push(`#define ${P}_SEED_${upper(s.const)} "${s.const}"`);
  out.push('', '/* ---- Accounts ---- */');
  for (const a of spec.accounts) {
    out.push(
      `/* ${a.doc ?? a.name} */`,
      `#define ${P}_${upper(a.name)}_DISC ${leU64(discriminator('account', a.name))}`,
    );
    out.push(cStruct(`${p}_${a.name}`, [disc], a.fields));
  }
  out.push('/* ---- Events (emitted whole with sol_log_data) ---- */');
  for (const e of spec.events) {
    out.push(`#define ${P}_EV_${upper(e.name)}_DISC ${leU64(discriminator('event', e.name))}`);
    out.push(cStruct(`${p}_ev_${e.name}`, [disc], e.fields));
  }
  out.push('/* ---- Instructions ---- */');
  for (const ix of spec.instructions) {
    const I = `${P}_${upper(ix.name)}`;
    out.push(
      `/* ${ix.doc ?? ix.name} */`,
      `#define ${P}_IX_${upper(ix.name)} ${ix.tag}`,
      `#define ${I}_NACCOUNTS ${ix.accounts.length}`,
    );
    ix.accounts.forEach((a, i) => out.push(`#define ${I}_ACC_${upper(a.name)} ${i}`));
    out.push(cStruct(`${p}_${ix.name}_ix`, [{ name: 'tag', type: 'u8' }], ix.args));
  }
  out.push('/* ---- Errors (custom program error codes) ---- */');
  for (const e of spec.errors) out.push(`#define ${P}_ERR_${upper(e.name)} ${e.code}ULL /* ${e.msg} */`);
  out.push('', `#endif /* ZX_GEN_${P}_H */`, '');
  return out.join('\n');
}

function tsType(t: FieldType): string {
  if (t === 'u8' || t === 'u16' || t === 'u32') return 'number';
  if (t === 'u64' || t === 'i64') return 'bigint';
  if (t === 'pubkey') return 'PublicKey';
  return 'Uint8Array';
}
const tsFields = (fields: FieldSpec[]) =>
  `[${fields.map((f) => `{ name: '${camel(f.name)}', type: '${f.type}' }`).join(', ')}]`;
const tsIface = (name: string, fields: FieldSpec[]) =>
  `export interface ${name} {\n${fields
    .filter((f) => !f.type.startsWith('pad'))
    .map((f) => `  ${camel(f.name)}: ${tsType(f.type)};`)
    .join('\n')}\n}`;

function tsPda(spec: ProgramSpec, pda: PdaSpec): string {
  const params = pda.seeds
    .filter((s) => !s.const)
    .map((s) => (s.pubkey ? `${camel(s.pubkey)}: PublicKey` : `${camel(s.u64!)}: bigint`));
  const seeds = pda.seeds.map((s) =>
    s.const
      ? `new TextEncoder().encode('${s.const}')`
      : s.pubkey
        ? `${camel(s.pubkey)}.toBytes()`
        : `u64le(${camel(s.u64!)})`,
  );
  return (
    `/** PDA [${pda.seeds.map((s) => (s.const ? `b"${s.const}"` : (s.pubkey ?? `${s.u64} u64 LE`))).join(', ')}` +
    `] of ${spec.name}. */\n` +
    `export function find${pascal(pda.name)}Pda(` +
    `${[...params, 'programId: PublicKey = PROGRAM_ID'].join(', ')}): [PublicKey, number] {\n` +
    `  return PublicKey.findProgramAddressSync([${seeds.join(', ')}], programId);\n}`
  );
}

function tsIx(spec: ProgramSpec, ix: IxSpec, ids: Record<string, string>): string {
  const N = pascal(ix.name);
  const autoPda = (a: IxAccountSpec) => a.pda && spec.pdas.find((p) => p.name === a.pda)!.seeds.every((s) => s.const);
  const fixed = (a: IxAccountSpec) => (a.address ? (WELL_KNOWN[a.address] ?? ids[a.address] ?? a.address) : undefined);
  const accLines = ix.accounts.map(
    (a) => `  ${camel(a.name)}${fixed(a) || autoPda(a) ? '?' : ''}: PublicKey;${a.doc ? ` // ${a.doc}` : ''}`,
  );
  const metas = ix.accounts.map((a) => {
    const k = camel(a.name);
    const f = fixed(a);
    const expr = f
      ? `accounts.${k} ?? new PublicKey('${new PublicKey(f).toBase58()}')`
      : autoPda(a)
        ? `accounts.${k} ?? find${pascal(a.pda!)}Pda()[0]`
        : `accounts.${k}`;
    return `      { pubkey: ${expr}, isSigner: ${Boolean(a.signer)}, isWritable: ${Boolean(a.writable)} },`;
  });
  const hasArgs = ix.args.length > 0;
  return [
    `export const IX_${upper(ix.name)} = ${ix.tag};`,
    `export const ${upper(ix.name)}_ARGS_FIELDS: readonly FieldSpec[] = ${tsFields(ix.args)};`,
    tsIface(`${N}Args`, ix.args),
    `export interface ${N}Accounts {\n${accLines.join('\n')}\n}`,
    `/** Instruction data of ${ix.name}: tag ${ix.tag} then the fixed little-endian args. */`,
    `export function encode${N}Args(args: ${N}Args): Uint8Array {\n  return encodeFields(Uint8Array.of(` +
      `${ix.tag}), ${upper(ix.name)}_ARGS_FIELDS, args as unknown as Record<string, unknown>);\n}`,
    `export function decode${N}Args(data: Uint8Array): ${N}Args | null {\n  return data[0] ` +
      `=== ${ix.tag} ? decodeFields<${N}Args>(data, 1, ${upper(ix.name)}_ARGS_FIELDS) : null;\n}`,
    `/** ${ix.doc ?? ix.name} */`,
    `export function ${camel(ix.name)}Instruction(accounts: ${N}Accounts` +
      `${hasArgs ? `, args: ${N}Args` : ''}, programId: PublicKey = PROGRAM_ID): TransactionInstruction {`,
    `  return new TransactionInstruction({\n    programId,\n    keys: [\n${metas.join('\n')}\n    ],`,
    `    data: instructionData(encode${N}Args(${hasArgs ? 'args' : `{} as ${N}Args`})),\n  });\n}`,
  ].join('\n');
}

export function genTs(spec: ProgramSpec, ids: Record<string, string>): string {
  const out: string[] = [
    `// Generated from programs/${spec.name}/program.json by programs/tools/gen.ts. Do not edit.`,
    `/** ${spec.doc ?? spec.name} */`,
    "import { PublicKey, TransactionInstruction } from '@solana/web3.js';",
    "import { decodeFields, encodeFields, hasDiscriminator, instructionData, type FieldSpec } from '../codec';",
    '',
    `export const PROGRAM_ID = new PublicKey('${ids[spec.name]}');`,
    'const u64le = (v: bigint) => { const b = new Uint8Array(8); ' +
      'new DataView(b.buffer).setBigUint64(0, v, true); return b; };',
    'void u64le;',
    '',
  ];
  for (const pda of spec.pdas) out.push(tsPda(spec, pda), '');
  for (const a of spec.accounts) {
    const U = upper(a.name);
    out.push(
      `/** ${a.doc ?? a.name} */`,
      tsIface(a.name, a.fields),
      `export const ${U}_DISCRIMINATOR = Uint8Array.from([${hexBytes(discriminator('account', a.name))}]);`,
      `export const ${U}_FIELDS: readonly FieldSpec[] = ${tsFields(a.fields)};`,
      `export const ${U}_SIZE = ${8 + a.fields.reduce((n, f) => n + fieldSize(f.type), 0)};`,
      `export function encode${a.name}(v: ${a.name}): Uint8Array {\n  return encodeFields(` +
        `${U}_DISCRIMINATOR, ${U}_FIELDS, v as unknown as Record<string, unknown>);\n}`,
      `/** Decodes account data; null when the discriminator or size is wrong. */`,
      `export function decode${a.name}(data: Uint8Array): ${a.name} | null {\n  return hasDiscriminator(data, ` +
        `${U}_DISCRIMINATOR) ? decodeFields<${a.name}>(data, 8, ${U}_FIELDS, true) : null;\n}`,
      '',
    );
  }
  for (const e of spec.events) {
    const U = upper(e.name);
    out.push(
      tsIface(`${e.name}Event`, e.fields),
      `export const ${U}_EVENT_DISCRIMINATOR = Uint8Array.from([${hexBytes(discriminator('event', e.name))}]);`,
      `export const ${U}_EVENT_FIELDS: readonly FieldSpec[] = ${tsFields(e.fields)};`,
      `export function encode${e.name}Event(v: ${e.name}Event): Uint8Array {\n  return encodeFields(` +
        `${U}_EVENT_DISCRIMINATOR, ${U}_EVENT_FIELDS, v as unknown as Record<string, unknown>);\n}`,
      '',
    );
  }
  const union = spec.events.map((e) => `{ name: '${e.name}'; data: ${e.name}Event }`).join(' | ') || 'never';
  out.push(
    `export type Event = ${union};`,
    `/** Decodes one sol_log_data record of this program; null for anything else. Never throws. */`,
    `export function decodeEvent(data: Uint8Array): Event | null {`,
    ...spec.events.map(
      (e) =>
        `  if (hasDiscriminator(data, ${upper(e.name)}_EVENT_DISCRIMINATOR)) { const d = decodeFields<${e.name}` +
        `Event>(data, 8, ${upper(e.name)}_EVENT_FIELDS); return d ? { name: '${e.name}', data: d } : null; }`,
    ),
    '  return null;',
    '}',
    '',
  );
  for (const ix of spec.instructions) out.push(tsIx(spec, ix, ids), '');
  out.push(
    `export const ERRORS = {\n${spec.errors.map((e) => `  ${e.name}: ${e.code},`).join('\n')}\n} as const;`,
    `export const ERROR_MESSAGES: Readonly<Record<number, string>> = {\n${spec.errors
      .map((e) => `  ${e.code}: ${JSON.stringify(`${e.name}: ${e.msg}`)},`)
      .join('\n')}\n};`,
    '',
  );
  return out.join('\n');
}

function genIds(ids: Record<string, string>): { c: string; ts: string } {
  const c = [
    '/* Generated from programs/ids.json by programs/tools/gen.ts. Do not edit. */',
    '#ifndef ZX_GEN_IDS_H',
    '#define ZX_GEN_IDS_H',
  ];
  for (const [n, id] of Object.entries(ids))
    c.push(`/* ${id} */`, `#define ZX_${upper(n)}_PROGRAM_ID {{${hexBytes(new PublicKey(id).toBytes())}}}`);
  c.push('#endif', '');
  const ts = [
    '// Generated from programs/ids.json by programs/tools/gen.ts. Do not edit.',
    "import { PublicKey } from '@solana/web3.js';",
    '',
    '/** Program ids (programs/ids.json: sha256("zerox1:<name>") as an address). */',
    `export const PROGRAM_IDS = {\n${Object.entries(ids)
      .map(([n, id]) => `  ${camel(n)}: new PublicKey('${id}'),`)
      .join('\n')}\n} as const;`,
    '',
  ];
  return { c: c.join('\n'), ts: ts.join('\n') };
}

/** constants.h: every integer constant of lib/protocol/constants.ts as ZX_<NAME> (one source for both sides). */
function genConstants(): string {
  const c = [
    '/* Generated from lib/protocol/constants.ts by programs/tools/gen.ts. Do not edit. */',
    '#ifndef ZX_GEN_CONSTANTS_H',
    '#define ZX_GEN_CONSTANTS_H',
  ];
  for (const [k, v] of Object.entries(constants).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if ((typeof v === 'number' && Number.isInteger(v) && v >= 0) || (typeof v === 'bigint' && v >= 0n))
      c.push(`#define ZX_${k} ${v}ULL`);
  }
  c.push('#endif', '');
  return c.join('\n');
}

/** Loads every programs/<name>/program.json (sorted by name). */
export function loadSpecs(): ProgramSpec[] {
  return readdirSync(PROGRAMS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(PROGRAMS_DIR, d.name, 'program.json')))
    .map((d) => d.name)
    .sort()
    .map((n) => {
      const s = JSON.parse(readFileSync(join(PROGRAMS_DIR, n, 'program.json'), 'utf8')) as ProgramSpec;
      if (s.name !== n) throw new Error(`programs/${n}/program.json names itself ${s.name}`);
      s.pdas ??= [];
      s.accounts ??= [];
      s.events ??= [];
      s.errors ??= [];
      s.instructions ??= [];
      for (const i of s.instructions) {
        i.args ??= [];
        i.accounts ??= [];
      }
      validateSpec(s);
      return s;
    });
}

/** Every generated file: path → contents. */
export function generateAll(): Map<string, string> {
  const ids = JSON.parse(readFileSync(join(PROGRAMS_DIR, 'ids.json'), 'utf8')) as Record<string, string>;
  const files = new Map<string, string>();
  const g = genIds(ids);
  files.set(join(C_OUT, 'ids.h'), g.c);
  files.set(join(TS_OUT, 'ids.ts'), g.ts);
  files.set(join(C_OUT, 'constants.h'), genConstants());
  for (const s of loadSpecs()) {
    const id = s.id ?? ids[s.name];
    if (!id) throw new Error(`programs/ids.json has no id for ${s.name}`);
    files.set(join(C_OUT, `${s.name}.h`), genC(s));
    files.set(join(TS_OUT, `${s.name}.ts`), genTs(s, { ...ids, [s.name]: id }));
  }
  return files;
}

function main(argv: string[]): number {
  const check = argv.includes('--check');
  let bad = 0;
  for (const [path, text] of generateAll()) {
    const rel = path.slice(ROOT.length).replace(/^\//, '');
    if (check) {
      const same = existsSync(path) && readFileSync(path, 'utf8') === text;
      if (!same) {
        console.error(`out of date: ${rel} (run npm run gen:programs)`);
        bad++;
      }
    } else {
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, text);
      console.log(`wrote ${rel}`);
    }
  }
  return bad ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  process.exitCode = main(process.argv.slice(2));
