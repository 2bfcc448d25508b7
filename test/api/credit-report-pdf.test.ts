import { expect } from 'chai';
import request from 'supertest';
import type { CreditReport } from '../../src/credit/report.js';
import { EXCLUSION_COMPOSITE_CAP, weightedComposite } from '../../src/credit/index.js';
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
  /** A lender key, with Keystone Builders, Inc. (a GC) registered under it. */
  async function keyWithKeystone() {
    const k = await svc.key('First Builders Bank');
    const ent = await request(svc.app)
      .post('/api/entities')
      .set('Authorization', `Bearer ${k.key}`)
      .send({ legal_name: 'Keystone Builders, Inc.', roles: ['general_contractor'] });
    expect(ent.status).to.equal(201);
    return k;
  }

  /** The JSON credit report of Acme Builders, Inc. (a GC registered with nothing else on record). */
  async function acmeReport(): Promise<CreditReport> {
    const k = await svc.key('First Builders Bank');
    await request(svc.app)
      .post('/api/entities')
      .set('Authorization', `Bearer ${k.key}`)
      .send({ legal_name: 'Acme Builders, Inc.', roles: ['general_contractor'] });
    const score = await request(svc.app)
      .post('/api/lender-credit?action=score')
      .set('x-plumbline-api-key', k.key)
      .send({ entity: 'Acme Builders' });
    expect(score.status, JSON.stringify(score.body)).to.equal(200);
    return score.body as CreditReport;
  }

  it('prints the entity, grade, dimensions and provenance hash with the ledger anchor, and counts against the quota', async () => {
    const k = await keyWithKeystone();
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
      'Provisional',
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

  it('answers HEAD with 405 Allow: GET, recording no inquiry and counting nothing — only a GET delivers the report', async () => {
    const k = await keyWithKeystone();
    const head = await svc.head();
    const res = await request(svc.app).head(
      `/api/credit-report-pdf?entity=${encodeURIComponent('Keystone Builders')}&key=${k.key}`,
    );
    expect(res.status).to.equal(405);
    expect(res.headers.allow).to.equal('GET');
    expect(await svc.head()).to.equal(head);
    const usage = await request(svc.app)
      .post('/api/lender-credit?action=usage')
      .set('x-plumbline-api-key', k.key);
    expect(usage.body.used).to.equal(0);
    const wrong = await request(svc.app).put('/api/credit-report-pdf');
    expect(wrong.headers.allow).to.equal('GET');
  });

  it('reads as a bureau report: identity with the EIN masked, grade band, trend, words not enum names, PRAL, inquiries, only factors that apply', async () => {
    const k = await svc.key('First Builders Bank');
    const other = await svc.key('Second Street Capital');
    const ent = await request(svc.app)
      .post('/api/entities')
      .set('Authorization', `Bearer ${k.key}`)
      .send({
        legal_name: 'Keystone Builders, Inc.',
        aliases: ['Keystone GC'],
        ein: '12-3456789',
        uei: 'KSTN12345678',
        roles: ['general_contractor'],
      });
    expect(ent.status).to.equal(201);
    const score = (key: string) =>
      request(svc.app)
        .post('/api/lender-credit?action=score')
        .set('x-plumbline-api-key', key)
        .send({ entity: 'Keystone Builders' });
    svc.clock.set('2026-03-10T12:00:00Z');
    expect((await score(k.key)).status).to.equal(200);
    expect((await score(other.key)).status).to.equal(200);
    svc.clock.set('2026-06-15T12:00:00Z');
    const res = await request(svc.app)
      .get(`/api/credit-report-pdf?entity=12-3456789&key=${k.key}`)
      .buffer(true)
      .parse(binary);
    expect(res.status).to.equal(200);
    const text = await pdfText(res.body as Buffer);
    const flat = text.replace(/\s+/g, ' ');
    // Identity: legal name, alias, EIN masked to its last four digits, UEI, roles in words.
    expect(flat).to.include('Keystone Builders, Inc.');
    expect(flat).to.include('Keystone GC');
    expect(flat).to.include('**-***6789');
    expect(flat).not.to.include('12-3456789');
    expect(flat).to.include('KSTN12345678');
    expect(flat).to.include('General contractor');
    expect(flat).to.include('No active SAM.gov registration; no exclusion on record');
    // Grade band and the 12-month trend (Jul 2025 … Jun 2026), the months with a report scored.
    for (const band of ['F <50', 'D 50+', 'C 65+', 'B 80+', 'A 90+']) expect(flat).to.include(band);
    expect(flat).to.include('Composite score, last 12 months');
    expect(flat).to.match(/Jul Aug Sep Oct Nov Dec Jan 2026 Feb Mar Apr May Jun/);
    // Every enum in words; the behavioral state explained; the PRAL and its rails.
    for (const raw of [
      'PROVISIONAL',
      'RELEASE_WITH_CONDITIONS',
      'NO_VIOLATIONS',
      'sam_extract',
      'general_contractor',
    ])
      expect(flat, raw).not.to.include(raw);
    expect(flat).to.include('Provisional since');
    expect(flat).to.include('New to the bureau');
    expect(flat).to.include('Release with conditions — Payments may be released on ACH or Wire');
    expect(flat).to.include('Eligible payment rails ACH, Wire');
    // Inquiries: the two earlier reports and this one; the other lender counted, not named.
    expect(flat).to.include('3 report(s) issued: 2 by you, 1 by other lenders (not named)');
    expect(flat).not.to.include('Second Street Capital');
    // Only factors that apply: no zero-impact "Active federal exclusion" for a firm with none.
    expect(flat).not.to.include('Active federal exclusion');
    expect(flat).to.include('No factor takes points off any dimension.');
    expect(flat).to.include('SAM.gov extract (imported)');
    // Two full pages, not a table dump spilling two rows onto a third.
    expect(text.split('\n')).to.have.length(2);
  });

  it('wraps a legal name with no break in it inside the identity table: the grade and score still print', async () => {
    const k = await svc.key('First Builders Bank');
    const name = `${'W'.repeat(150)}${'M'.repeat(40)}`;
    const ent = await request(svc.app)
      .post('/api/entities')
      .set('Authorization', `Bearer ${k.key}`)
      .send({ legal_name: name, aliases: [`${'Q'.repeat(120)}`], roles: ['general_contractor'] });
    expect(ent.status).to.equal(201);
    const res = await request(svc.app)
      .get(`/api/credit-report-pdf?entity=${String(ent.body.id)}&key=${k.key}`)
      .buffer(true)
      .parse(binary);
    expect(res.status).to.equal(200);
    const flat = (await pdfText(res.body as Buffer)).replace(/\s+/g, '');
    expect(flat).to.include(name);
    expect(flat).to.include('Q'.repeat(120));
    // The grade box beside the identity table, which a name running off the page pushed away.
    expect(flat).to.include('70/100');
    expect(flat).to.include('Compositescore·Lowconfidence');
  });

  it('prints an active exclusion as the firm’s own conflict, not as one on another lender’s project', async () => {
    const report = await acmeReport();
    // As conflictsOf answers for an excluded firm with a blocking finding on another lender's project.
    const pdf = await renderCreditReportPdf({
      ...report,
      conflicts: {
        active_conflicts: 2,
        status: 'CONFLICTS_PRESENT',
        items: [
          { code: 'REGISTRY_EXCLUSION', project_id: null, since: '2026-03-02' },
          { code: 'ROLL_FORWARD_MISMATCH', project_id: null, since: '2026-04-10' },
        ],
      },
    });
    const flat = (await pdfText(pdf)).replace(/\s+/g, ' ');
    expect(flat).to.include('Active federal exclusion (SAM.gov) since 2026-03-02');
    expect(flat).to.include('Roll forward mismatch on another lender’s project since 2026-04-10');
    expect(flat).not.to.include('Registry exclusion on another lender’s project');
  });

  it('says when an active exclusion caps the composite below the weighted dimensions printed under it', async () => {
    const report = await acmeReport();
    const weighted = weightedComposite(report.credit.dimensions);
    expect(weighted).to.be.greaterThan(EXCLUSION_COMPOSITE_CAP);
    const plain = (await pdfText(await renderCreditReportPdf(report))).replace(/\s+/g, ' ');
    expect(plain).not.to.include('Capped at');
    // As scoreSignals answers for an excluded firm: the composite capped, CS02 the first reason.
    const capped = (
      await pdfText(
        await renderCreditReportPdf({
          ...report,
          credit: {
            ...report.credit,
            composite_score: EXCLUSION_COMPOSITE_CAP,
            grade: 'F',
            reason_codes: [
              { code: 'CS02', description: 'Active federal exclusion' },
              ...report.credit.reason_codes,
            ],
          },
        }),
      )
    ).replace(/\s+/g, ' ');
    expect(capped).to.include(
      `Capped at 49 while a federal exclusion is active (the weighted dimensions give ${weighted})`,
    );
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
    // Every field of the JSON report is printed: each dimension's signals and furnishers too.
    const flat = (await pdfText(first)).replace(/\s+/g, ' ');
    for (const d of Object.values(report.credit.dimensions)) {
      const furnishers = `${d.furnishers} furnisher${d.furnishers === 1 ? '' : 's'}`;
      const shown = d.insufficient_data
        ? 'thin data (prior 70)'
        : `${d.signals} signal${d.signals === 1 ? '' : 's'}`;
      expect(flat).to.include(`${shown}, ${d.furnishers === 0 ? 'no furnisher' : furnishers}`);
    }
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
