import { expect } from 'chai';
import request from 'supertest';
import type { IssuedKey } from '../../src/orgs/keys.js';
import { pagesScene, type PagesScene } from '../support/pages-scene.js';

describe('read views behind the pages (status, portfolio, entity credit, project governance, draw gates)', function () {
  this.timeout(60_000);
  let scene: PagesScene;
  before(async () => {
    scene = await pagesScene();
  });
  after(async () => {
    await scene?.svc.close();
  });
  const get = (path: string, key: IssuedKey = scene.lender) =>
    request(scene.svc.app)
      .get(path)
      .set({ Authorization: `Bearer ${key.key}` });

  it('GET /api/status answers without a key: head, verified watermark and the signed checkpoint', async () => {
    const res = await request(scene.svc.app).get('/api/status');
    expect(res.status).to.equal(200);
    expect(res.body.head.seq).to.equal(await scene.svc.head());
    expect(res.body.checkpoint.key_id).to.equal(scene.svc.composed.deps.tlog.signer.keyId.toString('hex'));
    expect(res.body.checkpoint.size).to.be.at.most(res.body.head.seq);
    expect(res.body.chain).to.have.keys(['ok', 'verified_through', 'last_run_at']);
  });

  it('GET / is the front door page', async () => {
    const res = await request(scene.svc.app).get('/');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^text\/html/);
    expect(res.text).to.include('/app/home.js');
  });

  it('a draw’s gates are the push’s own evaluation, and pushing changes nothing the query did not say', async () => {
    const before = await scene.svc.head();
    const gates = await get(`/api/draws/${scene.drawId}/gates`);
    expect(gates.status).to.equal(200);
    expect(await scene.svc.head(), 'the query records nothing').to.equal(before);
    const failing = (gates.body.gates as { gate: string; passed: boolean }[]).filter((g) => !g.passed);
    expect(failing.map((g) => g.gate)).to.deep.equal(['verdict_fundable', 'notarization']);
    const push = await scene.post('/api/payment-push', { draw_id: scene.drawId });
    expect(push.status).to.equal(422);
    const refused = (push.body.gates as { gate: string; passed: boolean; detail: string }[]).map(
      ({ gate, passed, detail }) => ({ gate, passed, detail }),
    );
    const queried = (gates.body.gates as { gate: string; passed: boolean; detail: string }[]).map(
      ({ gate, passed, detail }) => ({ gate, passed, detail }),
    );
    expect(queried).to.deep.equal(refused);
  });

  it('answers another org’s draw and project exactly like unknown ones', async () => {
    for (const path of [`/api/draws/${scene.drawId}/gates`, `/api/projects/${scene.projectId}/governance`]) {
      const theirs = await get(path, scene.other);
      const unknown = await get(path.replace(/(DRW-|prj_)[a-z2-7]+/, '$1aaaaaaaaaaaaaaaa'), scene.other);
      expect(theirs.status, path).to.equal(404);
      expect(unknown.status, path).to.equal(404);
      expect(theirs.body.title).to.equal(unknown.body.title);
    }
  });

  it('the project view lists the open finding with its evidence, and the certification with its badge', async () => {
    const res = await get(`/api/projects/${scene.projectId}/governance`);
    expect(res.status).to.equal(200);
    expect(res.body.open_findings).to.equal(1);
    expect(res.body.findings[0]).to.include({ severity: 'BLOCKING' });
    expect(res.body.findings[0].cure.status).to.equal('OPEN');
    expect(res.body.findings[0].evidence.map((e: { kind: string }) => e.kind)).to.include('document');
    expect(res.body.certification).to.include({ id: scene.certificationId, status: 'VALID' });
  });

  it('the portfolio sorts server-side and pages with next_cursor', async () => {
    const first = await get('/api/portfolio?sort=score&order=desc&limit=3');
    expect(first.status).to.equal(200);
    expect(first.body.total).to.equal(4);
    expect(first.body.data).to.have.length(3);
    const scores = (first.body.data as { composite_score: number }[]).map((r) => r.composite_score);
    expect(scores).to.deep.equal([...scores].sort((a, b) => b - a));
    expect(first.body.data[0]).to.include({ entity: 'Keystone Builders, Inc.', open_findings: 1 });
    expect(first.body.data[0].trend).to.have.length(4);
    const rest = await get(`/api/portfolio?sort=score&order=desc&limit=3&cursor=${first.body.next_cursor}`);
    expect(rest.body.data).to.have.length(1);
    expect(rest.body.next_cursor).to.equal(null);
    // Another lender sees the same entities, but none of this lender's findings.
    const theirs = await get('/api/portfolio?sort=open_findings&order=desc', scene.other);
    expect((theirs.body.data as { open_findings: number }[]).every((r) => r.open_findings === 0)).to.equal(
      true,
    );
    expect((await get('/api/portfolio?cursor=!!')).status).to.equal(400);
    expect((await get('/api/portfolio?sort=colour')).status).to.equal(400);
  });

  it('the entity view counts other lenders’ inquiries without naming them', async () => {
    const res = await get(`/api/entities/${scene.gc}/credit`);
    expect(res.status).to.equal(200);
    expect(res.body.score_history).to.have.length(4);
    expect(res.body.inquiries_by_month).to.deep.equal([
      { month: '2026-04', yours: 1, other_lenders: 0 },
      { month: '2026-05', yours: 1, other_lenders: 1 },
      { month: '2026-06', yours: 1, other_lenders: 0 },
    ]);
    expect(JSON.stringify(res.body)).not.to.include(scene.other.org_id);
    expect(res.body.behavioral.transitions.map((t: { to: string }) => t.to)).to.deep.equal(['PROBATION']);
  });

  it('GET /api/entities?q= searches legal names, EIN digits and ids', async () => {
    const byName = await get('/api/entities?q=keystone');
    expect(byName.body.data.map((e: { entity_id: string }) => e.entity_id)).to.deep.equal([scene.gc]);
    const byEin = await get('/api/entities?q=123456789');
    expect(byEin.body.data.map((e: { entity_id: string }) => e.entity_id)).to.deep.equal([scene.gc]);
    const none = await get('/api/entities?q=nobody-at-all');
    expect(none.body).to.deep.equal({ data: [], next_cursor: null });
  });
});
