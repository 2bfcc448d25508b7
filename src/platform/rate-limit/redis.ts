/**
 * Redis adapter (REDIS_URL): rate-limit counters and idempotency records shared by every node.
 * The only importer of ioredis. The client is tuned to fail fast instead of queueing: a request
 * must learn within a few hundred milliseconds that Redis is gone (so the edge can answer 503 or
 * fail open), and the client keeps reconnecting in the background so service resumes by itself.
 * ioredis is loaded by the first {@link RedisConnection.open}, not at import: a node without
 * REDIS_URL, and every CLI that composes the service, never pays its ~0.15 CPU-s of loading.
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as Ioredis from 'ioredis';
import type { Redis } from 'ioredis';
import {
  IdempotencyStoreUnavailable,
  KeyValueIdempotencyStore,
  type IdempotencyStore,
  type KeyValueStore,
} from '../http/idempotency.js';
import {
  RateLimitStoreUnavailable,
  type RateLimitPeek,
  type RateLimitReservation,
  type RateLimitStore,
} from './port.js';

/**
 * Take one place in the window when fewer than the limit are taken: increment, give the key its
 * expiry when this created it (or it somehow has none), tally the action in a sibling hash that
 * expires with the counter, and return {reserved, count, ttl}. A full window is left as it is, so
 * a refused call never counts. One script, so concurrent calls from many nodes can never both take
 * the last place. Each attempt names itself (ARGV[4]) in a third sibling hash, `<counter>:held`:
 * '1' once it took a place, '0' once {@link CANCEL_SCRIPT} ran for it — an attempt cancelled before
 * Redis ran it (a reconnection reordered them) takes nothing.
 */
const RESERVE_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
if ARGV[4] ~= '' and redis.call('HGET', KEYS[3], ARGV[4]) == '0' then
  if ttl < 0 then ttl = 0 end
  return {0, count, ttl}
end
if count >= tonumber(ARGV[3]) then
  if ttl < 0 then ttl = 0 end
  return {0, count, ttl}
end
count = redis.call('INCR', KEYS[1])
ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1]) * 1000
end
if ARGV[2] ~= '' then
  redis.call('HINCRBY', KEYS[2], ARGV[2], 1)
  if redis.call('PTTL', KEYS[2]) < 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
end
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[4], '1')
  if redis.call('PTTL', KEYS[3]) < 0 then redis.call('PEXPIRE', KEYS[3], ttl) end
end
return {1, count, ttl}
`;

/**
 * Lua that gives one place back: the counter (KEYS[1]) and the action's tally (KEYS[2], field
 * `action`, a script argument; none when empty) down by one, never below 0. Leaves `count` set.
 */
const giveBack = (action: string): string => `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
if ${action} ~= '' then
  local n = tonumber(redis.call('HGET', KEYS[2], ${action}) or '0')
  if n > 1 then redis.call('HINCRBY', KEYS[2], ${action}, -1) elseif n == 1 then redis.call('HDEL', KEYS[2], ${action}) end
end`;

/** Give back a reserved place (a call not served): counter and tally down by one, never below 0. */
const RELEASE_SCRIPT = `${giveBack('ARGV[1]')}
return count
`;

/**
 * Cancel an attempt whose caller gave up waiting for its reply (and answered 503): if it took a
 * place ('1'), give it back; whatever it did, mark it '0' so it can take none later and a second
 * cancel does nothing. Redis runs one connection's commands in order, so a cancel sent behind its
 * reservation finds it done; one that arrives first leaves the mark the reservation then obeys.
 */
const CANCEL_SCRIPT = `
local mark = redis.call('HGET', KEYS[3], ARGV[1])
if mark == '0' then return 0 end
redis.call('HSET', KEYS[3], ARGV[1], '0')
if redis.call('PTTL', KEYS[3]) < 0 then redis.call('EXPIRE', KEYS[3], ARGV[3]) end
if mark ~= '1' then return 0 end${giveBack('ARGV[2]')}
return 1
`;

/** ioredis sends EVAL once per connection, then EVALSHA; after a Redis restart it reloads by itself. */
interface QuotaCommands {
  plumblineQuotaReserve(
    counterKey: string,
    actionsKey: string,
    heldKey: string,
    ttlSeconds: number,
    action: string,
    limit: number,
    attempt: string,
  ): Promise<unknown>;
  plumblineQuotaRelease(counterKey: string, actionsKey: string, action: string): Promise<unknown>;
  plumblineQuotaCancel(
    counterKey: string,
    actionsKey: string,
    heldKey: string,
    attempt: string,
    action: string,
    ttlSeconds: number,
  ): Promise<unknown>;
}

export interface RedisConnectionOptions {
  /**
   * Deadline for one command (ms); past it the request fails instead of waiting. Default 250.
   * Measured by {@link withinDeadline}: time this thread spent busy does not count against Redis.
   */
  commandTimeoutMs?: number;
  /** Deadline for establishing a connection (ms). Default 1000. */
  connectTimeoutMs?: number;
  /** Longest pause between reconnection attempts (ms); bounds how long recovery lags Redis. Default 1000. */
  reconnectMaxDelayMs?: number;
  /** Called with every connection error, for the caller's log; errors never throw from here. */
  onError?: (error: Error) => void;
}

/**
 * One client shared by the rate-limit and idempotency stores. `open` never throws and never waits:
 * call {@link RedisConnection.ping} before listening to learn whether Redis answers.
 */
export class RedisConnection {
  readonly rateLimit: RedisRateLimitStore;
  readonly idempotency: IdempotencyStore;
  readonly #redis: Redis;
  readonly #connectTimeoutMs: number;

  private constructor(redis: Redis, connectTimeoutMs: number, deadlineMs: number) {
    this.#redis = redis;
    this.#connectTimeoutMs = connectTimeoutMs;
    this.rateLimit = new RedisRateLimitStore(redis, deadlineMs);
    this.idempotency = new KeyValueIdempotencyStore(new RedisKeyValueStore(redis, deadlineMs), {
      shared: true,
    });
  }

  static open(url: string, options: RedisConnectionOptions = {}): RedisConnection {
    const connectTimeoutMs = options.connectTimeoutMs ?? 1000;
    const maxDelay = options.reconnectMaxDelayMs ?? 1000;
    const { Redis } = createRequire(import.meta.url)('ioredis') as typeof Ioredis;
    const deadlineMs = options.commandTimeoutMs ?? 250;
    const redis = new Redis(url, {
      // Fail now rather than queue: a queued command is a request hanging while Redis is down.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      // Only a backstop that clears a hung command out of ioredis's queue: its timer cannot tell a
      // silent Redis from a reply this thread had no time to read (see withinDeadline), so the
      // request's own deadline is kept by the stores, and this one is far longer.
      commandTimeout: Math.max(BACKSTOP_MS, 20 * deadlineMs),
      connectTimeout: connectTimeoutMs,
      lazyConnect: true,
      retryStrategy: (attempt) => Math.min(attempt * 100, maxDelay),
    });
    redis.defineCommand('plumblineQuotaReserve', { numberOfKeys: 3, lua: RESERVE_SCRIPT });
    redis.defineCommand('plumblineQuotaRelease', { numberOfKeys: 2, lua: RELEASE_SCRIPT });
    redis.defineCommand('plumblineQuotaCancel', { numberOfKeys: 3, lua: CANCEL_SCRIPT });
    // Without a listener ioredis prints every reconnection failure; the caller decides what to log.
    redis.on('error', (error: Error) => options.onError?.(error));
    redis.connect().catch(() => undefined);
    return new RedisConnection(redis, connectTimeoutMs, deadlineMs);
  }

  /**
   * True when Redis answers PING. Waits up to the connect timeout only while a connection attempt
   * is in progress (the first one after `open`); between reconnection attempts it answers at once.
   */
  async ping(): Promise<boolean> {
    try {
      await this.#whenReady();
      return (await this.#redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  /** Closes the connection and stops reconnecting (and retrying cancellations). */
  async close(): Promise<void> {
    await this.rateLimit.close();
    if (this.#redis.status === 'ready') {
      await this.#redis.quit().catch(() => this.#redis.disconnect());
    } else {
      this.#redis.disconnect();
    }
  }

  #whenReady(): Promise<void> {
    const status = this.#redis.status;
    if (status === 'ready') return Promise.resolve();
    if (status !== 'wait' && status !== 'connecting' && status !== 'connect') {
      return Promise.reject(new Error(`redis is ${status}`));
    }
    return new Promise((resolve, reject) => {
      const onReady = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#redis.off('ready', onReady);
        reject(new Error('redis not ready'));
      }, this.#connectTimeoutMs);
      this.#redis.once('ready', onReady);
    });
  }
}

/** Counters for {@link RateLimiter}; every failure becomes {@link RateLimitStoreUnavailable}. */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #redis: Redis & QuotaCommands;
  readonly #deadlineMs: number;
  /** Attempts to cancel, by id, until Redis confirms (or their window is over). */
  readonly #cancels = new Map<string, PendingCancel>();
  #retry: NodeJS.Timeout | undefined;
  #closed = false;

  /** Built by {@link RedisConnection}; not constructed directly. */
  constructor(redis: Redis, deadlineMs: number) {
    this.#redis = redis as Redis & QuotaCommands;
    this.#deadlineMs = deadlineMs;
  }

  async reserve(
    key: string,
    ttlSeconds: number,
    limit: number,
    action?: string,
  ): Promise<RateLimitReservation> {
    const attempt: Attempt = {
      key,
      action: action ?? '',
      id: randomBytes(12).toString('base64url'),
      ttlSeconds,
    };
    // Not connected, ioredis refuses at once without sending anything: nothing to cancel then.
    const sent = this.#redis.status === 'ready';
    let reply: unknown;
    try {
      reply = await rateLimitCall('reserve', this.#deadlineMs, () =>
        this.#redis.plumblineQuotaReserve(
          key,
          actionsKey(key),
          heldKey(key),
          ttlSeconds,
          attempt.action,
          limit,
          attempt.id,
        ),
      );
    } catch (error) {
      if (sent) this.#cancel(attempt);
      throw error;
    }
    if (
      !Array.isArray(reply) ||
      typeof reply[0] !== 'number' ||
      typeof reply[1] !== 'number' ||
      typeof reply[2] !== 'number'
    ) {
      throw new RateLimitStoreUnavailable(`unexpected rate-limit script reply: ${JSON.stringify(reply)}`);
    }
    return { reserved: reply[0] === 1, count: reply[1], ttl_ms: reply[2] };
  }

  /**
   * A reservation whose reply did not come in time was answered 503, but Redis may still run it: a
   * hung or slow Redis runs what it was sent once it answers again, and a reply that comes after
   * ioredis's {@link BACKSTOP_MS} is dropped unseen. Paused for a second under three nodes, Redis
   * then ran 33 such reservations: usage.used 39 with 6 calls served. So the attempt is cancelled
   * (CANCEL_SCRIPT gives its place back if it took one), sent at once behind it and retried every
   * second until Redis answers or the window is over.
   */
  #cancel(attempt: Attempt): void {
    if (this.#cancels.size >= MAX_PENDING_CANCELS) return;
    const pending: PendingCancel = { attempt, until: Date.now() + attempt.ttlSeconds * 1000, sending: false };
    this.#cancels.set(attempt.id, pending);
    void this.#sendCancel(pending);
  }

  /**
   * One cancellation in flight per attempt: its reply is awaited as long as ioredis waits (not the
   * request's deadline), so a hung Redis is not sent the same cancellation every second.
   */
  async #sendCancel(pending: PendingCancel): Promise<void> {
    if (pending.sending) return;
    if (this.#redis.status !== 'ready') {
      this.#retryCancelsLater();
      return;
    }
    pending.sending = true;
    const { attempt } = pending;
    try {
      await this.#redis.plumblineQuotaCancel(
        attempt.key,
        actionsKey(attempt.key),
        heldKey(attempt.key),
        attempt.id,
        attempt.action,
        attempt.ttlSeconds,
      );
      this.#cancels.delete(attempt.id);
    } catch {
      this.#retryCancelsLater();
    } finally {
      pending.sending = false;
    }
  }

  #retryCancelsLater(): void {
    if (this.#retry !== undefined || this.#closed) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      const now = Date.now();
      for (const [id, pending] of this.#cancels) {
        if (pending.until < now) this.#cancels.delete(id);
        else void this.#sendCancel(pending);
      }
    }, CANCEL_RETRY_MS);
    this.#retry.unref();
  }

  async release(key: string, action?: string): Promise<void> {
    await rateLimitCall('release', this.#deadlineMs, () =>
      this.#redis.plumblineQuotaRelease(key, actionsKey(key), action ?? ''),
    );
  }

  async peek(key: string): Promise<RateLimitPeek> {
    const replies = await rateLimitCall('peek', this.#deadlineMs, () =>
      this.#redis.multi().get(key).pttl(key).hgetall(actionsKey(key)).exec(),
    );
    const [count, ttl, byAction] = (replies ?? []).map(([error, value]) => {
      if (error)
        throw new RateLimitStoreUnavailable(`rate-limit peek failed: ${error.message}`, { cause: error });
      return value;
    });
    return {
      count: typeof count === 'string' ? Number(count) : 0,
      ttl_ms: typeof ttl === 'number' && ttl > 0 ? ttl : 0,
      by_action: toCounts(byAction),
    };
  }

  /** Stops retrying cancellations; the connection belongs to {@link RedisConnection}, which closes it. */
  close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    return Promise.resolve();
  }
}

function actionsKey(counterKey: string): string {
  return `${counterKey}:actions`;
}

/** Each reservation attempt's mark ('1' took a place, '0' cancelled), expiring with the counter. */
function heldKey(counterKey: string): string {
  return `${counterKey}:held`;
}

/** One reservation attempt, as its cancellation needs it. */
interface Attempt {
  key: string;
  action: string;
  id: string;
  ttlSeconds: number;
}

interface PendingCancel {
  attempt: Attempt;
  /** Past this (ms since the epoch) the window is over and the attempt is dropped. */
  until: number;
  sending: boolean;
}

/** Pending cancellations kept at most (a long outage's worth); past it a 503 call may count. */
const MAX_PENDING_CANCELS = 100_000;
const CANCEL_RETRY_MS = 1000;

function toCounts(hash: unknown): Record<string, number> {
  if (hash === null || typeof hash !== 'object') return {};
  return Object.fromEntries(Object.entries(hash as Record<string, unknown>).map(([k, v]) => [k, Number(v)]));
}

async function rateLimitCall<T>(what: string, deadlineMs: number, call: () => Promise<T>): Promise<T> {
  try {
    return await withinDeadline(call(), deadlineMs);
  } catch (error) {
    if (error instanceof RateLimitStoreUnavailable) throw error;
    throw new RateLimitStoreUnavailable(`rate-limit store ${what} failed: ${messageOf(error)}`, {
      cause: error,
    });
  }
}

/** String values with expiry, for idempotency records; every failure becomes {@link IdempotencyStoreUnavailable}. */
export class RedisKeyValueStore implements KeyValueStore {
  readonly #redis: Redis;
  readonly #deadlineMs: number;

  /** Built by {@link RedisConnection}; not constructed directly. */
  constructor(redis: Redis, deadlineMs: number) {
    this.#redis = redis;
    this.#deadlineMs = deadlineMs;
  }

  async get(namespace: string, key: string): Promise<string | undefined> {
    const value = await kvCall('get', this.#deadlineMs, () => this.#redis.get(kvKey(namespace, key)));
    return value ?? undefined;
  }

  async putIfAbsent(namespace: string, key: string, value: string, ttlSeconds: number): Promise<boolean> {
    const reply = await kvCall('put', this.#deadlineMs, () =>
      this.#redis.set(kvKey(namespace, key), value, 'EX', ttlSeconds, 'NX'),
    );
    return reply === 'OK';
  }

  async delete(namespace: string, key: string): Promise<void> {
    await kvCall('delete', this.#deadlineMs, () => this.#redis.del(kvKey(namespace, key)));
  }
}

function kvKey(namespace: string, key: string): string {
  return `kv:${namespace}:${key}`;
}

async function kvCall<T>(what: string, deadlineMs: number, call: () => Promise<T>): Promise<T> {
  try {
    return await withinDeadline(call(), deadlineMs);
  } catch (error) {
    throw new IdempotencyStoreUnavailable(`idempotency store ${what} failed: ${messageOf(error)}`, {
      cause: error,
    });
  }
}

/** ioredis's own command timeout: only clears a command Redis never answers out of its queue. */
const BACKSTOP_MS = 5000;

export class CommandTimeout extends Error {
  constructor(ms: number) {
    super(`Command timed out (no reply within ${ms} ms)`);
    this.name = 'CommandTimeout';
  }
}

/**
 * `call`, failed with {@link CommandTimeout} when Redis has not answered within `ms` of this
 * thread's attention. A timer alone cannot keep that deadline: while this thread is busy (a PDF
 * render, a large score, a burst of requests on a loaded box), the reply can arrive and wait in
 * the socket, and when the thread is free again Node runs due timers before it polls for I/O — so
 * a 300 ms pause failed a command Redis had answered in 0.2 ms, answering 503 (and, for a
 * reservation, spending a quota place on a call never served). When the timer fires, the deadline
 * waits for one more poll phase (`setImmediate` runs right after it): a reply already received is
 * read and wins; a Redis that has really said nothing is a timeout.
 */
export function withinDeadline<T>(call: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (settled) return;
        settled = true;
        reject(new CommandTimeout(ms));
      });
    }, ms);
    call.then(
      (value) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
