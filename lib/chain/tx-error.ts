/**
 * Decoding a failed transaction into the program error that caused it, in the browser as on the
 * server: a custom program error code from the transaction error JSON
 * (`{ InstructionError: [i, { Custom: n }] }`) or from the log lines
 * (`custom program error: 0x…`), named through the generated ERROR_MESSAGES of the four programs
 * (docs/architecture.md, lib/chain). lib/chain/node/send.ts builds its ChainTransactionError
 * messages with it; a wallet UI can show the same text.
 */
import { programErrorMessage } from './programs';

/** A decoded transaction failure. */
export interface DecodedTransactionError {
  /** The custom program error code, or null when the failure is not a custom program error. */
  code: number | null;
  /** The error's name from the program description (e.g. `WindowClosed`), or null when unknown. */
  name: string | null;
  /** One line for people: `custom program error 16390 (MissingSigner: …)` or the raw error JSON. */
  message: string;
}

/** The custom program error code in a transaction error JSON ({ InstructionError: [i, { Custom: n }] }), or null. */
export function customErrorCode(err: unknown): number | null {
  const ie = (err as { InstructionError?: unknown } | null)?.InstructionError;
  if (!Array.isArray(ie) || ie.length !== 2) return null;
  const c = (ie[1] as { Custom?: unknown } | null)?.Custom;
  return typeof c === 'number' ? c : null;
}

/** The first `custom program error: 0x…` code in a transaction's log lines, or null. */
export function customErrorCodeFromLogs(logs: readonly string[] | null | undefined): number | null {
  if (!Array.isArray(logs)) return null;
  for (const l of logs) {
    if (typeof l !== 'string') continue;
    const m = /custom program error: 0x([0-9a-f]+)/i.exec(l);
    if (m) return parseInt(m[1], 16);
  }
  return null;
}

/** Name and message of a custom program error code of any Zerox1 program (`name: text`). */
export function describeProgramError(code: number): { name: string | null; message: string } {
  const text = programErrorMessage(code);
  const name = text ? text.split(':', 1)[0] : null;
  return { name, message: `custom program error ${code} (${text ?? 'unknown'})` };
}

/**
 * Decodes a transaction failure from its error JSON and/or its logs (either may be absent). The
 * error JSON wins over the logs: the logs may also hold errors of inner instructions.
 */
export function decodeTransactionError(err: unknown, logs?: readonly string[] | null): DecodedTransactionError {
  const code = customErrorCode(err) ?? customErrorCodeFromLogs(logs);
  if (code !== null) return { code, ...describeProgramError(code) };
  return { code: null, name: null, message: err === undefined || err === null ? 'unknown error' : JSON.stringify(err) };
}
