import { expect } from 'chai';
import request from 'supertest';
import type { CreditReport } from '../../src/credit/report.js';
import { redactUrl } from '../../src/platform/log.js';
import { renderCreditReportPdf } from '../../src/reports/credit-report-pdf.js';
import { pdfText } from '../support/pdf-text.js';
import { startService, type TestService } from '../support/service.js';
import { binary } from '../support/binary.js';

describe('credit report PDF (SPEC §8)', function () {
  this.timeout(60_000);
  let svc: TestService;
  beforeEach(async () => {
    svc = await startService({ now: '2026-06-15T12:00:00Z' });
  });
  afterEach(async () => {
    await svc.close();
  });

  it('prints the entity, grade, dimensions and provenance hash with the ledger anchor, and counts against the quota', async () => {
    const k = await svc.key('First Builders Bank');
    const ent = await request(svc.app)
      .post('/api/entities')
      .set('Authorization', `Bearer ${k.key}`)
      .send({ legal_name: 'Keystone Builders, Inc.', roles: ['general_contractor'] });
    expect(ent.status).to.equal(201);
    const res = await request(svc.app)
      .get(`/api/credit-report-pdf?entity=${encodeURIComponent('Keystone Builders')}&key=${k.key}`)
      .buffer(true)
      .parse(binary);
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('application/pdf');
    const bytes = res.body as Buffer;
    expect(bytes.subarray(0, 5).toString('latin1')).to.equal('%PDF-');
    const text = await pdfText(bytes);
    const hash = String(res.headers['provenance-hash']);
    expect(hash).to.match(/^[0-9a-f]{64}$/);
    expect(text).to.include('Keystone Builders, Inc.');
    expect(text).to.include(hash);
    expect(text).to.match(/Ledger seq \d+/);
    // The signed transparency-log checkpoint covering the report's anchor: size, root and key id.
    const signed = svc.composed.deps.tlog.latest!;
    expect(text).to.include(`plumbline.test/ledger, size ${signed.size}`);
    expect(text).to.include(signed.root.toString('base64'));
    expect(text).to.include(svc.composed.deps.tlog.signer.keyId.toString('hex'));
    for (const label of [
      'Payment integrity',
      'Draw accuracy',
      'Compliance standing',
      'Safety record',
      'Schedule performance',
      'Remediation responsiveness',
      'PROVISIONAL',
      'Federal contractor registry',
    ]) {
      expect(text).to.include(label);
    }
    const usage = await request(svc.app)
      .post('/api/lender-credit?action=usage')
      .set('x-plumbline-api-key', k.key);
    expect(usage.body.by_action).to.deep.equal({ pdf: 1 });
    const verdict = await request(svc.app)
      .post('/api/audit-verify')
      .set('Authorization', `Bearer ${k.key}`)
      .send({ hash });
    expect(verdict.body.verdict).to.equal('AUTHENTIC');
  });

  it('refuses a missing key with 401 and an unknown entity with 404', async () => {
    const k = await svc.key('First Builders Bank');
    expect((await request(svc.app).get('/api/credit-report-pdf?entity=Nobody')).status).to.equal(401);
    const missing = await request(svc.app).get(
      `/api/credit-report-pdf?entity=Nobody%20At%20All&key=${k.key}`,
    );
    expect(missing.status).to.equal(404);
    expect(missing.body.ok).to.equal(false);
  });

  it('renders identical bytes for the same report (same ledger head and as_of)', async () => {
    const k = await svc.key('First Builders Bank');
    await request(svc.app)
      .post('/api/entities')
      .set('Authorization', `Bearer ${k.key}`)
      .send({ legal_name: 'Keystone Builders, Inc.', roles: ['general_contractor'] });
    const score = await request(svc.app)
      .post('/api/lender-credit?action=score')
      .set('x-plumbline-api-key', k.key)
      .send({ entity: 'Keystone Builders' });
    const report = score.body as CreditReport;
    const first = await renderCreditReportPdf(report);
    const second = await renderCreditReportPdf(JSON.parse(JSON.stringify(report)) as CreditReport);
    expect(Buffer.compare(first, second)).to.equal(0);
    const later = await renderCreditReportPdf({ ...report, as_of: '2026-06-16T12:00:00.000Z' });
    expect(Buffer.compare(first, later)).to.not.equal(0);
  });

  it('keeps the key out of logged URLs', () => {
    expect(redactUrl('/api/credit-report-pdf?entity=Acme&key=pl_live_abc123')).to.equal(
      '/api/credit-report-pdf?entity=Acme&key=[REDACTED]',
    );
    expect(redactUrl('/api/credit-report-pdf?key=pl_live_abc&entity=Acme')).to.equal(
      '/api/credit-report-pdf?key=[REDACTED]&entity=Acme',
    );
  });
});
