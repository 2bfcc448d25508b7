/**
 * The rate-limit semantics every store must give the limiter (SPEC §3), written once and run
 * against the in-process store and a real redis-server.
 */
import { expect } from 'chai';
import { ManualClock } from '../../../src/platform/clock.js';
import {
  RateLimiter,
  type CountedDecision,
  type RateLimitStore,
} from '../../../src/platform/rate-limit/index.js';

export interface RateLimitBackend {
  /** A store whose own notion of time (if any) follows `clock`. */
  store(clock: ManualClock): RateLimitStore;
}

function counted(decision: Awaited<ReturnType<RateLimiter['consume']>>): CountedDecision {
  if (decision.degraded) throw new Error('expected a counted decision, got a degraded one');
  return decision;
}

export function describeRateLimitSemantics(title: string, backend: () => RateLimitBackend): void {
  describe(title, () => {
    let clock: ManualClock;
    let store: RateLimitStore;
    let limiter: RateLimiter;
    let keyId: string;
    let serial = 0;

    beforeEach(() => {
      clock = new ManualClock('2026-03-10T12:00:00Z');
      store = backend().store(clock);
      limiter = new RateLimiter({ store, clock });
      // A fresh key per case keeps cases independent on a shared Redis.
      serial += 1;
      keyId = `key_case${String(serial).padStart(12, '0')}`;
    });

    const consumeMany = (count: number, action?: string): Promise<CountedDecision[]> =>
      Promise.all(
        Array.from({ length: count }, () => limiter.consume(keyId, 'lender', action).then(counted)),
      );

    it('allows exactly 100 of 150 concurrent calls in one UTC day, each allowed one taking its own place', async () => {
      const decisions = await consumeMany(150, 'score');
      const allowed = decisions.filter((d) => d.allowed);
      expect(allowed).to.have.length(100);
      expect(new Set(allowed.map((d) => d.used)).size).to.equal(100);
      expect(Math.max(...decisions.map((d) => d.used))).to.equal(100);
      // A refused call takes no place: the window holds the 100 served calls only.
      expect(decisions.filter((d) => !d.allowed).every((d) => d.reservation === null)).to.equal(true);
      expect(await limiter.usage(keyId)).to.deep.include({ used: 100, by_action: { score: 100 } });
    });

    it('gives back the place of a call that was not served, so the window counts served calls only', async () => {
      const decisions = await consumeMany(3, 'score');
      await limiter.release(decisions[0]!.reservation!);
      expect(await limiter.usage(keyId)).to.deep.include({ used: 2, remaining: 98, by_action: { score: 2 } });
      await Promise.all(decisions.slice(1).map((d) => limiter.release(d.reservation!)));
      expect(await limiter.usage(keyId)).to.deep.include({ used: 0, remaining: 100, by_action: {} });
      // A full window refuses; a released place can be taken again.
      const full = await consumeMany(100, 'verify');
      expect(counted(await limiter.consume(keyId, 'lender', 'verify')).allowed).to.equal(false);
      await limiter.release(full[0]!.reservation!);
      expect(counted(await limiter.consume(keyId, 'lender', 'verify'))).to.deep.include({
        allowed: true,
        used: 100,
      });
    });

    it('reports limit, remaining, reset and the RateLimit headers on a counted call', async () => {
      const first = counted(await limiter.consume(keyId, 'lender', 'score'));
      expect(first).to.deep.include({ allowed: true, limit: 100, used: 1, remaining: 99, retry_after_s: 0 });
      expect(first.reset_at).to.equal('2026-03-11T00:00:00.000Z');
      expect(first.headers).to.deep.equal({
        'RateLimit-Policy': '"daily";q=100;w=86400',
        RateLimit: '"daily";r=99;t=43200',
      });
    });

    it('refuses the 101st call with Retry-After up to the next UTC midnight', async () => {
      await consumeMany(100);
      clock.advance(30 * 60_000);
      const refused = counted(await limiter.consume(keyId, 'lender'));
      expect(refused).to.deep.include({ allowed: false, remaining: 0, used: 100, retry_after_s: 41_400 });
      expect(refused.headers.RateLimit).to.equal('"daily";r=0;t=41400');
    });

    it('starts a fresh window at 00:00:00 UTC (23:59:59 refused, midnight allowed)', async () => {
      clock.set('2026-03-10T23:59:59Z');
      await consumeMany(100);
      const lastSecond = counted(await limiter.consume(keyId, 'lender'));
      expect(lastSecond).to.deep.include({ allowed: false, retry_after_s: 1 });
      expect(lastSecond.headers.RateLimit).to.equal('"daily";r=0;t=1');
      clock.set('2026-03-11T00:00:00Z');
      const midnight = counted(await limiter.consume(keyId, 'lender'));
      expect(midnight).to.deep.include({
        allowed: true,
        used: 1,
        remaining: 99,
        reset_at: '2026-03-12T00:00:00.000Z',
      });
      expect(midnight.headers.RateLimit).to.equal('"daily";r=99;t=86400');
    });

    it('counts the project policy per UTC minute: 600 allowed, the 601st waits for the next minute', async () => {
      clock.set('2026-03-10T12:00:30Z');
      const decisions = await Promise.all(
        Array.from({ length: 601 }, () => limiter.consume(keyId, 'project').then(counted)),
      );
      expect(decisions.filter((d) => d.allowed)).to.have.length(600);
      const refused = decisions.find((d) => !d.allowed)!;
      expect(refused).to.deep.include({ retry_after_s: 30, reset_at: '2026-03-10T12:01:00.000Z' });
      expect(refused.headers).to.deep.equal({
        'RateLimit-Policy': '"minute";q=600;w=60',
        RateLimit: '"minute";r=0;t=30',
      });
      clock.set('2026-03-10T12:01:00Z');
      expect(counted(await limiter.consume(keyId, 'project'))).to.deep.include({ allowed: true, used: 1 });
    });

    it('keeps the daily and minute counters of one key apart, and keys apart from each other', async () => {
      await consumeMany(3);
      expect(counted(await limiter.consume(keyId, 'project')).used).to.equal(1);
      expect(counted(await limiter.consume(`${keyId}x`, 'lender')).used).to.equal(1);
      expect(counted(await limiter.consume(keyId, 'lender')).used).to.equal(4);
    });

    it('reports usage with per-action counts without counting the usage call', async () => {
      await consumeMany(2, 'score');
      await consumeMany(1, 'verify');
      const usage = await limiter.usage(keyId);
      expect(usage).to.deep.equal({
        key_id: keyId,
        limit: 100,
        used: 3,
        remaining: 97,
        window: 'UTC day',
        resets_at: '2026-03-11T00:00:00.000Z',
        by_action: { score: 2, verify: 1 },
      });
      expect(await limiter.usage(keyId)).to.deep.equal(usage);
      expect(counted(await limiter.consume(keyId, 'lender', 'score')).used).to.equal(4);
    });

    it('reports an unused key as untouched', async () => {
      expect(await limiter.usage(keyId)).to.deep.include({ used: 0, remaining: 100, by_action: {} });
    });

    it('gives a counter its TTL on the first reservation and keeps it on later ones', async () => {
      const key = `rl:${keyId}:ttl`;
      const first = await store.reserve(key, 120, 10);
      expect(first).to.deep.include({ reserved: true, count: 1 });
      expect(first.ttl_ms).to.be.within(119_000, 120_000);
      const second = await store.reserve(key, 9_999, 10);
      expect(second).to.deep.include({ reserved: true, count: 2 });
      expect(second.ttl_ms).to.be.within(118_000, 120_000);
      const peek = await store.peek(key);
      expect(peek.count).to.equal(2);
      expect(peek.ttl_ms).to.be.within(118_000, 120_000);
    });

    it('lets a limiter give the counter its window plus a grace period to live', async () => {
      clock.set('2026-03-10T23:59:00Z');
      await limiter.consume(keyId, 'lender', 'score');
      const peek = await store.peek(`rl:${keyId}:20260310`);
      expect(peek.count).to.equal(1);
      // 60 s to midnight + 60 s grace for clocks that disagree.
      expect(peek.ttl_ms).to.be.within(119_000, 120_000);
      expect(peek.by_action).to.deep.equal({ score: 1 });
    });
  });
}
