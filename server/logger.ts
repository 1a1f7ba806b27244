/**
 * A small leveled console logger for the server process (one line per record, ISO time, scope).
 * The level comes from the checked configuration (LOG_LEVEL).
 */
export interface Logger {
  debug(msg: string, ...args: unknown[]): void;
  info(msg: string, ...args: unknown[]): void;
  warn(msg: string, ...args: unknown[]): void;
  error(msg: string, ...args: unknown[]): void;
  child(scope: string): Logger;
}

/** The levels LOG_LEVEL accepts, least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** A logger for `scope` writing records at `level` and above (warn and error to stderr). */
export function createLogger(scope: string, level: LogLevel = 'info'): Logger {
  const min = RANK[level];
  if (min === undefined)
    throw new RangeError(`level must be one of ${LOG_LEVELS.join(', ')} (got ${JSON.stringify(level)})`);
  const emit =
    (l: LogLevel) =>
    (msg: string, ...args: unknown[]) => {
      if (RANK[l] < min) return;
      const line = `${new Date().toISOString()} ${l.padEnd(5)} [${scope}] ${msg}`;
      (l === 'error' || l === 'warn' ? console.error : console.log)(line, ...args);
    };
  return {
    debug: emit('debug'),
    info: emit('info'),
    warn: emit('warn'),
    error: emit('error'),
    child: (sub) => createLogger(`${scope}:${sub}`, level),
  };
}
