import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../src/platform/clock.js';
import { SqliteKeyValueStore } from '../../../src/platform/event-store/sqlite.js';
import {
  MemoryRateLimitStore,
  PersistedRateLimitStore,
  RATE_LIMIT_NAMESPACE,
  RATE_LIMIT_POLICIES,
  RateLimiter,
  RateLimitStoreUnavailable,
  RedisConnection,
  type RateLimitStore,
} from '../../../src/platform/rate-limit/index.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { describeRateLimitSemantics } from './rate-limit.cases.js';

describe('rate-limit policies (SPEC §3)', () => {
  it('name the daily counter rl:<key_id>:<YYYYMMDD> and the minute counter rl:<key_id>:m:<YYYYMMDDHHMM>', () => {
    const at = new Date('2026-01-02T03:04:05Z');
    expect(RATE_LIMIT_POLICIES.lender.counterKey('key_a', at)).to.equal('rl:key_a:20260102');
    expect(RATE_LIMIT_POLICIES.project.counterKey('key_a', at)).to.equal('rl:key_a:m:202601020304');
  });

  it('reset at the next UTC midnight and the next UTC minute, across month and year ends', () => {
    const at = new Date('2026-12-31T23:59:59.999Z');
    expect(RATE_LIMIT_POLICIES.lender.resetAt(at).toISOString()).to.equal('2027-01-01T00:00:00.000Z');
    expect(RATE_LIMIT_POLICIES.project.resetAt(at).toISOString()).to.equal('2027-01-01T00:00:00.000Z');
    const midnight = new Date('2026-02-28T00:00:00Z');
    expect(RATE_LIMIT_POLICIES.lender.resetAt(midnight).toISOString()).to.equal('2026-03-01T00:00:00.000Z');
    expect(RATE_LIMIT_POLICIES.project.resetAt(midnight).toISOString()).to.equal('2026-02-28T00:01:00.000Z');
  });
});

describeRateLimitSemantics('rate limiter on the in-process store', () => ({
  store: (clock) => new MemoryRateLimitStore(clock),
}));

describe('in-process rate-limit store', () => {
  it('forgets a counter once its TTL has passed on the injected clock', async () => {
    const clock = new ManualClock('2026-03-10T12:00:00Z');
    const store = new MemoryRateLimitStore(clock);
    await store.reserve('rl:k', 10, 100, 'score');
    await store.reserve('rl:k', 10, 100, 'score');
    clock.advance(9_999);
    expect(await store.peek('rl:k')).to.deep.equal({ count: 2, ttl_ms: 1, by_action: { score: 2 } });
    clock.advance(1);
    expect(await store.peek('rl:k')).to.deep.equal({ count: 0, ttl_ms: 0, by_action: {} });
    expect(await store.reserve('rl:k', 10, 100)).to.deep.equal({ reserved: true, count: 1, ttl_ms: 10_000 });
  });
});

describe('rate limiter on the persisted in-process store (embedded mode)', () => {
  let dir: string;
  const files: SqliteKeyValueStore[] = [];
  const stores: RateLimitStore[] = [];

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'plumbline-rl-'));
  });

  after(async () => {
    for (const store of stores) await store.close();
    for (const file of files) file.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describeRateLimitSemantics('shared semantics', () => ({
    store: (clock) => {
      const file = new SqliteKeyValueStore(join(dir, `case-${files.length}.db`), clock);
      files.push(file);
      const store = new PersistedRateLimitStore(clock, file);
      stores.push(store);
      return store;
    },
  }));
});

describe('persisted in-process rate-limit store', () => {
  let dir: string;
  let clock: ManualClock;
  let path: string;
  const opened: SqliteKeyValueStore[] = [];

  const openFile = (): SqliteKeyValueStore => {
    const file = new SqliteKeyValueStore(path, clock);
    opened.push(file);
    return file;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'plumbline-rl-'));
    path = join(dir, 'kv.db');
    clock = new ManualClock('2026-03-10T12:00:00Z');
  });

  afterEach(() => {
    for (const file of opened.splice(0)) file.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every counter, its tally and its TTL across a close and a reopen of the same file', async () => {
    const file = openFile();
    const store = new PersistedRateLimitStore(clock, file);
    const limiter = new RateLimiter({ store, clock });
    for (let i = 0; i < 7; i += 1) await limiter.consume('key_a', 'lender', i < 5 ? 'score' : 'verify');
    const released = await limiter.consume('key_a', 'lender', 'history');
    if (released.degraded || !released.reservation) throw new Error('expected a reservation');
    await limiter.release(released.reservation);
    await store.reserve('rl:short', 10, 100, 'score');
    await store.close();
    file.close();

    clock.advance(3_000);
    const again = new PersistedRateLimitStore(clock, openFile());
    expect(await again.peek('rl:key_a:20260310')).to.deep.equal({
      count: 7,
      ttl_ms: (12 * 3600 + 60) * 1000 - 3_000,
      by_action: { score: 5, verify: 2 },
    });
    expect(await again.peek('rl:short')).to.deep.equal({ count: 1, ttl_ms: 7_000, by_action: { score: 1 } });
    const usage = await new RateLimiter({ store: again, clock }).usage('key_a');
    expect(usage).to.deep.include({ used: 7, remaining: 93 });
    // The 94th place of the day is taken after the restart: the quota did not start over.
    for (let i = 0; i < 93; i += 1) await again.reserve('rl:key_a:20260310', 60, 100, 'score');
    expect(await again.reserve('rl:key_a:20260310', 60, 100, 'score')).to.include({
      reserved: false,
      count: 100,
    });
    await again.close();
  });

  it('leaves out a window that expired while the service was down, and reclaims its row', async () => {
    const file = openFile();
    const store = new PersistedRateLimitStore(clock, file);
    await store.reserve('rl:short', 10, 100, 'score');
    await store.reserve('rl:long', 100, 100, 'score');
    await store.close();
    file.close();

    clock.advance(10_000);
    const reopened = openFile();
    const again = new PersistedRateLimitStore(clock, reopened);
    // Read on a clock from before the expiry, so a row left behind would show.
    const then = new SqliteKeyValueStore(path, new ManualClock('2026-03-10T12:00:00Z'));
    opened.push(then);
    expect(then.entries(RATE_LIMIT_NAMESPACE).map((r) => r.key)).to.deep.equal(['rl:long']);
    expect(await again.peek('rl:short')).to.deep.equal({ count: 0, ttl_ms: 0, by_action: {} });
    expect(await again.peek('rl:long')).to.deep.include({ count: 1, ttl_ms: 90_000 });
    expect(await again.reserve('rl:short', 10, 100)).to.deep.equal({
      reserved: true,
      count: 1,
      ttl_ms: 10_000,
    });
    await again.close();
    expect(reopened.entries(RATE_LIMIT_NAMESPACE).map((r) => r.key)).to.deep.equal(['rl:long', 'rl:short']);
  });

  it('writes changes within its interval without a close, so a crash loses at most that interval', async () => {
    const file = openFile();
    const store = new PersistedRateLimitStore(clock, file, { flushEveryMs: 20 });
    await store.reserve('rl:k', 60, 100, 'score');
    await store.reserve('rl:k', 60, 100, 'score');
    // Nothing written yet: the request path never waits for the disk.
    expect(openFile().entries(RATE_LIMIT_NAMESPACE)).to.deep.equal([]);
    await new Promise((resolve) => setTimeout(resolve, 80));
    // A second process on the same file (the first never closed: as after a crash) sees both.
    const survivor = new PersistedRateLimitStore(clock, openFile());
    expect(await survivor.peek('rl:k')).to.deep.equal({ count: 2, ttl_ms: 60_000, by_action: { score: 2 } });
    await store.close();
  });

  it('writes nothing for a refused call and skips a row it did not write instead of trusting it', async () => {
    const file = openFile();
    file.write(
      RATE_LIMIT_NAMESPACE,
      [{ key: 'rl:bad', value: '{"count":-1}', expires_at: Date.parse('2026-03-11T00:00:00Z') }],
      [],
    );
    const store = new PersistedRateLimitStore(clock, file);
    expect(await store.peek('rl:bad')).to.deep.equal({ count: 0, ttl_ms: 0, by_action: {} });
    expect(await store.reserve('rl:zero', 60, 0)).to.deep.include({ reserved: false });
    await store.close();
    expect(file.entries(RATE_LIMIT_NAMESPACE).map((r) => r.key)).to.deep.equal(['rl:bad']);
  });

  it('keeps counting when a write fails and writes the counters once the file is back', async () => {
    const errors: Error[] = [];
    let broken = true;
    const file = openFile();
    const flaky = {
      entries: (ns: string) => file.entries(ns),
      write: (ns: string, puts: Parameters<SqliteKeyValueStore['write']>[1], dels: readonly string[]) => {
        if (broken) throw new Error('disk full');
        file.write(ns, puts, dels);
      },
      deleteExpired: () => file.deleteExpired(),
    };
    const store = new PersistedRateLimitStore(clock, flaky, {
      flushEveryMs: 10,
      onError: (e) => errors.push(e),
    });
    await store.reserve('rl:k', 60, 100, 'score');
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(errors.map((e) => e.message)).to.include('disk full');
    expect(await store.reserve('rl:k', 60, 100, 'score')).to.include({ reserved: true, count: 2 });
    broken = false;
    await store.close();
    expect(file.entries(RATE_LIMIT_NAMESPACE)).to.have.length(1);
    expect(await new PersistedRateLimitStore(clock, file).peek('rl:k')).to.include({ count: 2 });
  });
});

describe('rate limiter on a real redis-server', function () {
  let server: RedisServer;
  let redis: RedisConnection;

  before(async () => {
    server = await startRedisServer();
    redis = RedisConnection.open(server.url);
    expect(await redis.ping()).to.equal(true);
  });

  after(async () => {
    await redis?.close();
    await server?.stop();
  });

  describeRateLimitSemantics('shared semantics', () => ({ store: () => redis.rateLimit }));

  // Redis answers in well under a millisecond; this thread then stays busy past the 250 ms deadline
  // (a PDF render, a burst on a loaded box). Timers run before the loop reads the socket, so a
  // plain timer called every such command a timeout: 503 for the request, and a reservation that
  // Redis had made spent a quota place on a call never served.
  it('a reply that arrived while this thread was busy past the deadline is not a timeout', async () => {
    const busy = (ms: number): void => {
      const until = performance.now() + ms;
      while (performance.now() < until) {
        // this thread is busy; Redis has already answered
      }
    };
    const reserved = redis.rateLimit.reserve('rl:busy', 60, 100, 'score');
    busy(600);
    expect(await reserved).to.include({ reserved: true, count: 1 });
    const peeked = redis.rateLimit.peek('rl:busy');
    busy(600);
    expect(await peeked).to.deep.include({ count: 1, by_action: { score: 1 } });
    const looked = redis.idempotency.get('busy-scope', 'busy-key');
    busy(600);
    expect(await looked).to.equal(undefined);
  });
});

/** Resolves with what `promise` rejected with; fails if it resolves or takes longer than `ms`. */
async function rejectionWithin(promise: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms);
  });
  try {
    await Promise.race([promise, deadline]);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('still pending')) throw error;
    return error;
  } finally {
    clearTimeout(timer);
  }
  throw new Error('expected a rejection, got a result');
}

async function eventually<T>(attempt: () => Promise<T>, ms: number): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

describe('rate limiter when Redis fails', () => {
  const clock = new ManualClock('2026-03-10T12:00:00Z');
  let server: RedisServer;
  let redis: RedisConnection;
  let store: RateLimitStore;

  before(async () => {
    server = await startRedisServer();
    redis = RedisConnection.open(server.url, { reconnectMaxDelayMs: 100 });
    store = redis.rateLimit;
    expect(await redis.ping()).to.equal(true);
  });

  after(async () => {
    await redis?.close();
    await server?.stop();
  });

  afterEach(async () => {
    server.resume();
    await server.restart();
    await eventually(async () => expect(await redis.ping()).to.equal(true), 5000);
  });

  it('fails closed at once when Redis is killed: RateLimitStoreUnavailable, never a hang', async () => {
    await server.kill();
    const limiter = new RateLimiter({ store, clock, onStoreError: 'closed' });
    const error = await rejectionWithin(limiter.consume('key_closed', 'lender', 'score'), 1000);
    expect(error).to.be.instanceOf(RateLimitStoreUnavailable);
    expect((error as RateLimitStoreUnavailable).type).to.equal('rate_limit_store_unavailable');
  });

  it('fails closed within the command timeout when Redis hangs', async () => {
    server.pause();
    const limiter = new RateLimiter({ store, clock });
    const error = await rejectionWithin(limiter.consume('key_hung', 'lender'), 1000);
    expect(error).to.be.instanceOf(RateLimitStoreUnavailable);
  });

  // Probed on three nodes: Redis paused (SIGSTOP) for about a second while 33 score calls came in,
  // each answered 503 within 250 ms; once it went on, it ran the 33 queued reservations and
  // usage.used read 39 with 6 calls served — a lender lost a third of the day to calls it never got.
  it('gives back a place Redis takes after the deadline, once it answers: a 503 call never counts', async () => {
    const limiter = new RateLimiter({ store, clock });
    expect(await limiter.consume('key_late', 'lender', 'score')).to.deep.include({ allowed: true, used: 1 });
    server.pause();
    for (let n = 0; n < 3; n += 1)
      expect(await rejectionWithin(limiter.consume('key_late', 'lender', 'score'), 1000)).to.be.instanceOf(
        RateLimitStoreUnavailable,
      );
    server.resume();
    const usage = await eventually(async () => {
      const now = await limiter.usage('key_late');
      expect(now.used, JSON.stringify(now)).to.equal(1);
      return now;
    }, 3000);
    expect(usage.by_action).to.deep.equal({ score: 1 });
    expect(await limiter.consume('key_late', 'lender', 'score')).to.deep.include({ allowed: true, used: 2 });
  });

  // The same past ioredis's 5 s backstop, which drops the late reply: Redis paused for 7 s while
  // 20 calls were answered 503 left 20 places taken once it went on (usage.used 27, 7 served).
  it('gives back a place Redis takes after a hang longer than the client waits for any reply', async function () {
    this.timeout(30_000);
    const limiter = new RateLimiter({ store, clock });
    expect(await limiter.consume('key_long', 'lender', 'score')).to.deep.include({ allowed: true, used: 1 });
    server.pause();
    const refused = await Promise.all(
      [0, 1, 2].map((n) =>
        rejectionWithin(limiter.consume('key_long', 'lender', n === 0 ? 'score' : 'portfolio'), 1000),
      ),
    );
    for (const error of refused) expect(error).to.be.instanceOf(RateLimitStoreUnavailable);
    await new Promise((r) => setTimeout(r, 6500));
    server.resume();
    const usage = await eventually(async () => {
      const now = await limiter.usage('key_long');
      expect(now.used, JSON.stringify(now)).to.equal(1);
      return now;
    }, 4000);
    expect(usage.by_action).to.deep.equal({ score: 1 });
    expect(await limiter.consume('key_long', 'lender', 'score')).to.deep.include({ allowed: true, used: 2 });
  });

  it('fails open when told to: allowed, degraded, only the policy header, the error for the log', async () => {
    await server.kill();
    const limiter = new RateLimiter({ store, clock, onStoreError: 'open' });
    const decision = await limiter.consume('key_open', 'lender', 'score');
    expect(decision).to.deep.include({ allowed: true, degraded: true, limit: 100, retry_after_s: 0 });
    expect(decision.headers).to.deep.equal({ 'RateLimit-Policy': '"daily";q=100;w=86400' });
    if (!decision.degraded) throw new Error('expected a degraded decision');
    expect(decision.error).to.be.instanceOf(RateLimitStoreUnavailable);
  });

  it('cannot report usage while Redis is down, in either mode', async () => {
    await server.kill();
    const limiter = new RateLimiter({ store, clock, onStoreError: 'open' });
    expect(await rejectionWithin(limiter.usage('key_open'), 1000)).to.be.instanceOf(
      RateLimitStoreUnavailable,
    );
  });

  it('reports Redis as not ready while it is down', async () => {
    await server.kill();
    expect(await redis.ping()).to.equal(false);
  });

  it('counts again once Redis is back on the same port, reloading its script', async () => {
    const limiter = new RateLimiter({ store, clock });
    expect(await limiter.consume('key_back', 'lender')).to.deep.include({ allowed: true, used: 1 });
    await server.kill();
    expect(await rejectionWithin(limiter.consume('key_back', 'lender'), 1000)).to.be.instanceOf(
      RateLimitStoreUnavailable,
    );
    await server.restart();
    // The restarted server kept nothing (no persistence), so counting starts over.
    const decision = await eventually(() => limiter.consume('key_back', 'lender', 'score'), 5000);
    expect(decision).to.deep.include({ allowed: true, degraded: false, used: 1 });
    expect((await limiter.usage('key_back')).by_action).to.deep.equal({ score: 1 });
  });
});
