/**
 * The C layouts (programs/include/gen/*.h) and the TS codecs (lib/chain/gen/*.ts) agree byte for
 * byte: for every account, event and instruction of every program.json, a host C program built
 * with the generated headers fills the struct with sample values and prints its bytes, and the
 * generated TS encoder must produce the same bytes (and decode them back to the same values).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { PublicKey } from '@solana/web3.js';
import { type FieldSpec, fieldSize } from '../../lib/chain/codec';
import { CLANG, PROGRAMS_DIR, toolchainAvailable } from './build';
import { camel, loadSpecs, type ProgramSpec, pascal, upper } from './gen';

/** Deterministic sample bytes: a tiny LCG so the C and TS sides see the same values. */
function sampler(seed: number) {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x >>> 24;
  };
}

interface Sample {
  cName: string;
  cDisc: string | null;
  tag: number | null;
  fields: FieldSpec[];
  ts: Record<string, unknown>;
  cAssign: string[];
  encode: (m: Record<string, unknown>) => Uint8Array;
  decode: (m: Record<string, unknown>, b: Uint8Array) => unknown;
}

function sampleValues(fields: FieldSpec[], seed: number) {
  const next = sampler(seed);
  const ts: Record<string, unknown> = {};
  const c: string[] = [];
  for (const f of fields) {
    const n = fieldSize(f.type);
    const bytes = Uint8Array.from({ length: n }, next);
    if (f.type.startsWith('pad')) continue;
    const le = (b: Uint8Array) => b.reduceRight((acc, x) => (acc << 8n) | BigInt(x), 0n);
    switch (f.type) {
      case 'u8':
      case 'u16':
      case 'u32':
        ts[camel(f.name)] = Number(le(bytes));
        c.push(`v.${f.name} = ${le(bytes)}U;`);
        break;
      case 'u64':
        ts[camel(f.name)] = le(bytes);
        c.push(`v.${f.name} = ${le(bytes)}ULL;`);
        break;
      case 'i64': {
        const v = BigInt.asIntN(64, le(bytes));
        ts[camel(f.name)] = v;
        c.push(`v.${f.name} = (int64_t)${BigInt.asUintN(64, v)}ULL;`);
        break;
      }
      default:
        ts[camel(f.name)] = f.type === 'pubkey' ? new PublicKey(bytes) : bytes;
        c.push(
          `{ static const uint8_t b[${n}] = {${[...bytes].join(',')}}; __builtin_memcpy(&v.${f.name}, b, ${n}); }`,
        );
    }
  }
  return { ts, c };
}

function samples(spec: ProgramSpec): Sample[] {
  const P = upper(spec.name);
  const out: Sample[] = [];
  let seed = 1;
  for (const a of spec.accounts) {
    const { ts, c } = sampleValues(a.fields, seed++);
    out.push({
      cName: `${spec.name}_${a.name}`,
      cDisc: `${P}_${upper(a.name)}_DISC`,
      tag: null,
      fields: a.fields,
      ts,
      cAssign: c,
      encode: (m) => (m[`encode${a.name}`] as (v: unknown) => Uint8Array)(ts),
      decode: (m, b) => (m[`decode${a.name}`] as (b: Uint8Array) => unknown)(b),
    });
  }
  for (const e of spec.events) {
    const { ts, c } = sampleValues(e.fields, seed++);
    out.push({
      cName: `${spec.name}_ev_${e.name}`,
      cDisc: `${P}_EV_${upper(e.name)}_DISC`,
      tag: null,
      fields: e.fields,
      ts,
      cAssign: c,
      encode: (m) => (m[`encode${e.name}Event`] as (v: unknown) => Uint8Array)(ts),
      decode: (m, b) => (m.decodeEvent as (b: Uint8Array) => { data: unknown } | null)(b)?.data,
    });
  }
  for (const ix of spec.instructions) {
    const { ts, c } = sampleValues(ix.args, seed++);
    out.push({
      cName: `${spec.name}_${ix.name}_ix`,
      cDisc: null,
      tag: ix.tag,
      fields: ix.args,
      ts,
      cAssign: c,
      encode: (m) => (m[`encode${pascal(ix.name)}Args`] as (v: unknown) => Uint8Array)(ts),
      decode: (m, b) => (m[`decode${pascal(ix.name)}Args`] as (b: Uint8Array) => unknown)(b),
    });
  }
  return out;
}

function hostBytes(spec: ProgramSpec, list: Sample[]): string[] {
  const blocks = list.map((s) =>
    [
      `  { ${s.cName} v; __builtin_memset(&v, 0, sizeof v);`,
      s.cDisc ? `    v.discriminator = ${s.cDisc};` : `    v.tag = ${s.tag};`,
      ...s.cAssign.map((l) => `    ${l}`),
      '    dump((const uint8_t *)&v, sizeof v); }',
    ].join('\n'),
  );
  const src = [
    '#include "zerox1.h"',
    `#include "${spec.name}.h"`,
    'int printf(const char *, ...);',
    'static void dump(const uint8_t *p, unsigned long n) { for (unsigned ' +
      'long i = 0; i < n; i++) printf("%02x", p[i]); printf("\\n"); }',
    'int main(void) {',
    ...blocks,
    '  return 0;',
    '}',
    '',
  ].join('\n');
  const dir = mkdtempSync(join(tmpdir(), 'zx-layout-'));
  try {
    writeFileSync(join(dir, 'host.c'), src);
    execFileSync(CLANG, [
      '-O0',
      '-w',
      '-I',
      join(PROGRAMS_DIR, 'include'),
      '-I',
      join(PROGRAMS_DIR, 'include', 'gen'),
      join(dir, 'host.c'),
      '-o',
      join(dir, 'host'),
    ]);
    return execFileSync(join(dir, 'host'), { encoding: 'utf8' }).trim().split('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const skip = toolchainAvailable() ? false : 'clang-19 not installed';

describe('C layouts and TS codecs agree byte for byte', () => {
  for (const spec of loadSpecs()) {
    test(`${spec.name}: every account, event and instruction`, { skip }, async () => {
      const mod = (await import(`../../lib/chain/gen/${spec.name}`)) as Record<string, unknown>;
      const list = samples(spec);
      const c = hostBytes(spec, list);
      assert.equal(c.length, list.length);
      list.forEach((s, i) => {
        const bytes = s.encode(mod);
        assert.equal(Buffer.from(bytes).toString('hex'), c[i], `${s.cName} bytes`);
        assert.deepEqual(s.decode(mod, bytes), s.ts, `${s.cName} decode`);
      });
    });
  }
});
