/**
 * A whole service whose SAM_API_KEY points at a local SAM.gov stand-in (sam-stub.ts), for the
 * specs of the live registry check. Call inside a `describe`: it registers the mocha hooks that
 * start the stub once, and a fresh service, lender key and entity before each test.
 */
import { expect } from 'chai';
import request from 'supertest';
import type { IssuedKey } from '../../src/orgs/keys.js';
import type { SealedEvent } from '../../src/platform/ledger/envelope.js';
import { startSamStub, type SamStub } from './sam-stub.js';
import { startService, type TestService } from './service.js';

export interface SamHarness {
  sam: SamStub;
  svc: TestService;
  /** A lender key with every scope. */
  key: IssuedKey;
  /** The id of the entity registered before each test. */
  entityId: string;
  /** Registers another entity; its id. */
  entity: (body: Record<string, unknown>) => Promise<string>;
  /** A lender credit API call with the seed's header. */
  lender: (action: string, body: object, headers?: Record<string, string>) => request.Test;
  /** The RegistryVerified events on an entity's stream. */
  verifications: (entityId: string) => Promise<SealedEvent[]>;
}

export function useSamService(opts: {
  apiKey: string;
  entity: Record<string, unknown>;
  now?: string;
  timeoutMs?: number;
}): SamHarness {
  const h = {
    entity: async (body) => {
      const res = await request(h.svc.app)
        .post('/api/entities')
        .set('Authorization', `Bearer ${h.key.key}`)
        .send(body);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return String(res.body.id);
    },
    lender: (action, body, headers = {}) =>
      request(h.svc.app)
        .post(`/api/lender-credit?action=${action}`)
        .set('x-service-api-key', h.key.key)
        .set(headers)
        .send(body),
    verifications: async (entityId) =>
      (await h.svc.composed.store.readStream(`entity-${entityId}`)).filter(
        (e) => e.type === 'RegistryVerified',
      ),
  } as SamHarness;
  before(async () => {
    h.sam = await startSamStub();
  });
  after(async () => {
    await h.sam.stop();
  });
  beforeEach(async () => {
    h.sam.reset();
    h.svc = await startService({
      ...(opts.now ? { now: opts.now } : {}),
      samApi: { apiKey: opts.apiKey, baseUrl: h.sam.url, timeoutMs: opts.timeoutMs ?? 300 },
    });
    h.key = await h.svc.key('First Builders Bank');
    h.entityId = await h.entity(opts.entity);
  });
  afterEach(async () => {
    await h.svc.close();
  });
  return h;
}
