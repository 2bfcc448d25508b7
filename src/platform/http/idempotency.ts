/**
 * Idempotency-Key handling (SPEC §2), without Express: the store port, the memory store, and the
 * decision the edge makes before and after running an appending POST. A retry within 24 h gets
 * the first response back; the same key with another request is refused (422). Event ids derive
 * from the key too, so even two racing first attempts append once: the ledger dedupes by id.
 */
import { z } from 'zod';
import type { Clock } from '../clock.js';
import { sha256Hex } from '../crypto/hash.js';
import { derivedEventId } from '../ids.js';
import { canonicalJson } from '../ledger/canonical.js';

/** How long a first response is replayed (SPEC §2). */
export const IDEMPOTENCY_TTL_SECONDS = 86_400;
/** Longest accepted Idempotency-Key (SPEC §2). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/**
 * How long a first attempt that is still running holds its key against concurrent ones. It lets go
 * as soon as it answers; this bounds only how long a crashed attempt can hold the key.
 */
export const IDEMPOTENCY_PENDING_TTL_SECONDS = 60;
/** Response headers worth replaying; signature, request id and rate-limit headers are per response. */
export const REPLAYED_HEADER_NAMES = ['content-type', 'location'] as const;

/** A first response, kept for replays. */
export interface IdempotencyRecord {
  /** {@link idempotencyRequestHash} of the request that produced it. */
  request_hash: string;
  status: number;
  /** Lower-case names, see {@link REPLAYED_HEADER_NAMES}. */
  headers: Record<string, string>;
  /** The exact body text sent; replays re-sign it. */
  body: string;
}

/** Where first responses live; `scope` is the API key id, so keys of different clients never meet. */
export interface IdempotencyStore {
  get(scope: string, key: string): Promise<IdempotencyRecord | undefined>;
  /** Stores `record` unless a live one exists; true when this call stored it. */
  putIfAbsent(scope: string, key: string, record: IdempotencyRecord, ttlSeconds: number): Promise<boolean>;
  delete(scope: string, key: string): Promise<void>;
}

/** String values with expiry; what the SQLite, Redis and memory backends provide. */
export interface KeyValueStore {
  get(namespace: string, key: string): Promise<string | undefined>;
  /** Sets `key` unless it holds a value that has not expired; true when this call set it. */
  putIfAbsent(namespace: string, key: string, value: string, ttlSeconds: number): Promise<boolean>;
  delete(namespace: string, key: string): Promise<void>;
}

/** The idempotency store could not be read or written; the edge answers 503 UNAVAILABLE. */
export class IdempotencyStoreUnavailable extends Error {
  readonly type = 'idempotency_store_unavailable' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'IdempotencyStoreUnavailable';
  }
}

const RecordSchema = z.strictObject({
  request_hash: z.string(),
  status: z.number().int(),
  headers: z.record(z.string(), z.string()),
  body: z.string(),
});

/** Idempotency records as JSON in any {@link KeyValueStore}, namespaced per scope. */
export class KeyValueIdempotencyStore implements IdempotencyStore {
  readonly #kv: KeyValueStore;
  constructor(kv: KeyValueStore) {
    this.#kv = kv;
  }

  async get(scope: string, key: string): Promise<IdempotencyRecord | undefined> {
    const text = await this.#kv.get(namespaceOf(scope), key);
    if (text === undefined) return undefined;
    const parsed = RecordSchema.safeParse(parseJson(text));
    // A record this code did not write is unusable; failing loudly beats replaying garbage.
    if (!parsed.success)
      throw new IdempotencyStoreUnavailable(`stored idempotency record for ${key} is corrupt`);
    return parsed.data;
  }

  putIfAbsent(scope: string, key: string, record: IdempotencyRecord, ttlSeconds: number): Promise<boolean> {
    return this.#kv.putIfAbsent(namespaceOf(scope), key, JSON.stringify(record), ttlSeconds);
  }

  delete(scope: string, key: string): Promise<void> {
    return this.#kv.delete(namespaceOf(scope), key);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function namespaceOf(scope: string): string {
  return `idempotency:${scope}`;
}

/** In-process {@link KeyValueStore} (single node, no REDIS_URL); expiry follows the injected clock. */
export class MemoryKeyValueStore implements KeyValueStore {
  readonly #clock: Clock;
  readonly #entries = new Map<string, { value: string; expiresAt: number }>();
  constructor(clock: Clock) {
    this.#clock = clock;
  }

  get(namespace: string, key: string): Promise<string | undefined> {
    return Promise.resolve(this.#live(entryKey(namespace, key))?.value);
  }

  putIfAbsent(namespace: string, key: string, value: string, ttlSeconds: number): Promise<boolean> {
    const k = entryKey(namespace, key);
    if (this.#live(k)) return Promise.resolve(false);
    this.#sweep();
    this.#entries.set(k, { value, expiresAt: this.#clock.now().getTime() + ttlSeconds * 1000 });
    return Promise.resolve(true);
  }

  delete(namespace: string, key: string): Promise<void> {
    this.#entries.delete(entryKey(namespace, key));
    return Promise.resolve();
  }

  #live(k: string): { value: string; expiresAt: number } | undefined {
    const entry = this.#entries.get(k);
    if (entry && entry.expiresAt <= this.#clock.now().getTime()) {
      this.#entries.delete(k);
      return undefined;
    }
    return entry;
  }

  /** Writes are rare (one per appending POST), so an O(n) sweep per write is cheap enough. */
  #sweep(): void {
    const now = this.#clock.now().getTime();
    for (const [k, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(k);
  }
}

function entryKey(namespace: string, key: string): string {
  return JSON.stringify([namespace, key]);
}

export function memoryIdempotencyStore(clock: Clock): IdempotencyStore {
  return new KeyValueIdempotencyStore(new MemoryKeyValueStore(clock));
}

export interface IdempotentRequest {
  method: string;
  /** The request target with its query string (`req.originalUrl`): `?action=` is part of the request. */
  path: string;
  /** The parsed JSON body; `undefined` when there is none. */
  body: unknown;
}

/** SHA-256 over method, target and the JCS form of the body, so key order and spacing do not matter. */
export function idempotencyRequestHash({ method, path, body }: IdempotentRequest): string {
  const canonicalBody = body === undefined ? '' : canonicalJson(body);
  return sha256Hex(`${method.toUpperCase()}\n${path}\n${canonicalBody}`);
}

/** A header value the edge may accept as an Idempotency-Key: 1–255 visible ASCII characters. */
export function isValidIdempotencyKey(key: string): boolean {
  return key.length >= 1 && key.length <= IDEMPOTENCY_KEY_MAX_LENGTH && /^[\x21-\x7e]+$/.test(key);
}

export type IdempotencyCheck =
  /** First time (or expired): run the handler, then {@link rememberResponse}. */
  | { outcome: 'proceed' }
  /** Answer `record` as is, plus `Idempotent-Replayed: true`. */
  | { outcome: 'replay'; record: IdempotencyRecord }
  /** Same key, different request (answered or still running): 422. */
  | { outcome: 'mismatch'; code: 'IDEMPOTENCY_KEY_REUSED' }
  /** Same key and request, first attempt still running: 409 with Retry-After, then a replay. */
  | { outcome: 'in_progress'; code: 'CONFLICT' }
  /** Empty, too long, or not visible ASCII: 400. */
  | { outcome: 'invalid_key'; code: 'INVALID_REQUEST' };

export interface IdempotencyCheckInput {
  store: IdempotencyStore;
  /** The API key id. */
  scope: string;
  /** The Idempotency-Key header value. */
  key: string;
  /** {@link idempotencyRequestHash} of the incoming request. */
  requestHash: string;
}

/**
 * Answered keys replay (or 422); an unanswered key is marked as running before `proceed`, so two
 * attempts at once never both run: the ledger would take the first one's events for both (their
 * ids derive from the key), and the other would answer 201 for a body that was never recorded.
 * A `proceed` holds the mark until {@link rememberResponse} or {@link releaseIdempotencyKey}.
 */
export async function checkIdempotency(input: IdempotencyCheckInput): Promise<IdempotencyCheck> {
  if (!isValidIdempotencyKey(input.key)) return { outcome: 'invalid_key', code: 'INVALID_REQUEST' };
  const { store, scope, key, requestHash } = input;
  const mark: IdempotencyRecord = { request_hash: requestHash, status: 0, headers: {}, body: '' };
  // A few rounds at most: each lost round means another attempt answered or let go meanwhile.
  for (let round = 0; round < 3; round += 1) {
    const answered = await store.get(scope, key);
    if (answered) return answeredCheck(answered, requestHash);
    if (await store.putIfAbsent(runningScope(scope), key, mark, IDEMPOTENCY_PENDING_TTL_SECONDS)) {
      // Answered between the read and the mark: that answer stands, and this attempt runs nothing.
      const late = await store.get(scope, key);
      if (!late) return { outcome: 'proceed' };
      await store.delete(runningScope(scope), key);
      return answeredCheck(late, requestHash);
    }
    const running = await store.get(runningScope(scope), key);
    if (running)
      return running.request_hash === requestHash
        ? { outcome: 'in_progress', code: 'CONFLICT' }
        : { outcome: 'mismatch', code: 'IDEMPOTENCY_KEY_REUSED' };
  }
  return { outcome: 'in_progress', code: 'CONFLICT' };
}

function answeredCheck(record: IdempotencyRecord, requestHash: string): IdempotencyCheck {
  if (record.request_hash !== requestHash) return { outcome: 'mismatch', code: 'IDEMPOTENCY_KEY_REUSED' };
  return { outcome: 'replay', record };
}

/** Where running first attempts are marked: apart from answers, never replayed. */
function runningScope(scope: string): string {
  return `running:${scope}`;
}

/** Lets go of the running mark a `proceed` holds, once its answer is remembered or not worth keeping. */
export function releaseIdempotencyKey(input: {
  store: IdempotencyStore;
  scope: string;
  key: string;
}): Promise<void> {
  return input.store.delete(runningScope(input.scope), input.key);
}

export interface RememberResponseInput {
  store: IdempotencyStore;
  scope: string;
  key: string;
  record: IdempotencyRecord;
  /** Default {@link IDEMPOTENCY_TTL_SECONDS}. */
  ttlSeconds?: number;
}

/**
 * Keeps the first response and returns the record on file. Only the attempt holding the running
 * mark runs, so a record on file already means the mark expired under a slow first attempt (the
 * ledger appended once, by event id): the first record on file stays the one replayed.
 */
export async function rememberResponse(input: RememberResponseInput): Promise<IdempotencyRecord> {
  const ttl = input.ttlSeconds ?? IDEMPOTENCY_TTL_SECONDS;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    if (await input.store.putIfAbsent(input.scope, input.key, input.record, ttl)) return input.record;
    const winner = await input.store.get(input.scope, input.key);
    if (winner) return winner;
    // The winner expired between the two calls; one more put settles it.
  }
  return input.record;
}

/** The subset of response headers a replay repeats. */
export function pickReplayedHeaders(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if ((REPLAYED_HEADER_NAMES as readonly string[]).includes(lower) && typeof value === 'string')
      out[lower] = value;
  }
  return out;
}

/**
 * The id of the `index`-th event a request appends: UUIDv5 of (key id, Idempotency-Key, index),
 * so a retry re-derives the same ids and the ledger answers it with the original append.
 */
export function idempotencyEventId(keyId: string, idemKey: string, index: number): string {
  return derivedEventId(JSON.stringify(['idempotency', keyId, idemKey, index]));
}
