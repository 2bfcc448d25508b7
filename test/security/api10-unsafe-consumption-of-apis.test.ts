/**
 * OWASP API10:2023 — Unsafe Consumption of APIs. Plumbline consumes one third-party API: SAM.gov's
 * Entity Management and Exclusions APIs (when SAM_API_KEY is set). This spec proves their answers
 * are treated as untrusted input: a local server plays a misbehaving SAM.gov — bodies that are not
 * JSON, truncated, of the wrong types, oversized or endless, redirects elsewhere, prototype keys,
 * dropped connections, hangs, 429 and 5xx — and for each the lender `verify` and `score` calls
 * still answer 200 from the imported extract with a fallback reason of our own wording, the
 * process keeps serving, the body read stops at the cap, and the ledger receives only what the
 * documented shape allows (nothing of SAM's text, never the SAM API key). A well-formed answer
 * that lists other entities' records contributes only the records that match the entity asked.
 *
 * Run: npx mocha test/security/api10-unsafe-consumption-of-apis.test.ts
 */
import type { ServerResponse } from 'node:http';
import { expect } from 'chai';
import request from 'supertest';
import type { SealedEvent } from '../../src/platform/ledger/envelope.js';
import { SAM_API_MAX_BODY_BYTES } from '../../src/registry/index.js';
import {
  entitiesPage,
  exclusionsPage,
  SAM_ENTITIES,
  SAM_EXCLUSIONS,
  samEntity,
  sendJson,
  type SamStubHandler,
} from '../support/sam-stub.js';
import { useSamService } from '../support/sam-service.js';

const SAM_KEY = 'SAM-SECRET-KEY-0c1d2e3f';
const UEI = 'HRBRVWBLD001';
/** Words only the hostile server says: none may reach a report or the ledger. */
const HOSTILE_MARK = 'EVIL-PAYLOAD-7731';

const ok =
  (body: unknown): SamStubHandler =>
  (_req, res) =>
    sendJson(res, 200, body);
const raw =
  (status: number, text: string, headers: Record<string, string> = {}): SamStubHandler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(text);
  };
/** Streams `{"entityData":[` and then junk forever (until the client hangs up). */
const endless: SamStubHandler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"entityData":[');
  const chunk = `"${HOSTILE_MARK}${'x'.repeat(64 * 1024)}",`;
  const pump = (): void => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', pump);
  };
  pump();
};
const valid = samEntity({ uei: UEI, name: 'HARBOR VIEW BUILDERS LLC' });
const withReg = (patch: Record<string, unknown>) => ({
  ...valid,
  entityRegistration: { ...(valid.entityRegistration as object), ...patch },
});

interface HostileCase {
  name: string;
  entities: SamStubHandler;
  exclusions?: SamStubHandler;
  reason: string;
}

const CASES: HostileCase[] = [
  {
    name: 'HTML instead of JSON',
    entities: raw(200, `<html>${HOSTILE_MARK}</html>`),
    reason: 'bad_response',
  },
  {
    name: 'truncated JSON',
    entities: raw(200, `{"entityData":[{"entityRegistration":`),
    reason: 'bad_response',
  },
  { name: 'JSON null', entities: raw(200, 'null'), reason: 'bad_response' },
  { name: 'a JSON array', entities: raw(200, `["${HOSTILE_MARK}"]`), reason: 'bad_response' },
  { name: 'entityData as an object', entities: ok({ entityData: { 0: valid } }), reason: 'bad_response' },
  { name: 'ueiSAM as a number', entities: ok(entitiesPage(withReg({ ueiSAM: 7 }))), reason: 'bad_response' },
  {
    name: 'registrationStatus as an object',
    entities: ok(entitiesPage(withReg({ registrationStatus: { $gt: '' } }))),
    reason: 'bad_response',
  },
  {
    name: 'a 5,000-character legal name',
    entities: ok(entitiesPage(withReg({ legalBusinessName: HOSTILE_MARK.repeat(300) }))),
    reason: 'bad_response',
  },
  {
    name: 'excludedEntity of strings',
    entities: ok(entitiesPage(valid)),
    exclusions: ok({ excludedEntity: [HOSTILE_MARK] }),
    reason: 'bad_response',
  },
  {
    name: `a body over the ${SAM_API_MAX_BODY_BYTES}-byte cap with Content-Length`,
    entities: raw(200, JSON.stringify({ entityData: [], pad: HOSTILE_MARK.repeat(80_000) })),
    reason: 'bad_response',
  },
  { name: 'an endless body (no Content-Length)', entities: endless, reason: 'bad_response' },
  {
    name: 'a redirect to another host',
    entities: raw(302, '', { location: `http://169.254.169.254/latest/meta-data?${HOSTILE_MARK}` }),
    reason: 'network',
  },
  {
    name: 'a dropped connection',
    entities: (_req, res: ServerResponse) => res.socket?.destroy(),
    reason: 'network',
  },
  { name: 'a hang', entities: () => undefined, reason: 'timeout' },
  {
    name: 'a 429',
    entities: raw(429, `{"message":"${HOSTILE_MARK}"}`, { 'retry-after': 'soon' }),
    reason: 'rate_limited',
  },
  {
    name: 'a 500 with a long HTML page',
    entities: raw(500, `<h1>${HOSTILE_MARK}</h1>`.repeat(10_000)),
    reason: 'http_error',
  },
  {
    name: 'a 401 (the key refused)',
    entities: raw(401, `{"error":"${HOSTILE_MARK}"}`),
    reason: 'unauthorized',
  },
];

describe('OWASP API10:2023 unsafe consumption of APIs: SAM.gov answers are untrusted', function () {
  this.timeout(30_000);
  const h = useSamService({
    apiKey: SAM_KEY,
    entity: { legal_name: 'Harbor View Builders LLC', roles: ['general_contractor'], uei: UEI },
  });
  const lender = (action: string) => h.lender(action, { entity: h.entityId });

  async function ledgerText(): Promise<{ text: string; verifications: SealedEvent[] }> {
    const events = await h.svc.composed.store.read(1, 10_000);
    return {
      text: JSON.stringify(events),
      verifications: events.filter((e) => e.type === 'RegistryVerified'),
    };
  }

  for (const hostile of CASES) {
    it(`answers from the extract on ${hostile.name}, and keeps SAM's bytes out of the ledger`, async () => {
      h.sam.on(SAM_ENTITIES, hostile.entities);
      h.sam.on(SAM_EXCLUSIONS, hostile.exclusions ?? ok(exclusionsPage()));
      const verified = await lender('verify');
      expect(verified.status, verified.text.slice(0, 300)).to.equal(200);
      const registry = verified.body.contractor_registry;
      expect(registry.source).to.deep.equal({ kind: 'sam_extract', as_of: '2026-06-15' });
      expect(registry.fallback.reason).to.equal(hostile.reason);
      expect(registry.fallback.detail).to.match(
        /^SAM\.gov [^;]+; the imported SAM extract answered instead\.$/,
      );
      const scored = await lender('score');
      expect(scored.status).to.equal(200);
      expect(scored.body.contractor_registry.fallback.reason).to.be.oneOf([hostile.reason, 'rate_limited']);

      for (const body of [verified.text, scored.text]) {
        expect(body).not.to.include(HOSTILE_MARK);
        expect(body).not.to.include(SAM_KEY);
      }
      const { text, verifications } = await ledgerText();
      expect(text).not.to.include(HOSTILE_MARK);
      expect(text).not.to.include(SAM_KEY);
      expect(verifications).to.have.length(1);
      expect(verifications[0]!.data).not.to.have.property('sam_answer');
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
      // Still serving.
      expect((await request(h.svc.app).get('/healthz')).status).to.equal(200);
    });
  }

  it('ignores prototype keys and undocumented fields, recording only the documented fields', async () => {
    const hostileEntity = {
      ...withReg({ __proto__: { polluted: true }, notes: HOSTILE_MARK }),
      constructor: { prototype: { polluted: true } },
      extra: HOSTILE_MARK,
    };
    h.sam.on(
      SAM_ENTITIES,
      raw(
        200,
        JSON.stringify(entitiesPage(hostileEntity)).replace(
          '"notes"',
          '"__proto__":{"polluted":true},"notes"',
        ),
      ),
    );
    h.sam.on(SAM_EXCLUSIONS, ok(exclusionsPage()));
    const res = await lender('verify');
    expect(res.status).to.equal(200);
    expect(res.body.contractor_registry.source.kind).to.equal('sam_api');
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    const { text, verifications } = await ledgerText();
    expect(text).not.to.include(HOSTILE_MARK);
    const answer = (verifications[0]!.data as { sam_answer: Record<string, unknown> }).sam_answer;
    expect(Object.keys(answer).sort()).to.deep.equal(['exclusions', 'fetched_at', 'registrations']);
    expect(answer.registrations).to.deep.equal([
      {
        uei: UEI,
        cage: null,
        legal_name: 'HARBOR VIEW BUILDERS LLC',
        status: 'active',
        expires_on: '2027-01-14',
      },
    ]);
  });

  it('keeps only the records that match the entity asked about; dates it cannot read stay unknown', async () => {
    h.sam.on(
      SAM_ENTITIES,
      ok(
        entitiesPage(
          samEntity({ uei: 'NOTTHISONE01', name: 'HARBOR VIEW BUILDERS LLC', expires: '2099-12-31' }),
          withReg({ registrationExpirationDate: `${HOSTILE_MARK}` }),
        ),
      ),
    );
    h.sam.on(SAM_EXCLUSIONS, ok(exclusionsPage()));
    const res = await lender('verify');
    expect(res.status).to.equal(200);
    // The only record for this UEI has no readable expiry: not active (fail closed).
    expect(res.body.contractor_registry).to.deep.include({
      registration: 'inactive',
      uei: UEI,
      registration_expires_on: null,
    });
    const { text } = await ledgerText();
    expect(text).not.to.include('NOTTHISONE01');
    expect(text).not.to.include(HOSTILE_MARK);
  });
});
