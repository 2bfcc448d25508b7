import { expect } from 'chai';
import { ManualClock } from '../../../src/platform/clock.js';
import { SqliteEventStore, SqliteKeyValueStore } from '../../../src/platform/event-store/sqlite.js';
import {
  checkIdempotency,
  IDEMPOTENCY_TTL_SECONDS,
  idempotencyEventId,
  idempotencyRequestHash,
  IdempotencyStoreUnavailable,
  isValidIdempotencyKey,
  KeyValueIdempotencyStore,
  memoryIdempotencyStore,
  MemoryKeyValueStore,
  pickReplayedHeaders,
  rememberResponse,
  releaseIdempotencyKey,
  type KeyValueStore,
} from '../../../src/platform/http/idempotency.js';
import { RedisConnection } from '../../../src/platform/rate-limit/index.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { describeIdempotencyStore } from './idempotency.cases.js';

const START = '2026-03-10T12:00:00Z';

async function eventually(check: () => Promise<boolean>, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`condition not reached within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describeIdempotencyStore('idempotency store in process', () => {
  const clock = new ManualClock(START);
  return {
    store: memoryIdempotencyStore(clock),
    passTime: (seconds) => Promise.resolve(clock.advance(seconds * 1000)),
  };
});

describe('idempotency store in SQLite', () => {
  const clock = new ManualClock(START);
  let ledger: SqliteEventStore;
  let kv: SqliteKeyValueStore;

  before(() => {
    ledger = SqliteEventStore.open(':memory:');
    kv = new SqliteKeyValueStore(ledger, clock);
  });
  after(async () => {
    kv.close();
    await ledger.close();
  });

  describeIdempotencyStore('shared cases', () => ({
    store: new KeyValueIdempotencyStore(kv),
    passTime: (seconds) => Promise.resolve(clock.advance(seconds * 1000)),
  }));

  it('keeps a record until the last millisecond of its TTL', async () => {
    await kv.putIfAbsent('ns', 'edge', 'v', 10);
    clock.advance(9_999);
    expect(await kv.get('ns', 'edge')).to.equal('v');
    clock.advance(1);
    expect(await kv.get('ns', 'edge')).to.equal(undefined);
  });

  it('reclaims expired rows on request and leaves live ones', async () => {
    await kv.putIfAbsent('sweep', 'old', 'v', 1);
    await kv.putIfAbsent('sweep', 'live', 'v', 3600);
    clock.advance(2_000);
    expect(kv.deleteExpired()).to.be.at.least(1);
    expect(await kv.get('sweep', 'live')).to.equal('v');
  });
});

describe('idempotency store in Redis', () => {
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

  describeIdempotencyStore('shared cases', () => ({
    store: redis.idempotency,
    // Redis keeps its own time; the TTL case waits one real second plus a margin.
    passTime: (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000 + 100)),
  }));

  // Two nodes on one Redis: a first attempt on each at once, with different bodies, both ran —
  // the ledger took the first one's events (ids derive from the key) and the other answered 201
  // naming an entity it never recorded. The first attempt now claims the key in Redis too.
  it('lets one first attempt run across two nodes: the other is told 422 (another body) or 409 (the same)', async () => {
    const other = RedisConnection.open(server.url);
    try {
      expect(await other.ping()).to.equal(true);
      const check = (store: typeof redis.idempotency, requestHash: string, key = 'raced') =>
        checkIdempotency({ store, scope: 'key_nodes', key, requestHash });
      expect(await check(redis.idempotency, 'h1')).to.deep.equal({ outcome: 'proceed' });
      expect(await check(other.idempotency, 'h2')).to.deep.equal({
        outcome: 'mismatch',
        code: 'IDEMPOTENCY_KEY_REUSED',
      });
      expect(await check(other.idempotency, 'h1')).to.deep.equal({
        outcome: 'in_progress',
        code: 'CONFLICT',
      });
      const record = { request_hash: 'h1', status: 201, headers: {}, body: '{"id":"ent_1"}' };
      await rememberResponse({ store: redis.idempotency, scope: 'key_nodes', key: 'raced', record });
      releaseIdempotencyKey({ store: redis.idempotency, scope: 'key_nodes', key: 'raced' });
      expect(await check(other.idempotency, 'h1')).to.deep.equal({ outcome: 'replay', record });
      expect(await check(other.idempotency, 'h2')).to.deep.include({ outcome: 'mismatch' });
      // A claim never let go of (its node died) holds the key for the claim's TTL only.
      const claimed = await other.idempotency.claim!('key_nodes', 'dead', 'h4', 1);
      expect(claimed).to.equal(null);
      expect(await check(redis.idempotency, 'h4', 'dead')).to.deep.equal({
        outcome: 'in_progress',
        code: 'CONFLICT',
      });
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(await check(redis.idempotency, 'h4', 'dead')).to.deep.equal({ outcome: 'proceed' });
    } finally {
      await other.close();
    }
  });

  it('answers IdempotencyStoreUnavailable while Redis is down', async () => {
    await server.kill();
    try {
      const failure = await redis.idempotency.get('key_down', 'k').then(
        () => new Error('expected a rejection'),
        (error: unknown) => error,
      );
      expect(failure).to.be.instanceOf(IdempotencyStoreUnavailable);
    } finally {
      await server.restart();
      await eventually(() => redis.ping(), 5000);
    }
  });
});

describe('idempotency request hash', () => {
  const base = { method: 'POST', path: '/api/projects', body: { name: 'Tower', loan_amount: 100 } };

  it('ignores key order and spacing in the body (JCS)', () => {
    expect(idempotencyRequestHash(base)).to.equal(
      idempotencyRequestHash({
        ...base,
        method: 'post',
        body: JSON.parse('{ "loan_amount": 100, "name": "Tower" }'),
      }),
    );
  });

  it('changes with the method, the path or query, and the body', () => {
    const hash = idempotencyRequestHash(base);
    expect(idempotencyRequestHash({ ...base, method: 'PUT' })).to.not.equal(hash);
    expect(idempotencyRequestHash({ ...base, path: '/api/projects?x=1' })).to.not.equal(hash);
    expect(idempotencyRequestHash({ ...base, body: { name: 'Tower', loan_amount: 101 } })).to.not.equal(hash);
    expect(idempotencyRequestHash({ ...base, body: undefined })).to.not.equal(hash);
    expect(hash).to.match(/^[0-9a-f]{64}$/);
  });
});

describe('Idempotency-Key header', () => {
  it('accepts 1 to 255 visible ASCII characters and nothing else', () => {
    expect(isValidIdempotencyKey('a')).to.equal(true);
    expect(isValidIdempotencyKey('x'.repeat(255))).to.equal(true);
    expect(isValidIdempotencyKey('x'.repeat(256))).to.equal(false);
    expect(isValidIdempotencyKey('')).to.equal(false);
    expect(isValidIdempotencyKey('has space')).to.equal(false);
    expect(isValidIdempotencyKey('naïve')).to.equal(false);
  });

  it('is refused before the store is asked when too long', async () => {
    const store = memoryIdempotencyStore(new ManualClock(START));
    const check = await checkIdempotency({ store, scope: 'key_a', key: 'x'.repeat(256), requestHash: 'h' });
    expect(check).to.deep.equal({ outcome: 'invalid_key', code: 'INVALID_REQUEST' });
  });

  it('keeps records for 24 hours by default', async () => {
    const clock = new ManualClock(START);
    const store = memoryIdempotencyStore(clock);
    const record = { request_hash: 'h', status: 201, headers: {}, body: '{}' };
    await rememberResponse({ store, scope: 'key_a', key: 'day', record });
    expect(IDEMPOTENCY_TTL_SECONDS).to.equal(86_400);
    clock.advance(86_400_000 - 1);
    expect(await store.get('key_a', 'day')).to.deep.equal(record);
    clock.advance(1);
    expect(await store.get('key_a', 'day')).to.equal(undefined);
  });

  it('forgets the attempts a process was running when it ends: a retry after a restart runs', async () => {
    const clock = new ManualClock(START);
    const kv = new MemoryKeyValueStore(clock);
    const check = (store: KeyValueIdempotencyStore) =>
      checkIdempotency({ store, scope: 'key_a', key: 'crashed', requestHash: 'h' });
    const before = new KeyValueIdempotencyStore(kv);
    expect(await check(before)).to.deep.equal({ outcome: 'proceed' });
    expect(await check(before)).to.deep.equal({ outcome: 'in_progress', code: 'CONFLICT' });
    // The restarted process opens the same records anew; nothing of the dead attempt holds the key.
    expect(await check(new KeyValueIdempotencyStore(kv))).to.deep.equal({ outcome: 'proceed' });
  });
});

describe('idempotency records', () => {
  it('replay only content-type and location, by lower-case name', () => {
    expect(
      pickReplayedHeaders({
        'Content-Type': 'application/json',
        Location: '/api/draws/DRW-1',
        'Plumbline-Signature': 't=1,kid=key_a,v1=00',
        'Request-Id': 'req-12345678',
        'Set-Cookie': ['a=b'],
      }),
    ).to.deep.equal({ 'content-type': 'application/json', location: '/api/draws/DRW-1' });
  });

  it('that do not parse are reported as an unavailable store, never replayed', async () => {
    const corrupt: KeyValueStore = {
      get: () => Promise.resolve('{"status":"not a number"}'),
      putIfAbsent: () => Promise.resolve(false),
      delete: () => Promise.resolve(),
    };
    const store = new KeyValueIdempotencyStore(corrupt);
    const failure = await store.get('key_a', 'k').then(
      () => new Error('expected a rejection'),
      (error: unknown) => error,
    );
    expect(failure).to.be.instanceOf(IdempotencyStoreUnavailable);
  });
});

describe('idempotent event ids', () => {
  it('are UUIDv5, the same on every retry, and differ per event index, key, API key and request', () => {
    const request = idempotencyRequestHash({ method: 'POST', path: '/api/entities', body: { a: 1 } });
    const other = idempotencyRequestHash({ method: 'POST', path: '/api/entities', body: { a: 2 } });
    const id = idempotencyEventId('key_a', 'order-42', request, 0);
    expect(id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(idempotencyEventId('key_a', 'order-42', request, 0)).to.equal(id);
    const others = [
      idempotencyEventId('key_a', 'order-42', request, 1),
      idempotencyEventId('key_a', 'order-43', request, 0),
      idempotencyEventId('key_b', 'order-42', request, 0),
      idempotencyEventId('key_a', 'order-42', other, 0),
    ];
    expect(new Set([id, ...others]).size).to.equal(5);
  });
});
