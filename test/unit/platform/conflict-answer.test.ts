/**
 * The answer to a command whose ledger head kept moving (ConflictRetriesExhausted): 409 CONFLICT
 * with Retry-After, never remembered by the idempotency layer, so a retry with the same
 * Idempotency-Key runs the command again instead of replaying the conflict. Also the store
 * failures that are not outages: each has its own problem, not "unavailable".
 */
import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import { ManualClock } from '../../../src/platform/clock.js';
import { setContext } from '../../../src/platform/http/context.js';
import { errorHandler } from '../../../src/platform/http/errors.js';
import { idempotent } from '../../../src/platform/http/idempotent.js';
import { memoryIdempotencyStore } from '../../../src/platform/http/idempotency.js';
import {
  AppendTooLarge,
  ConflictRetriesExhausted,
  StoreAccessDenied,
  StoreNotLeader,
} from '../../../src/platform/ledger/errors.js';
import { backoffMs } from '../../../src/platform/ledger/ledger.js';
import { createLogger } from '../../../src/platform/log.js';

function appThrowing(failures: Error[]) {
  const app = express();
  app.use(express.json());
  app.use((req, _res, next) => {
    setContext(req, {
      request_id: 'req-conflict-0001',
      surface: 'project',
      started_at: 0,
      auth: { key_id: 'key_test', org_id: 'org_test', scopes: ['admin'], mode: 'live' },
      idempotency_key: null,
      idempotency_request_hash: null,
      route: null,
    });
    next();
  });
  app.post(
    '/things',
    idempotent(memoryIdempotencyStore(new ManualClock('2026-03-10T12:00:00Z'))),
    (_req, res) => {
      const failure = failures.shift();
      if (failure) throw failure;
      res.status(201).send(JSON.stringify({ ok: true }));
    },
  );
  app.use(errorHandler(createLogger('silent')));
  return app;
}

describe('answers to store and conflict failures', () => {
  it('answers ConflictRetriesExhausted with 409 CONFLICT and Retry-After, and never replays it', async () => {
    const app = appThrowing([new ConflictRetriesExhausted(10)]);
    const first = await request(app).post('/things').set('Idempotency-Key', 'same-key-1').send({ a: 1 });
    expect(first.status).to.equal(409);
    expect(first.body.code).to.equal('CONFLICT');
    expect(first.headers['retry-after']).to.equal('1');
    const retry = await request(app).post('/things').set('Idempotency-Key', 'same-key-1').send({ a: 1 });
    expect(retry.status).to.equal(201);
    expect(retry.headers['idempotent-replayed']).to.equal(undefined);
    const replay = await request(app).post('/things').set('Idempotency-Key', 'same-key-1').send({ a: 1 });
    expect(replay.status).to.equal(201);
    expect(replay.headers['idempotent-replayed']).to.equal('true');
  });

  it('answers an over-limit append with 413 PAYLOAD_TOO_LARGE naming the limit', async () => {
    const res = await request(appThrowing([new AppendTooLarge(undefined, 1048576)]))
      .post('/things')
      .send({});
    expect(res.status).to.equal(413);
    expect(res.body).to.include({
      code: 'PAYLOAD_TOO_LARGE',
      reason: 'append_too_large',
      max_append_bytes: 1048576,
    });
  });

  it('answers a store that is not the leader with 503, reason store_not_leader and a short Retry-After', async () => {
    const res = await request(appThrowing([new StoreNotLeader('not leader', 'esdb-2:2113')]))
      .post('/things')
      .send({});
    expect(res.status).to.equal(503);
    expect(res.body).to.include({ code: 'UNAVAILABLE', reason: 'store_not_leader' });
    expect(res.headers['retry-after']).to.equal('1');
  });

  it('answers access denied by the store with 500 and reason store_access_denied, without Retry-After', async () => {
    const res = await request(appThrowing([new StoreAccessDenied('denied')]))
      .post('/things')
      .send({});
    expect(res.status).to.equal(500);
    expect(res.body).to.include({ code: 'INTERNAL', reason: 'store_access_denied' });
    expect(res.headers['retry-after']).to.equal(undefined);
  });
});

describe('ledger conflict backoff', () => {
  it('waits below an exponentially growing ceiling, capped at 250 ms', () => {
    const ceilings = [1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => backoffMs(attempt, () => 0.999999) + 1);
    expect(ceilings).to.deep.equal([5, 10, 20, 40, 80, 160, 250, 250]);
    expect(backoffMs(3, () => 0)).to.equal(0);
  });
});
