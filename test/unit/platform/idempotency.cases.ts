/**
 * What every idempotency store must do (SPEC §2), written once and run against the in-process,
 * SQLite and Redis stores.
 */
import { expect } from 'chai';
import {
  checkIdempotency,
  releaseIdempotencyKey,
  rememberResponse,
  type IdempotencyRecord,
  type IdempotencyStore,
} from '../../../src/platform/http/idempotency.js';

export interface IdempotencyBackend {
  store: IdempotencyStore;
  /** Lets `seconds` pass for the store: a pinned clock moves, or (Redis) real time is waited out. */
  passTime: (seconds: number) => Promise<void>;
}

const FIRST: IdempotencyRecord = {
  request_hash: 'a'.repeat(64),
  status: 201,
  headers: {
    'content-type': 'application/json; charset=utf-8',
    location: '/api/projects/prj_aaaaaaaaaaaaaaaa',
  },
  body: '{"id":"prj_aaaaaaaaaaaaaaaa","ledger":{"seq":7,"hash":"ab"}}',
};
const SECOND: IdempotencyRecord = {
  ...FIRST,
  request_hash: 'b'.repeat(64),
  status: 409,
  body: '{"code":"CONFLICT"}',
};

export function describeIdempotencyStore(title: string, backend: () => IdempotencyBackend): void {
  describe(title, () => {
    let store: IdempotencyStore;
    let passTime: IdempotencyBackend['passTime'];
    let scope: string;
    let serial = 0;

    beforeEach(() => {
      ({ store, passTime } = backend());
      // A fresh scope per case keeps cases independent on a shared Redis.
      serial += 1;
      scope = `key_idem${String(serial).padStart(12, '0')}`;
    });

    it('lets the first put win and keeps its record against a second put', async () => {
      expect(await store.putIfAbsent(scope, 'k-1', FIRST, 60)).to.equal(true);
      expect(await store.putIfAbsent(scope, 'k-1', SECOND, 60)).to.equal(false);
      expect(await store.get(scope, 'k-1')).to.deep.equal(FIRST);
    });

    it('returns nothing for a key never used', async () => {
      expect(await store.get(scope, 'never')).to.equal(undefined);
    });

    it('keeps scopes (API keys) apart under the same Idempotency-Key', async () => {
      expect(await store.putIfAbsent(scope, 'shared', FIRST, 60)).to.equal(true);
      expect(await store.putIfAbsent(`${scope}x`, 'shared', SECOND, 60)).to.equal(true);
      expect(await store.get(scope, 'shared')).to.deep.equal(FIRST);
      expect(await store.get(`${scope}x`, 'shared')).to.deep.equal(SECOND);
    });

    it('stores keys of any visible characters up to 255 long', async () => {
      const key = `${':/?#[]@!$&()*+,;='.repeat(14)}`.slice(0, 255);
      expect(await store.putIfAbsent(scope, key, FIRST, 60)).to.equal(true);
      expect(await store.get(scope, key)).to.deep.equal(FIRST);
    });

    it('forgets a deleted record so the key can be used again', async () => {
      await store.putIfAbsent(scope, 'k-del', FIRST, 60);
      await store.delete(scope, 'k-del');
      expect(await store.get(scope, 'k-del')).to.equal(undefined);
      expect(await store.putIfAbsent(scope, 'k-del', SECOND, 60)).to.equal(true);
    });

    it('expires a record after its TTL, after which a new first response wins', async () => {
      await store.putIfAbsent(scope, 'k-ttl', FIRST, 1);
      expect(await store.get(scope, 'k-ttl')).to.deep.equal(FIRST);
      await passTime(1);
      expect(await store.get(scope, 'k-ttl')).to.equal(undefined);
      expect(await store.putIfAbsent(scope, 'k-ttl', SECOND, 60)).to.equal(true);
      expect(await store.get(scope, 'k-ttl')).to.deep.equal(SECOND);
    });

    it('drives a retry: proceed, remember, replay the same request, refuse another (422)', async () => {
      const check = (requestHash: string) => checkIdempotency({ store, scope, key: 'retry-1', requestHash });
      expect(await check(FIRST.request_hash)).to.deep.equal({ outcome: 'proceed' });
      expect(await rememberResponse({ store, scope, key: 'retry-1', record: FIRST })).to.deep.equal(FIRST);
      expect(await check(FIRST.request_hash)).to.deep.equal({ outcome: 'replay', record: FIRST });
      expect(await check(SECOND.request_hash)).to.deep.equal({
        outcome: 'mismatch',
        code: 'IDEMPOTENCY_KEY_REUSED',
      });
    });

    it('lets one attempt run at a time: the same request waits (409), another is refused (422)', async () => {
      const check = (requestHash: string) =>
        checkIdempotency({ store, scope, key: 'running-1', requestHash });
      expect(await check(FIRST.request_hash)).to.deep.equal({ outcome: 'proceed' });
      expect(await check(FIRST.request_hash)).to.deep.equal({ outcome: 'in_progress', code: 'CONFLICT' });
      expect(await check(SECOND.request_hash)).to.deep.equal({
        outcome: 'mismatch',
        code: 'IDEMPOTENCY_KEY_REUSED',
      });
      await rememberResponse({ store, scope, key: 'running-1', record: FIRST });
      releaseIdempotencyKey({ store, scope, key: 'running-1' });
      expect(await check(FIRST.request_hash)).to.deep.equal({ outcome: 'replay', record: FIRST });
    });

    it('frees the key of an attempt that let go without an answer', async () => {
      const check = () =>
        checkIdempotency({ store, scope, key: 'running-2', requestHash: FIRST.request_hash });
      expect(await check()).to.deep.equal({ outcome: 'proceed' });
      releaseIdempotencyKey({ store, scope, key: 'running-2' });
      expect(await check()).to.deep.equal({ outcome: 'proceed' });
    });

    it('gives both of two racing first attempts the winning record', async () => {
      const racers = [FIRST, { ...FIRST, body: '{"late":true}' }];
      const kept = await Promise.all(
        racers.map((record) => rememberResponse({ store, scope, key: 'race', record })),
      );
      expect(kept[0]).to.deep.equal(kept[1]);
      expect(await store.get(scope, 'race')).to.deep.equal(kept[0]);
    });
  });
}
