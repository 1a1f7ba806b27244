/**
 * The project's own link step (no Solana toolchain is reachable here, see programs/README.md):
 * one BPF relocatable object (clang-19 output) in, one SBPF v0 ("legacy") shared object out.
 * ET_DYN, EM_BPF, e_flags 0; every section address equals its file offset; internal calls and
 * rodata addresses are resolved here; each syscall call stays `call -1` with an R_BPF_64_32
 * dynamic relocation against a .dynsym entry of that name, which the loader replaces by
 * murmur3(name). No writable sections. Output depends only on the input bytes, so rebuilds are
 * byte-identical.
 */

import { BaseError } from '../../../lib/protocol/errors';
import { OPCODE_ALLOWLIST, SYSCALLS } from './syscalls';

const MM_PROGRAM_START = 0x1_0000_0000n;
const SHT_SYMTAB = 2,
  SHT_STRTAB = 3,
  SHT_REL = 9,
  SHT_NOBITS = 8,
  SHT_DYNSYM = 11,
  SHT_DYNAMIC = 6;
const SHF_WRITE = 1n,
  SHF_ALLOC = 2n,
  SHF_EXEC = 4n;
const R_BPF_64_64 = 1,
  R_BPF_64_ABS64 = 2,
  R_BPF_64_32 = 10;

export class LinkError extends BaseError {
  override name = 'LinkError';
}

interface InSection {
  index: number;
  name: string;
  type: number;
  flags: bigint;
  offset: number;
  size: number;
  align: number;
  link: number;
  info: number;
}
interface InSymbol {
  name: string;
  value: number;
  shndx: number;
  type: number;
}

function readObject(buf: Uint8Array) {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (buf[0] !== 0x7f || buf[1] !== 0x45 || buf[2] !== 0x4c || buf[3] !== 0x46) throw new LinkError('input is not ELF');
  if (buf[4] !== 2 || buf[5] !== 1) throw new LinkError('input is not ELF64 little-endian');
  if (dv.getUint16(16, true) !== 1) throw new LinkError('input is not a relocatable object (ET_REL)');
  if (dv.getUint16(18, true) !== 247) throw new LinkError('input is not EM_BPF');
  const shoff = Number(dv.getBigUint64(40, true));
  const shnum = dv.getUint16(60, true);
  const shstrndx = dv.getUint16(62, true);
  const raw: Omit<InSection, 'name'>[] & { nameOff: number }[] = [];
  for (let i = 0; i < shnum; i++) {
    const o = shoff + i * 64;
    raw.push({
      index: i,
      nameOff: dv.getUint32(o, true),
      type: dv.getUint32(o + 4, true),
      flags: dv.getBigUint64(o + 8, true),
      offset: Number(dv.getBigUint64(o + 24, true)),
      size: Number(dv.getBigUint64(o + 32, true)),
      link: dv.getUint32(o + 40, true),
      info: dv.getUint32(o + 44, true),
      align: Number(dv.getBigUint64(o + 48, true)) || 1,
    } as never);
  }
  const cstr = (off: number) => {
    let e = off;
    while (buf[e] !== 0) e++;
    return new TextDecoder().decode(buf.subarray(off, e));
  };
  const shstr = raw[shstrndx] as unknown as InSection;
  const sections: InSection[] = raw.map((s) => ({
    ...(s as unknown as InSection),
    name: cstr(shstr.offset + (s as unknown as { nameOff: number }).nameOff),
  }));
  const symtab = sections.find((s) => s.type === SHT_SYMTAB);
  const symbols: InSymbol[] = [];
  if (symtab) {
    const strtab = sections[symtab.link];
    for (let o = symtab.offset; o < symtab.offset + symtab.size; o += 24) {
      symbols.push({
        name: cstr(strtab.offset + dv.getUint32(o, true)),
        type: buf[o + 4] & 0xf,
        shndx: dv.getUint16(o + 6, true),
        value: Number(dv.getBigUint64(o + 8, true)),
      });
    }
  }
  return { dv, sections, symbols };
}

const align = (n: number, a: number) => Math.ceil(n / a) * a;

export interface LinkResult {
  so: Uint8Array;
  syscalls: string[];
  textBytes: number;
  rodataBytes: number;
}

/**
 * Links one relocatable BPF object into an SBPF v0 shared object; throws LinkError on anything outside the supported
 * subset.
 */
export function link(obj: Uint8Array, entry = 'entrypoint'): LinkResult {
  const { dv, sections, symbols } = readObject(obj);
  for (const s of sections) {
    if (!(s.flags & SHF_ALLOC) || s.size === 0) continue;
    if (s.flags & SHF_WRITE || s.type === SHT_NOBITS)
      throw new LinkError(`writable section ${s.name} (mutable globals are not supported in SBPF v0)`);
  }
  const textIn = sections.filter((s) => s.flags & SHF_ALLOC && s.flags & SHF_EXEC && s.size > 0);
  const roIn = sections.filter((s) => s.flags & SHF_ALLOC && !(s.flags & SHF_EXEC) && s.size > 0);

  // Layout: ELF header, 3 program headers, .text, .rodata, .dynsym, .dynstr, .rel.dyn, .dynamic, .shstrtab, section
  // headers.
  const phnum = 3;
  const base = new Map<number, number>(); // input section index -> output file offset
  let off = align(64 + 56 * phnum, 8);
  const textOff = off;
  for (const s of textIn) {
    off = align(off, 8);
    base.set(s.index, off);
    off += s.size;
  }
  const textEnd = off;
  off = align(off, 8);
  const roOff = off;
  for (const s of roIn) {
    off = align(off, s.align);
    base.set(s.index, off);
    off += s.size;
  }
  const roEnd = off;
  const out = new Uint8Array(roEnd);
  for (const s of [...textIn, ...roIn]) out.set(obj.subarray(s.offset, s.offset + s.size), base.get(s.index)!);
  const odv = new DataView(out.buffer);

  const symAddr = (sym: InSymbol) => {
    const b = base.get(sym.shndx);
    if (b === undefined)
      throw new LinkError(`symbol ${sym.name || '(section)'} lives in an unsupported section ${sym.shndx}`);
    return b + sym.value;
  };
  const syscalls: string[] = [];
  const dynRels: { at: number; sym: number }[] = [];
  for (const rel of sections.filter((s) => s.type === SHT_REL)) {
    const target = sections[rel.info];
    const tb = base.get(target.index);
    if (tb === undefined) continue; // relocations of non-loaded sections (debug info)
    const isText = Boolean(target.flags & SHF_EXEC);
    for (let o = rel.offset; o < rel.offset + rel.size; o += 16) {
      const rOff = Number(dv.getBigUint64(o, true));
      const info = dv.getBigUint64(o + 8, true);
      const type = Number(info & 0xffffffffn);
      const sym = symbols[Number(info >> 32n)];
      const at = tb + rOff;
      if (isText && type === R_BPF_64_64) {
        const addend = odv.getUint32(at + 4, true);
        const addr = MM_PROGRAM_START + BigInt(symAddr(sym) + addend);
        odv.setUint32(at + 4, Number(addr & 0xffffffffn), true);
        odv.setUint32(at + 12, Number(addr >> 32n), true);
      } else if (isText && type === R_BPF_64_32) {
        if (sym.shndx === 0) {
          if (!SYSCALLS.includes(sym.name)) throw new LinkError(`unknown syscall or undefined symbol "${sym.name}"`);
          let idx = syscalls.indexOf(sym.name);
          if (idx < 0) {
            syscalls.push(sym.name);
            idx = syscalls.length - 1;
          }
          odv.setInt32(at + 4, -1, true);
          out[at + 1] &= 0x0f; // src = 0: a syscall, not a pc-relative call
          dynRels.push({ at, sym: idx + 1 });
        } else {
          if (odv.getInt32(at + 4, true) !== -1)
            throw new LinkError(`call relocation with an addend at 0x${at.toString(16)}`);
          const targetOff = symAddr(sym);
          if (!base.has(sym.shndx) || !(sections[sym.shndx].flags & SHF_EXEC))
            throw new LinkError(`call to non-code symbol ${sym.name}`);
          odv.setInt32(at + 4, (targetOff - at) / 8 - 1, true);
        }
      } else if (!isText && type === R_BPF_64_ABS64) {
        const addend = odv.getBigUint64(at, true);
        odv.setBigUint64(at, MM_PROGRAM_START + BigInt(symAddr(sym)) + addend, true);
      } else {
        throw new LinkError(`unsupported relocation type ${type} in ${target.name} at 0x${rOff.toString(16)}`);
      }
    }
  }
  checkOpcodes(out, textOff, textEnd);

  const entrySym = symbols.find((s) => s.name === entry && s.shndx !== 0);
  if (!entrySym) throw new LinkError(`no ${entry} symbol`);
  const entryAddr = symAddr(entrySym);

  // Dynamic tables.
  const enc = new TextEncoder();
  const dynstrParts: number[] = [0];
  const nameOffs = syscalls.map((n) => {
    const at = dynstrParts.length;
    dynstrParts.push(...enc.encode(n), 0);
    return at;
  });
  const dynstr = Uint8Array.from(dynstrParts);
  const dynsym = new Uint8Array(24 * (syscalls.length + 1));
  const sdv = new DataView(dynsym.buffer);
  nameOffs.forEach((no, i) => {
    sdv.setUint32(24 * (i + 1), no, true);
    dynsym[24 * (i + 1) + 4] = 0x10; /* GLOBAL NOTYPE, undefined */
  });
  const relDyn = new Uint8Array(16 * dynRels.length);
  const rdv = new DataView(relDyn.buffer);
  dynRels.forEach((r, i) => {
    rdv.setBigUint64(16 * i, BigInt(r.at), true);
    rdv.setBigUint64(16 * i + 8, (BigInt(r.sym) << 32n) | BigInt(R_BPF_64_32), true);
  });

  let o2 = align(roEnd, 8);
  const dynsymOff = o2;
  o2 += dynsym.length;
  const dynstrOff = o2;
  o2 += dynstr.length;
  o2 = align(o2, 8);
  const relOff = o2;
  o2 += relDyn.length;
  o2 = align(o2, 8);
  const dynEntries: [bigint, bigint][] = [
    [6n, BigInt(dynsymOff)],
    [11n, 24n],
    [5n, BigInt(dynstrOff)],
    [10n, BigInt(dynstr.length)],
  ];
  if (relDyn.length)
    dynEntries.push(
      [17n, BigInt(relOff)],
      [18n, BigInt(relDyn.length)],
      [19n, 16n],
      [0x1en, 4n] /* DT_FLAGS = TEXTREL */,
    );
  dynEntries.push([0n, 0n]);
  const dynamic = new Uint8Array(16 * dynEntries.length);
  const ddv = new DataView(dynamic.buffer);
  dynEntries.forEach(([t, v], i) => {
    ddv.setBigUint64(16 * i, t, true);
    ddv.setBigUint64(16 * i + 8, v, true);
  });
  const dynamicOff = o2;
  o2 += dynamic.length;
  const loadEnd = o2;

  const outSecs: {
    name: string;
    type: number;
    flags: bigint;
    off: number;
    size: number;
    align: number;
    link?: number;
    info?: number;
    entsize?: number;
  }[] = [];
  outSecs.push({
    name: '.text',
    type: 1,
    flags: SHF_ALLOC | SHF_EXEC,
    off: textOff,
    size: textEnd - textOff,
    align: 8,
  });
  if (roEnd > roOff)
    outSecs.push({ name: '.rodata', type: 1, flags: SHF_ALLOC, off: roOff, size: roEnd - roOff, align: 8 });
  const dynsymIdx = outSecs.length + 1;
  outSecs.push({
    name: '.dynsym',
    type: SHT_DYNSYM,
    flags: SHF_ALLOC,
    off: dynsymOff,
    size: dynsym.length,
    align: 8,
    link: dynsymIdx + 1,
    info: 1,
    entsize: 24,
  });
  outSecs.push({ name: '.dynstr', type: SHT_STRTAB, flags: SHF_ALLOC, off: dynstrOff, size: dynstr.length, align: 1 });
  if (relDyn.length)
    outSecs.push({
      name: '.rel.dyn',
      type: SHT_REL,
      flags: SHF_ALLOC,
      off: relOff,
      size: relDyn.length,
      align: 8,
      link: dynsymIdx,
      entsize: 16,
    });
  outSecs.push({
    name: '.dynamic',
    type: SHT_DYNAMIC,
    flags: SHF_ALLOC,
    off: dynamicOff,
    size: dynamic.length,
    align: 8,
    link: dynsymIdx + 1,
    entsize: 16,
  });
  const shstrParts: number[] = [0];
  const shNames = [...outSecs.map((s) => s.name), '.shstrtab'].map((n) => {
    const at = shstrParts.length;
    shstrParts.push(...enc.encode(n), 0);
    return at;
  });
  const shstrtab = Uint8Array.from(shstrParts);
  outSecs.push({ name: '.shstrtab', type: SHT_STRTAB, flags: 0n, off: loadEnd, size: shstrtab.length, align: 1 });
  const shoff = align(loadEnd + shstrtab.length, 8);
  const total = shoff + 64 * (outSecs.length + 1);

  const so = new Uint8Array(total);
  so.set(out.subarray(0, roEnd));
  so.set(dynsym, dynsymOff);
  so.set(dynstr, dynstrOff);
  so.set(relDyn, relOff);
  so.set(dynamic, dynamicOff);
  so.set(shstrtab, loadEnd);
  const v = new DataView(so.buffer);
  so.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]);
  v.setUint16(16, 3, true); // ET_DYN
  v.setUint16(18, 247, true); // EM_BPF
  v.setUint32(20, 1, true);
  v.setBigUint64(24, BigInt(entryAddr), true);
  v.setBigUint64(32, 64n, true);
  v.setBigUint64(40, BigInt(shoff), true);
  v.setUint32(48, 0, true); // e_flags 0: SBPF v0
  v.setUint16(52, 64, true);
  v.setUint16(54, 56, true);
  v.setUint16(56, phnum, true);
  v.setUint16(58, 64, true);
  v.setUint16(60, outSecs.length + 1, true);
  v.setUint16(62, outSecs.length, true);
  const ph = (i: number, type: number, flags: number, offset: number, size: number, al: number) => {
    const o = 64 + 56 * i;
    v.setUint32(o, type, true);
    v.setUint32(o + 4, flags, true);
    v.setBigUint64(o + 8, BigInt(offset), true);
    v.setBigUint64(o + 16, BigInt(offset), true);
    v.setBigUint64(o + 24, BigInt(offset), true);
    v.setBigUint64(o + 32, BigInt(size), true);
    v.setBigUint64(o + 40, BigInt(size), true);
    v.setBigUint64(o + 48, BigInt(al), true);
  };
  ph(0, 1, 5, textOff, textEnd - textOff, 8); // PT_LOAD R+X
  ph(1, 1, 4, roOff, loadEnd - roOff, 8); // PT_LOAD R
  ph(2, 2, 4, dynamicOff, dynamic.length, 8); // PT_DYNAMIC
  outSecs.forEach((s, i) => {
    const o = shoff + 64 * (i + 1);
    v.setUint32(o, shNames[i], true);
    v.setUint32(o + 4, s.type, true);
    v.setBigUint64(o + 8, s.flags, true);
    v.setBigUint64(o + 16, s.flags & SHF_ALLOC ? BigInt(s.off) : 0n, true);
    v.setBigUint64(o + 24, BigInt(s.off), true);
    v.setBigUint64(o + 32, BigInt(s.size), true);
    v.setUint32(o + 40, s.link ?? 0, true);
    v.setUint32(o + 44, s.info ?? 0, true);
    v.setBigUint64(o + 48, BigInt(s.align), true);
    v.setBigUint64(o + 56, BigInt(s.entsize ?? 0), true);
  });
  return { so, syscalls, textBytes: textEnd - textOff, rodataBytes: roEnd - roOff };
}

/** Fails on any opcode outside the SBPF v0 allowlist, or a malformed lddw pair. */
export function checkOpcodes(buf: Uint8Array, start: number, end: number): void {
  for (let o = start; o < end; o += 8) {
    const op = buf[o];
    if (!OPCODE_ALLOWLIST.has(op))
      throw new LinkError(
        `opcode 0x${op.toString(16).padStart(2, '0')} at text+0x` +
          `${(o - start).toString(16)} is outside the SBPF v0 allowlist`,
      );
    if (op === 0x18) {
      if (o + 8 >= end || buf[o + 8] !== 0)
        throw new LinkError(`lddw at text+0x${(o - start).toString(16)} lacks its second half`);
      o += 8;
    }
  }
}
