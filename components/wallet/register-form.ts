/**
 * The "Register an agent" form's check, run in the browser before anything is signed: SATI's
 * register_agent refuses a name over 32 bytes, a symbol over 10 and a uri over 200 (bytes of
 * UTF-8, so "é" counts 2), and a registration file is only ever read from http(s) or data: (docs/chain.md
 * "Registration file"). Pure: unit-tested in register-form.test.ts.
 */
import { type RegisterAgentArgs, SATI_LIMITS } from '../../lib/chain/sati';

export interface RegisterFormInput {
  name: string;
  symbol: string;
  uri: string;
  nonTransferable: boolean;
}

export type RegisterFormField = 'name' | 'symbol' | 'uri';

export type RegisterFormCheck =
  | { ok: true; args: RegisterAgentArgs }
  | { ok: false; errors: Partial<Record<RegisterFormField, string>> };

const utf8 = new TextEncoder();
const bytes = (s: string) => utf8.encode(s).length;

function tooLong(what: string, s: string, max: number): string | null {
  const n = bytes(s);
  if (n <= max) return null;
  const chars = [...s].length;
  return (
    `${what} is ${n} bytes of UTF-8${chars !== n ? ` (${chars} characters)` : ''}` +
    `; SATI allows at most ${max} bytes`
  );
}

function uriProblem(uri: string): string | null {
  if (uri === '') return null;
  const long = tooLong('The uri', uri, SATI_LIMITS.uri);
  if (long) return long;
  if (/\s/.test(uri)) return 'The uri must not contain spaces or line breaks';
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return 'The uri is not a URL: use https://…, http://… or data:…';
  }
  if (u.protocol === 'data:') return null;
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    return `The uri's scheme ${u.protocol} is not read by observers: use https://, http:// or data:`;
  if (!u.hostname) return 'The uri names no host';
  return null;
}

/** Checks the form; trims name, symbol and uri (leading/trailing spaces would be stored on chain). */
export function checkRegisterForm(f: RegisterFormInput): RegisterFormCheck {
  const name = String(f?.name ?? '').trim();
  const symbol = String(f?.symbol ?? '').trim();
  const uri = String(f?.uri ?? '').trim();
  const errors: Partial<Record<RegisterFormField, string>> = {};
  const n = name === '' ? 'Give the agent a name' : tooLong('The name', name, SATI_LIMITS.name);
  if (n) errors.name = n;
  const s = tooLong('The symbol', symbol, SATI_LIMITS.symbol);
  if (s) errors.symbol = s;
  const u = uriProblem(uri);
  if (u) errors.uri = u;
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, args: { name, symbol, uri, nonTransferable: f.nonTransferable === true } };
}
