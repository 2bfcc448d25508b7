/**
 * One HTTP exchange with retries (SPEC §2–§3): 429 and 503 are retried after the server's
 * `Retry-After` (and a 409 that carries one, where a repeat is harmless), with the same
 * `Idempotency-Key` on every attempt so an append that did land is replayed rather than repeated. Network failures are retried only where a repeat is harmless
 * (GETs and keyed POSTs). Successful signed answers are checked when a signing secret is known.
 */
import { errorFromResponse, PlumblineError } from './errors.js';
import { verifySignature } from './signature.js';

export interface PlumblineOptions {
  /** Where the service is, e.g. `https://plumbline.example` (no trailing path needed). */
  baseUrl: string;
  /** A `pl_live_…` / `pl_test_…` key. */
  apiKey: string;
  /** The key's `plsig_…` secret: when given, every signed answer is verified before it is returned. */
  signingSecret?: string;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
  /** Further attempts after a 429/503, a 409 with Retry-After, or a network failure (default 2). */
  retries?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown at once (default 60 s). */
  maxRetryDelaySeconds?: number;
  /** The clock signature freshness is judged by (default: the system clock). */
  now?: () => Date;
}

/** Which credential header a surface reads (SPEC §1). */
export type AuthStyle = 'api-key' | 'bearer' | 'none';

export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number | undefined>;
  /** JSON body; undefined sends none. */
  body?: unknown;
  auth: AuthStyle;
  /** Sent on every attempt of an appending POST. */
  idempotencyKey?: string;
}

const DEFAULT_RETRIES = 2;
const DEFAULT_MAX_RETRY_DELAY_S = 60;
/** Backoff when the server names no delay (a network failure): 0.5 s, 1 s, 2 s … */
const BASE_BACKOFF_S = 0.5;

const sleep = (seconds: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/** `Retry-After` as seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterSeconds(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** A fresh key per appending call: crypto.randomUUID where the platform has it (browsers, Node 20). */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

export class Transport {
  readonly baseUrl: string;
  readonly #options: PlumblineOptions;
  readonly #fetch: typeof fetch;

  constructor(options: PlumblineOptions) {
    if (!options.baseUrl) throw new TypeError('baseUrl is required');
    if (!options.apiKey) throw new TypeError('apiKey is required');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#options = options;
    // Bound: a bare `fetch` reference called as a method of another object throws in browsers.
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  get apiKey(): string {
    return this.#options.apiKey;
  }

  url(path: string, query: Record<string, string | number | undefined> = {}): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query))
      if (value !== undefined) params.set(name, String(value));
    const qs = params.toString();
    return `${this.baseUrl}${path}${qs ? `?${qs}` : ''}`;
  }

  #init(spec: RequestSpec): RequestInit {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (spec.auth === 'api-key') headers['x-plumbline-api-key'] = this.#options.apiKey;
    if (spec.auth === 'bearer') headers.authorization = `Bearer ${this.#options.apiKey}`;
    if (spec.idempotencyKey !== undefined) headers['idempotency-key'] = spec.idempotencyKey;
    const init: RequestInit = { method: spec.method, headers };
    if (spec.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(spec.body);
    }
    return init;
  }

  /** Sends `spec`, retrying as the module header says, and returns the parsed JSON answer. */
  async request<T>(spec: RequestSpec): Promise<T> {
    const retries = this.#options.retries ?? DEFAULT_RETRIES;
    const maxDelay = this.#options.maxRetryDelaySeconds ?? DEFAULT_MAX_RETRY_DELAY_S;
    const repeatable = spec.method === 'GET' || spec.idempotencyKey !== undefined;
    const url = this.url(spec.path, spec.query);
    for (let attempt = 0; ; attempt += 1) {
      let response: Response;
      try {
        response = await this.#fetch(url, this.#init(spec));
      } catch (cause) {
        if (repeatable && attempt < retries) {
          await sleep(BASE_BACKOFF_S * 2 ** attempt);
          continue;
        }
        throw new PlumblineError({ code: 'NETWORK_ERROR', status: 0, detail: String(cause), cause });
      }
      const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
      const wait = retryAfter ?? BASE_BACKOFF_S * 2 ** attempt;
      // A 409 with Retry-After is the server saying "again shortly" (this Idempotency-Key's first
      // attempt is still running, or the ledger head kept moving and nothing was recorded); a 409
      // without it (a duplicate, a funded draw) is final.
      const transientConflict = response.status === 409 && retryAfter !== null && repeatable;
      if (
        (response.status === 429 || response.status === 503 || transientConflict) &&
        attempt < retries &&
        wait <= maxDelay
      ) {
        await response.body?.cancel();
        await sleep(wait);
        continue;
      }
      const text = await response.text();
      // Error answers are checked too: a signed problem must be this request's (v2 binding).
      await this.#checkSignature(spec, url, response, text);
      if (!response.ok) throw errorFromResponse(response.status, response.headers, text, retryAfter);
      return JSON.parse(text) as T;
    }
  }

  async #checkSignature(spec: RequestSpec, url: string, response: Response, text: string): Promise<void> {
    const secret = this.#options.signingSecret;
    if (secret === undefined || spec.auth === 'none') return;
    // Answers given before the key is known (401, an unknown route, load shedding) cannot be
    // signed; a signed one must verify.
    if (!response.ok && !response.headers.has('plumbline-signature')) return;
    const now = this.#options.now?.() ?? new Date();
    const check = await verifySignature({ headers: response.headers, bodyText: text }, secret, {
      now,
      request: { method: spec.method, url },
      status: response.status,
    });
    if (!check.valid)
      throw new PlumblineError({
        code: 'SIGNATURE_INVALID',
        status: response.status,
        detail: `the response signature did not verify (${check.reason})`,
        request_id: response.headers.get('request-id'),
      });
  }
}
