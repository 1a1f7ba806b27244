/**
 * A small leveled console logger for the server process (one line per record, ISO time, scope).
 * LOG_LEVEL = debug | info | warn | error (default info).
 */
export interface Logger {
  debug(msg: string, ...args: unknown[]): void;
  info(msg: string, ...args: unknown[]): void;
  warn(msg: string, ...args: unknown[]): void;
  error(msg: string, ...args: unknown[]): void;
  child(scope: string): Logger;
}

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
type Level = keyof typeof LEVELS;

function threshold(): number {
  const raw = (process.env.LOG_LEVEL ?? 'info').toLowerCase();
  return raw in LEVELS ? LEVELS[raw as Level] : LEVELS.info;
}

export function createLogger(scope: string): Logger {
  const min = threshold();
  const emit = (level: Level) => (msg: string, ...args: unknown[]) => {
    if (LEVELS[level] < min) return;
    const line = `${new Date().toISOString()} ${level.padEnd(5)} [${scope}] ${msg}`;
    (level === 'error' || level === 'warn' ? console.error : console.log)(line, ...args);
  };
  return {
    debug: emit('debug'),
    info: emit('info'),
    warn: emit('warn'),
    error: emit('error'),
    child: (sub) => createLogger(`${scope}:${sub}`),
  };
}
