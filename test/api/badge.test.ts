import { expect } from 'chai';
import request from 'supertest';
import { startJourney, type DrawJourney } from '../support/draw-journey.js';

describe('certification badge (embeddable, names the project only by the lender’s choice)', function () {
  this.timeout(30_000);
  let j: DrawJourney;
  beforeEach(async () => {
    j = await startJourney();
  });
  afterEach(async () => {
    await j.svc.close();
  });

  const badge = (cert: string) =>
    request(j.svc.app)
      .get(`/api/certification?action=badge&cert=${cert}`)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => done(null, text));
      });

  it('is served Cross-Origin-Resource-Policy: cross-origin and, by default, without the project name', async () => {
    const certified = await j.post('/api/certification', { action: 'issue', project_id: j.projectId });
    expect(certified.status, JSON.stringify(certified.body)).to.equal(201);
    expect(certified.body.certification.show_project_name).to.equal(false);
    const res = await badge(String(certified.body.certification.id));
    expect(res.status).to.equal(200);
    expect(res.headers['cross-origin-resource-policy']).to.equal('cross-origin');
    expect(String(res.body)).to.include('Certified project');
    expect(String(res.body)).not.to.include('Harbor View Lofts');
    // Everything else keeps helmet's same-origin policy.
    const other = await request(j.svc.app).get('/healthz');
    expect(other.headers['cross-origin-resource-policy']).to.equal('same-origin');
  });

  it('shows the project name when the lender chose so at certification, as the event records', async () => {
    const certified = await j.post('/api/certification', {
      action: 'issue',
      project_id: j.projectId,
      show_project_name: true,
    });
    expect(certified.status, JSON.stringify(certified.body)).to.equal(201);
    const res = await badge(String(certified.body.certification.id));
    expect(String(res.body)).to.include('Harbor View Lofts');
    const page = await request(j.svc.app)
      .get('/api/ledger?type=CertificationIssued')
      .set({ Authorization: `Bearer ${j.lender.key}` });
    expect(page.body.events).to.have.length(1);
    expect(page.body.events[0].data.show_project_name).to.equal(true);
  });

  it('refuses a show_project_name that is not a boolean, recording nothing', async () => {
    const before = await j.svc.head();
    const res = await j.post('/api/certification', {
      action: 'issue',
      project_id: j.projectId,
      show_project_name: 'yes',
    });
    expect(res.status).to.equal(400);
    expect(await j.svc.head()).to.equal(before);
  });
});
