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
  /**
   * A store several nodes share (Redis): claims the unanswered key for a first attempt of the
   * request `requestHash` for `ttlSeconds`. Null when this call claimed it, else the request hash of
   * the attempt holding it. A single node's store has none: its process-local claim is enough.
   */
  claim?(scope: string, key: string, requestHash: string, ttlSeconds: number): Promise<string | null>;
  /** Lets go of a {@link IdempotencyStore.claim}. */
  unclaim?(scope: string, key: string): Promise<void>;
}

/**
 * How long a shared claim holds a key without being let go of: a node that died mid-attempt holds
 * it this long at most (retries meanwhile answer 409 with Retry-After). Longer than a command runs.
 */
export const IDEMPOTENCY_CLAIM_TTL_SECONDS = 30;

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
  readonly claim?: (
    scope: string,
    key: string,
    requestHash: string,
    ttlSeconds: number,
  ) => Promise<string | null>;
  readonly unclaim?: (scope: string, key: string) => Promise<void>;

  /** `shared`: several nodes use `kv` (Redis), so first attempts are claimed in it too. */
  constructor(kv: KeyValueStore, opts: { shared?: boolean } = {}) {
    this.#kv = kv;
    if (opts.shared) {
      this.claim = (scope, key, requestHash, ttlSeconds) => this.#claim(scope, key, requestHash, ttlSeconds);
      this.unclaim = (scope, key) => this.#kv.delete(claimNamespaceOf(scope), key);
    }
  }

  async #claim(scope: string, key: string, requestHash: string, ttlSeconds: number): Promise<string | null> {
    const namespace = claimNamespaceOf(scope);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      if (await this.#kv.putIfAbsent(namespace, key, requestHash, ttlSeconds)) return null;
      const holder = await this.#kv.get(namespace, key);
      if (holder !== undefined) return holder;
      // The holder let go between the two calls; one more put settles it.
    }
    return null;
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

function claimNamespaceOf(scope: string): string {
  return `idempotency-claim:${scope}`;
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
 * First attempts running in this process, per store: request hash by (scope, key). In memory on
 * purpose: a process that dies takes its attempts with it, so a retry after a crash runs (and the
 * ledger, deduping by event id, answers it with whatever did land) instead of waiting on a mark.
 */
const RUNNING = new WeakMap<IdempotencyStore, Map<string, string>>();

function runningOf(store: IdempotencyStore): Map<string, string> {
  let running = RUNNING.get(store);
  if (!running) RUNNING.set(store, (running = new Map<string, string>()));
  return running;
}

/**
 * Answered keys replay (or 422); an unanswered key is claimed as running before `proceed`, so two
 * attempts at once never both run: the ledger would take the first one's events for both (their
 * ids derive from the key), and the other would answer 201 for a body that was never recorded.
 * A `proceed` holds the claim until {@link releaseIdempotencyKey}, after its answer is remembered.
 * Attempts on two nodes at once meet in a shared store's {@link IdempotencyStore.claim}: without
 * it, both ran, the ledger appended one, and the other answered 201 naming what the first recorded.
 */
export async function checkIdempotency(input: IdempotencyCheckInput): Promise<IdempotencyCheck> {
  if (!isValidIdempotencyKey(input.key)) return { outcome: 'invalid_key', code: 'INVALID_REQUEST' };
  const { store, scope, key, requestHash } = input;
  const running = runningOf(store);
  const slot = JSON.stringify([scope, key]);
  let other = running.get(slot);
  // Claimed before the store is read when free: an attempt answering meanwhile has its answer on
  // file by the time it lets go, so this read sees it.
  const mine = other === undefined;
  if (mine) running.set(slot, requestHash);
  let shared = false;
  let record: IdempotencyRecord | undefined;
  try {
    // A store several nodes share is claimed too, before it is read, for the same reason: an
    // attempt on another node remembers its answer before it lets go of its claim there.
    if (mine && store.claim) {
      const holder = await store.claim(scope, key, requestHash, IDEMPOTENCY_CLAIM_TTL_SECONDS);
      if (holder === null) shared = true;
      else other = holder;
    }
    record = await store.get(scope, key);
  } catch (error) {
    if (mine) releaseClaims(store, slot, scope, key, shared);
    throw error;
  }
  if (other === undefined && !record) return { outcome: 'proceed' };
  if (mine) releaseClaims(store, slot, scope, key, shared);
  // An answer on file wins over a claim: it is only waiting to be let go of.
  const hash = record?.request_hash ?? other;
  if (hash !== requestHash) return { outcome: 'mismatch', code: 'IDEMPOTENCY_KEY_REUSED' };
  return record ? { outcome: 'replay', record } : { outcome: 'in_progress', code: 'CONFLICT' };
}

function releaseClaims(
  store: IdempotencyStore,
  slot: string,
  scope: string,
  key: string,
  shared: boolean,
): void {
  runningOf(store).delete(slot);
  if (shared) void store.unclaim?.(scope, key).catch(() => undefined);
}

/**
 * Lets go of the claims a `proceed` holds, once its answer is remembered or not worth keeping: the
 * process-local one at once, the shared one (if any) in the background — a failure to let go of
 * it only makes retries wait out its {@link IDEMPOTENCY_CLAIM_TTL_SECONDS}.
 */
export function releaseIdempotencyKey(input: { store: IdempotencyStore; scope: string; key: string }): void {
  releaseClaims(input.store, JSON.stringify([input.scope, input.key]), input.scope, input.key, true);
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
 * Keeps the first response and returns the record on file. Two first attempts that raced on two
 * nodes both ran the handler (the ledger appended once, by event id); the first record on file
 * stays the one replayed.
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
 * The id of the `index`-th event a request appends: UUIDv5 of (key id, Idempotency-Key, the
 * request's hash, index), so a retry of the same request re-derives the same ids and the ledger
 * answers it with the original append. The request's hash is part of it because the key's record
 * does not outlive its 24 h window (nor a rate-limit store that lost it): a different request
 * under a key used before derived the first one's ids, the store kept the first events and
 * appended nothing, and the answer was 201 naming the first request's resource as if this one had
 * been recorded. It is now recorded as the new request it is.
 */
export function idempotencyEventId(
  keyId: string,
  idemKey: string,
  requestHash: string,
  index: number,
): string {
  return derivedEventId(JSON.stringify(['idempotency', keyId, idemKey, requestHash, index]));
}
