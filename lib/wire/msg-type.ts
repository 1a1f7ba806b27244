/**
 * msg_type names (docs/protocol.md, envelope header): one function for the server's events and
 * views and the browser's tables, so both show the same name for the same code.
 */
import { MsgType } from '../protocol/types';

const NAMES = new Map<number, string>(Object.entries(MsgType).map(([name, code]) => [code, name]));

/**
 * Name of a msg_type: 'PROPOSE' for 0x03; an unknown code as two-digit hex (`0x0e`). A decimal
 * string is read as its code (store counts are keyed by code text); any other string is taken
 * as a name and upper-cased; anything else is '?'.
 */
export function msgTypeName(code: number | string | null | undefined): string {
  if (typeof code === 'string') {
    if (/^\d+$/.test(code)) return msgTypeName(Number(code));
    return code.toUpperCase();
  }
  if (typeof code !== 'number' || !Number.isInteger(code) || code < 0) return '?';
  return NAMES.get(code) ?? `0x${code.toString(16).padStart(2, '0')}`;
}

/** Every msg_type name in code order (for stable count tables). */
export const MSG_TYPE_NAMES: readonly string[] = Object.entries(MsgType)
  .sort((a, b) => a[1] - b[1])
  .map(([name]) => name);
