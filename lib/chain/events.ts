/**
 * Event-log parser (programs/README.md "Events"): every state change of the Zerox1 programs is one
 * sol_log_data record [8-byte discriminator, fields], logged as "Program data: <base64>". This
 * walks a transaction's log lines, tracks which program is executing (invoke / success / failed
 * lines, so CPI depth is handled) and decodes the records of our programs. Hostile or foreign
 * lines never throw: they are skipped.
 */
import type { PublicKey } from '@solana/web3.js';
import * as behaviorLog from './gen/behavior_log';
import * as challenge from './gen/challenge';
import * as haggle from './gen/haggle';
import { PROGRAM_IDS } from './gen/ids';
import * as lease from './gen/lease';
import * as stakeLock from './gen/stake_lock';

export type ProgramName = 'lease' | 'stakeLock' | 'behaviorLog' | 'challenge' | 'haggle';

export type ProgramEvent =
  | { program: 'lease'; event: lease.Event }
  | { program: 'stakeLock'; event: stakeLock.Event }
  | { program: 'behaviorLog'; event: behaviorLog.Event }
  | { program: 'challenge'; event: challenge.Event }
  | { program: 'haggle'; event: haggle.Event };

const DECODERS: Record<ProgramName, (d: Uint8Array) => unknown> = {
  lease: lease.decodeEvent,
  stakeLock: stakeLock.decodeEvent,
  behaviorLog: behaviorLog.decodeEvent,
  challenge: challenge.decodeEvent,
  haggle: haggle.decodeEvent,
};
const BY_ID = new Map<string, ProgramName>(
  Object.entries(PROGRAM_IDS).map(([n, id]) => [(id as PublicKey).toBase58(), n as ProgramName]),
);
const INVOKE = /^Program (\w+) invoke \[\d+\]$/;
const EXIT = /^Program (\w+) (success|failed)/;
const DATA = 'Program data: ';

/** Decodes every Zerox1 event in `logs` (a transaction's log messages), in emission order. */
export function parseEvents(logs: readonly string[], ids: ReadonlyMap<string, ProgramName> = BY_ID): ProgramEvent[] {
  const stack: string[] = [];
  const out: ProgramEvent[] = [];
  for (const line of logs) {
    if (typeof line !== 'string') continue;
    const inv = INVOKE.exec(line);
    if (inv) {
      stack.push(inv[1]);
      continue;
    }
    if (EXIT.test(line)) {
      stack.pop();
      continue;
    }
    if (!line.startsWith(DATA) || stack.length === 0) continue;
    const program = ids.get(stack[stack.length - 1]);
    if (!program) continue;
    const parts = line.slice(DATA.length).split(' ');
    if (parts.length !== 1) continue; // our programs log one slice per event
    const bytes = decodeBase64(parts[0]);
    if (!bytes) continue;
    const event = DECODERS[program](bytes);
    if (event) out.push({ program, event } as ProgramEvent);
  }
  return out;
}

function decodeBase64(s: string): Uint8Array | null {
  if (s.length === 0 || s.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(s)) return null;
  // atob exists in browsers and in Node >= 16; no Buffer, so the parser runs in a client bundle.
  let bin: string;
  try {
    bin = atob(s);
  } catch {
    return null;
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
