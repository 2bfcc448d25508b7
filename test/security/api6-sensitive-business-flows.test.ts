/**
 * OWASP API6:2023 — Unrestricted Access to Sensitive Business Flows.
 *
 * Proves that the bureau's shared flows cannot be turned against a firm or a lender: a lender with
 * no relationship to a contractor cannot furnish facts that move its credit for every lender —
 * not as entity-level facts (403: reserved to the platform operator), not on its own project the
 * firm takes no part in, and not on another lender's project (404, like an unknown entity) — so the
 * firm's score and the ledger stay as they were; every furnished fact names its furnishing org
 * (the hash-covered `meta.org_id`), and the credit report counts, per dimension, the distinct
 * furnishers behind its signals, so one lender's facts alone are visible as such. And a
 * look-alike registration cannot hijack a firm's name: the exact EIN or UEI always resolves the
 * firm, and the ambiguous name answers 409 listing every candidate with its identifiers.
 */
import { expect } from 'chai';
import request from 'supertest';
import { observationsProjection } from '../../projections/observations.js';
import type { IssuedKey } from '../../src/orgs/keys.js';
import { D, ONE_LINE_SOV, projectBody } from '../support/api-fixtures.js';
import { startService, type TestService } from '../support/service.js';

const bearer = (k: IssuedKey) => ({ Authorization: `Bearer ${k.key}` });

const willful = (over: Record<string, unknown>, n: number) => ({
  kind: 'osha_citation',
  observed_on: '2026-06-01',
  activity_nr: `17000${n}`,
  type: 'W',
  penalty: D(70_000),
  abate_by: '2026-06-20',
  ...over,
});

describe('OWASP API6 — sensitive business flows (credit furnishing, name lookup)', function () {
  this.timeout(120_000);
  let svc: TestService;
  let lenderA: IssuedKey;
  let stranger: IssuedKey;
  let gc: string;
  let projectA: string;
  let projectStranger: string;

  const score = async (k: IssuedKey, entity: string) => {
    const res = await request(svc.app)
      .post('/api/lender-credit?action=score')
      .set('x-plumbline-api-key', k.key)
      .send({ entity });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as {
      credit: { composite_score: number; grade: string; dimensions: Record<string, { furnishers: number }> };
    };
  };
  const entity = async (k: IssuedKey, body: Record<string, unknown>) => {
    const res = await request(svc.app).post('/api/entities').set(bearer(k)).send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return String(res.body.id);
  };
  const project = async (k: IssuedKey, contractor: string, name: string) => {
    const owner = await entity(k, { legal_name: `${name} Owner LLC`, roles: ['owner'] });
    const res = await request(svc.app)
      .post('/api/projects')
      .set(bearer(k))
      .send(projectBody({ borrower: owner, general_contractor: contractor }, { name, sov: ONE_LINE_SOV }));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return String(res.body.id);
  };
  const observe = (k: IssuedKey, body: Record<string, unknown>) =>
    request(svc.app).post('/api/observations').set(bearer(k)).send(body);

  beforeEach(async () => {
    svc = await startService({ now: '2026-06-15T12:00:00Z' });
    lenderA = await svc.key('First Builders Bank');
    stranger = await svc.key('Rival Capital');
    gc = await entity(lenderA, {
      legal_name: 'Keystone Framing LLC',
      ein: '98-7654321',
      uei: 'KEYSTNE1234A',
      roles: ['general_contractor'],
    });
    projectA = await project(lenderA, gc, 'Harbor View Lofts');
    const otherGc = await entity(stranger, {
      legal_name: 'Rival Builders Co',
      roles: ['general_contractor'],
    });
    projectStranger = await project(stranger, otherGc, 'Rival Tower');
  });
  afterEach(async () => {
    await svc.close();
  });

  it('lets no stranger furnish facts about a firm: 403 entity-level, 404 elsewhere, score and ledger unchanged', async () => {
    const before = await score(lenderA, gc);
    const head = await svc.head();
    for (let n = 0; n < 6; n += 1) {
      const entityLevel = await observe(stranger, willful({ entity: gc }, n));
      expect(entityLevel.status, JSON.stringify(entityLevel.body)).to.equal(403);
    }
    const onOwn = await observe(stranger, willful({ entity: gc, project_id: projectStranger }, 7));
    const unknownEntity = 'ent_aaaaaaaaaaaaaaaa';
    const onOwnUnknown = await observe(
      stranger,
      willful({ entity: unknownEntity, project_id: projectStranger }, 7),
    );
    const onTheirs = await observe(stranger, willful({ entity: gc, project_id: projectA }, 8));
    expect([onOwn.status, onOwnUnknown.status, onTheirs.status]).to.deep.equal([404, 404, 404]);
    const blank = (body: { detail: string }, id: string) => body.detail.replace(id, '<id>');
    expect(blank(onOwn.body, gc)).to.equal(blank(onOwnUnknown.body, unknownEntity));
    expect(await svc.head()).to.equal(head);
    // An inquiry appends its CreditReportIssued; the score it reports is what matters.
    const after = await score(lenderA, gc);
    expect(after.credit.composite_score).to.equal(before.credit.composite_score);
    expect(after.credit.grade).to.equal(before.credit.grade);
  });

  it('takes facts from the lender whose project the firm is on, and entity-level facts from the operator — each naming its furnisher', async () => {
    const own = await observe(lenderA, willful({ entity: gc, project_id: projectA }, 1));
    expect(own.status, JSON.stringify(own.body)).to.equal(201);
    const afterOwn = await score(lenderA, gc);
    expect(afterOwn.credit.dimensions.safety_record!.furnishers).to.equal(1);

    const operator = await svc.operator();
    const platform = await observe(operator, willful({ entity: gc }, 2));
    expect(platform.status, JSON.stringify(platform.body)).to.equal(201);
    const afterPlatform = await score(lenderA, gc);
    expect(afterPlatform.credit.dimensions.safety_record!.furnishers).to.equal(2);

    const observations = svc.composed.deps.runtime.state(observationsProjection).observations;
    expect(observations[String(own.body.id)]?.org_id).to.equal(lenderA.org_id);
    expect(observations[String(platform.body.id)]?.org_id).to.equal(operator.org_id);
    for (const [id, furnisher] of [
      [own.body.ledger.seq, lenderA.org_id],
      [platform.body.ledger.seq, operator.org_id],
    ] as const) {
      const [event] = await svc.composed.store.read(Number(id), 1);
      expect(event?.meta.org_id, 'the ledger names the furnishing org').to.equal(furnisher);
    }
  });

  it("keeps a firm's identifiers authoritative when a look-alike name is registered: EIN/UEI win, the name is a 409 with identifiers", async () => {
    const squat = await entity(stranger, {
      legal_name: 'Keystone Framing, Inc.',
      ein: '11-2223333',
      roles: ['general_contractor'],
    });
    const byName = await request(svc.app).get('/api/entities/Keystone%20Framing').set(bearer(lenderA));
    expect(byName.status).to.equal(409);
    const candidates = byName.body.candidates as {
      entity_id: string;
      ein: string | null;
      uei: string | null;
    }[];
    expect(candidates.map((c) => c.entity_id).sort()).to.deep.equal([gc, squat].sort());
    expect(candidates.find((c) => c.entity_id === gc)).to.include({ ein: '98-7654321', uei: 'KEYSTNE1234A' });
    expect(candidates.find((c) => c.entity_id === squat)).to.include({ ein: '11-2223333', uei: null });

    for (const ref of ['98-7654321', '987654321', 'KEYSTNE1234A', 'keystne1234a']) {
      const exact = await request(svc.app).get(`/api/entities/${ref}`).set(bearer(lenderA));
      expect(exact.status, ref).to.equal(200);
      expect(exact.body.entity_id, ref).to.equal(gc);
    }
    const report = await score(lenderA, '98-7654321');
    expect(report).to.have.nested.property('credit.composite_score');
  });
});
