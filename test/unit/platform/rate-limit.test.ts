import { expect } from 'chai';
import { ManualClock } from '../../../src/platform/clock.js';
import {
  MemoryRateLimitStore,
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
