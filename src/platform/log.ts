/**
 * A small structured logger: one JSON line per record on stdout/stderr. Secrets never reach it:
 * callers pass redacted URLs (see redactUrl) and never pass keys.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export function createLogger(level: LogLevel, now: () => Date = () => new Date()): Logger {
  const emit = (at: LogLevel, msg: string, fields?: Record<string, unknown>): void => {
    if (ORDER[at] < ORDER[level]) return;
    const line = JSON.stringify({ t: now().toISOString(), level: at, msg, ...fields });
    (at === 'error' || at === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}

export const silentLogger: Logger = createLogger('silent');

/** Replaces the value of credential-bearing query parameters (`key`) with `[REDACTED]`. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:key|api_key)=)[^&#]*/gi, '$1[REDACTED]');
}
