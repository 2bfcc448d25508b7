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
  /**
   * Whether a record at `level` would be written. Optional (a logger without it writes everything);
   * hot paths ask it before building a record nobody will see.
   */
  enabled?(level: LogLevel): boolean;
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
    enabled: (at) => ORDER[at] >= ORDER[level],
  };
}

export const silentLogger: Logger = createLogger('silent');

/** Query parameters that carry a credential, by decoded, lower-cased name. */
const CREDENTIAL_PARAMS = new Set(['key', 'api_key', 'apikey', 'api-key', 'access_token', 'token', 'link']);

function decodedName(raw: string): string | null {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).trim().toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Replaces the value of every credential-bearing query parameter with `[REDACTED]`, judged on the
 * decoded name (`%6Bey=` is `key=`), as the query parser will see it. A name that does not decode
 * is redacted too: it cannot be shown to be harmless.
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const hash = url.indexOf('#', at);
  const query = url.slice(at + 1, hash < 0 ? undefined : hash);
  const redacted = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      const decoded = decodedName(name);
      if (eq < 0 || (decoded !== null && !CREDENTIAL_PARAMS.has(decoded))) return pair;
      return `${name}=[REDACTED]`;
    })
    .join('&');
  return `${url.slice(0, at + 1)}${redacted}${hash < 0 ? '' : url.slice(hash)}`;
}
