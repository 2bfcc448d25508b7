import { expect } from 'chai';
import request from 'supertest';
import { serviceOf } from '../../src/app.js';
import { credit } from '../../projections/credit.js';
import { registryProjection as registry } from '../../projections/registry.js';
import { BehaviorEvaluator } from '../../src/lender-api/behavior-evaluator.js';
import { factsMemoOf } from '../../src/lender-api/facts-memo.js';
import type { IssuedKey } from '../../src/orgs/keys.js';
import { D, ONE_LINE_SOV, projectBody } from '../support/api-fixtures.js';
import { startService, type TestService } from '../support/service.js';

const DAY = 86_400_000;

describe('scheduled behavioral evaluator (DOMAIN §5)', function () {
  this.timeout(30_000);
  let svc: TestService;
  let k: IssuedKey;
  let gc: string;
  const bearer = () => ({ Authorization: `Bearer ${k.key}` });

  beforeEach(async () => {
    svc = await startService({ now: '2026-06-15T12:00:00Z' });
    k = await svc.key('First Builders Bank');
    const ent = async (legal_name: string, roles: string[]) =>
      String(
        (await request(svc.app).post('/api/entities').set(bearer()).send({ legal_name, roles })).body.id,
      );
    const owner = await ent('Harbor View Owner LLC', ['owner']);
    gc = await ent('Keystone Builders, Inc.', ['general_contractor']);
    const project = await request(svc.app)
      .post('/api/projects')
      .set(bearer())
      .send(
        projectBody(
          { borrower: owner, general_contractor: gc },
          { sov: ONE_LINE_SOV, required_coverages: [{ type: 'GL', min_limit: D(1_000_000) }] },
        ),
      );
    const projectId = String(project.body.id);
    // GL cover that ends in 25 days: an INSURANCE_EXPIRY WARNING attributed to the GC, open since the
    // cover came within 30 days of its end (2026-06-10, five days ago: issue 14 dates a finding by
    // when its condition arose, not by the scan).
    const coi = await request(svc.app)
      .post(`/api/projects/${projectId}/documents`)
      .set(bearer())
      .send({
        type: 'INSURANCE_CERTIFICATE',
        insured: gc,
        coverage_type: 'GL',
        limit: D(2_000_000),
        effective_on: '2026-01-01',
        expires_on: '2026-07-10',
        additional_insured: true,
      });
    expect(coi.status, JSON.stringify(coi.body)).to.equal(201);
    const scan = await request(svc.app)
      .post('/api/kernel-core')
      .set(bearer())
      .send({ action: 'full_scan', project_id: projectId });
    expect(
      (scan.body.temporal.items as { code: string; severity: string }[]).map(
        (f) => `${f.code}:${f.severity}`,
      ),
    ).to.include('INSURANCE_EXPIRY:WARNING');
  });
  afterEach(async () => {
    await svc.close();
  });

  const stateOf = () =>
    svc.composed.deps.runtime.state(credit).entities[gc]?.behavior?.state ?? 'PROVISIONAL';

  it('moves the GC to WATCH once the WARNING has been open more than 14 days, once, and replay reproduces it', async () => {
    const evaluator = new BehaviorEvaluator(serviceOf(svc.app));
    await evaluator.run();
    expect(stateOf()).to.not.equal('WATCH');
    svc.clock.advance(9 * DAY);
    await evaluator.run();
    expect(stateOf(), 'exactly 14 days (2026-06-24) is not more than 14').to.not.equal('WATCH');
    svc.clock.advance(1 * DAY);
    const appended = await evaluator.run();
    expect(appended).to.be.greaterThan(0);
    expect(stateOf()).to.equal('WATCH');
    const head = await svc.head();
    expect(await evaluator.run()).to.equal(0);
    expect(await svc.head()).to.equal(head);
    const changes = await svc.composed.store.readStream(`entity-${gc}`);
    const watch = changes.filter(
      (e) => e.type === 'BehavioralStateChanged' && (e.data as { to: string }).to === 'WATCH',
    );
    expect(watch).to.have.length(1);
    expect((watch[0]!.data as { cause: { code: string } }).cause.code).to.be.a('string');
    await svc.composed.deps.runtime.rebuild();
    expect(stateOf()).to.equal('WATCH');
  });

  it('a pass keeps no entity in the facts memo: it derives each for its own step, and keeps what lenders asked for', async () => {
    const s = serviceOf(svc.app);
    const memo = factsMemoOf(s.runtime);
    const entities = Object.keys(s.runtime.state(registry).entities).length;
    expect(entities).to.be.greaterThan(1);
    // The GC scored by a lender: remembered for that lender's next call.
    const scored = await request(svc.app)
      .post('/api/lender-credit?action=score')
      .set('x-plumbline-api-key', k.key)
      .send({ entity: 'Keystone Builders, Inc.' });
    expect(scored.status, JSON.stringify(scored.body)).to.equal(200);
    const remembered = memo.size;
    expect(remembered).to.be.greaterThan(0);
    const computed = memo.computed;
    // A pass over every entity, days later so that it has a transition to record.
    svc.clock.advance(10 * DAY);
    expect(await new BehaviorEvaluator(s).run()).to.be.greaterThan(0);
    expect(stateOf()).to.equal('WATCH');
    expect(memo.computed, 'it derived what it decided on').to.be.greaterThan(computed);
    expect(memo.size, 'and remembered none of it beyond what lenders had asked for').to.equal(remembered);
    // The lender's next call finds the GC as remembered (a new day: derived afresh, and kept).
    const again = await request(svc.app)
      .post('/api/lender-credit?action=score')
      .set('x-plumbline-api-key', k.key)
      .send({ entity: 'Keystone Builders, Inc.' });
    expect(again.status).to.equal(200);
    expect(memo.size).to.equal(remembered);
  });

  it('a scheduled start runs its first pass only after the given delay, and a stop before then runs none', async () => {
    const s = serviceOf(svc.app);
    const commit = s.ledger.commit.bind(s.ledger);
    let commits = 0;
    s.ledger.commit = ((...args: Parameters<typeof commit>) => {
      commits += 1;
      return commit(...args);
    }) as typeof s.ledger.commit;
    try {
      const late = new BehaviorEvaluator(s);
      late.start(60 * 60 * 1000, 150);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(commits, 'nothing before the delay').to.equal(0);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(commits, 'the first pass after it').to.be.greaterThan(0);
      await late.stop();
      const stopped = new BehaviorEvaluator(s);
      const before = commits;
      stopped.start(60 * 60 * 1000, 100);
      await stopped.stop();
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(commits, 'stopped before its first pass').to.equal(before);
    } finally {
      s.ledger.commit = commit;
    }
  });

  it('a shutdown ends a running pass after the entity it is at, and no pass starts after it', async () => {
    const s = serviceOf(svc.app);
    const entities = Object.keys(svc.composed.deps.runtime.state(registry).entities).length;
    expect(entities).to.be.greaterThan(1);
    const commit = s.ledger.commit.bind(s.ledger);
    let commits = 0;
    const stopping: Promise<void>[] = [];
    const evaluator = new BehaviorEvaluator(s);
    s.ledger.commit = ((...args: Parameters<typeof commit>) => {
      commits += 1;
      // SIGTERM arrives while the pass is at its first entity.
      if (commits === 1) stopping.push(evaluator.stop());
      return commit(...args);
    }) as typeof s.ledger.commit;
    try {
      await evaluator.run();
      await Promise.all(stopping);
      expect(stopping).to.have.length(1);
      expect(commits, `a pass over ${entities} entities stopped at the first`).to.equal(1);
      expect(await evaluator.run()).to.equal(0);
      expect(commits).to.equal(1);
    } finally {
      s.ledger.commit = commit;
    }
    // A fresh evaluator (the next start) goes over every entity.
    const next = new BehaviorEvaluator(s);
    s.ledger.commit = ((...args: Parameters<typeof commit>) => {
      commits += 1;
      return commit(...args);
    }) as typeof s.ledger.commit;
    try {
      await next.run();
      expect(commits).to.equal(1 + entities);
    } finally {
      s.ledger.commit = commit;
    }
  });
});
