import { expect } from 'chai';
import type { IssuedKey } from '../../src/orgs/keys.js';
import type {
  Plumbline as PlumblineClient,
  PlumblineError as PlumblineErrorType,
} from '../../src/sdk/index.js';
import { startService, type TestService } from '../support/service.js';
import { D, governedProject, type SdkFixture } from './fixtures.js';
import { listen, loadBuiltSdk, type Listening, type Sdk } from './harness.js';

/** Runs `call`, expecting it to reject with a PlumblineError, and returns that error. */
async function rejection(sdk: Sdk, call: () => Promise<unknown>): Promise<PlumblineErrorType> {
  try {
    await call();
  } catch (error) {
    expect(error).to.be.instanceOf(sdk.PlumblineError);
    return error as PlumblineErrorType;
  }
  throw new Error('expected the call to fail');
}

describe('SDK client (static/sdk/plumbline.js) against a running service', function () {
  this.timeout(60_000);
  let sdk: Sdk;
  let svc: TestService;
  let server: Listening;
  let lender: IssuedKey;
  let other: IssuedKey;
  let client: PlumblineClient;
  let fx: SdkFixture;

  before(async () => {
    sdk = await loadBuiltSdk();
    svc = await startService({ now: '2026-06-10T12:00:00Z' });
    lender = await svc.key('First Builders Bank');
    other = await svc.key('Second Street Capital');
    server = await listen(svc.app);
    client = new sdk.Plumbline({
      baseUrl: server.baseUrl,
      apiKey: lender.key,
      signingSecret: lender.signing_secret,
      now: () => svc.clock.now(),
    });
    fx = await governedProject(client);
  });
  after(async () => {
    await server.close();
    await svc.close();
  });

  it('reads discovery and runs every lender action, verifying each signed response', async () => {
    const discovery = await client.discovery();
    expect(discovery.api).to.equal('Plumbline Lender Credit API');
    const report = await client.score('Keystone Builders');
    expect(report.entity_id).to.equal(fx.gc);
    expect(report.provenance_hash).to.match(/^[0-9a-f]{64}$/);
    expect(report.credit.grade).to.match(/^[A-F]$/);
    const byEin = await client.eligibility('12-3456789');
    expect(byEin.entity_id).to.equal(fx.gc);
    expect(byEin.eligible_payment_rails).to.be.an('array');
    const portfolio = await client.portfolio({ scope: 'portfolio', sort: 'name' });
    expect(portfolio.data.map((r) => r.entity_id)).to.have.members([fx.owner, fx.gc]);
    const verified = await client.verify(fx.gc);
    expect(verified.contractor_registry.exclusions).to.equal('clear');
    const history = await client.history(fx.gc, { limit: 2 });
    expect(history.events).to.have.length(2);
    expect(history.events[0]!.seq).to.be.greaterThan(history.events[1]!.seq);
    const usage = await client.usage();
    expect(usage.key_id).to.equal(lender.key_id);
    expect(usage.used).to.equal(5);
  });

  it('builds a credit report PDF link and a badge link that the server answers', async () => {
    const pdf = await fetch(client.creditReportPdfUrl('Keystone Builders'));
    expect(pdf.status).to.equal(200);
    expect(pdf.headers.get('content-type')).to.equal('application/pdf');
    const cert = await client.issueCertification(fx.projectId);
    expect(cert.certification.id).to.match(/^CERT-/);
    const badge = await fetch(client.badgeUrl(cert.certification.id));
    expect(badge.status).to.equal(200);
    expect(badge.headers.get('content-type')).to.match(/^image\/svg\+xml/);
    expect(await badge.text()).to.not.include('Harbor View Lofts');
    // The lender may let the public badge name the project (SPEC §6 certification, show_project_name).
    const named = await client.issueCertification(fx.projectId, { show_project_name: true });
    expect(named.certification.show_project_name).to.equal(true);
    expect(await (await fetch(client.badgeUrl(named.certification.id))).text()).to.include(
      'Harbor View Lofts',
    );
  });

  it('records ingestion facts and reads them back', async () => {
    expect((await client.getEntity(fx.gc)).legal_name).to.equal('Keystone Builders, Inc.');
    expect((await client.listEntities({ limit: 1 })).next_cursor).to.be.a('string');
    expect((await client.getProject(fx.projectId)).name).to.equal('Harbor View Lofts');
    expect((await client.listProjects()).data.map((p) => p.id)).to.deep.equal([fx.projectId]);
    const co = await client.recordChangeOrder(fx.projectId, {
      number: 'CO-7',
      amount: D(10_000),
      lines: [{ line: 1, delta: D(10_000) }],
      description: 'Added retaining wall',
      executed_on: '2026-05-20',
    });
    expect(co.id).to.match(/^CO-/);
    expect((await client.listChangeOrders(fx.projectId)).data[0]!.number).to.equal('CO-7');
    const waiver = await client.recordDocument(fx.projectId, {
      type: 'LIEN_WAIVER',
      claimant: fx.gc,
      draw_id: fx.drawId,
      waiver_type: 'CONDITIONAL_PROGRESS',
      amount: D(135_000),
      through_date: '2026-05-31',
      signed_on: '2026-06-01',
      executed: true,
    });
    const doc = await client.getDocument(waiver.id);
    expect(doc.type).to.equal('LIEN_WAIVER');
    expect((await client.listDocuments(fx.projectId)).data).to.have.length(1);
    const signed = await client.signDraw(fx.drawId, {
      role: 'Contractor',
      signer_name: 'Dana Keystone',
      signed_on: '2026-06-02',
    });
    expect(signed.ledger.seq).to.be.greaterThan(0);
    const draw = await client.getDraw(fx.drawId);
    expect(draw.signatures.map((s) => s.role)).to.deep.equal(['Contractor']);
    expect((await client.listDraws(fx.projectId)).data[0]!.id).to.equal(fx.drawId);
    const obs = await client.recordObservation({
      kind: 'incident',
      project_id: fx.projectId,
      entity: fx.gc,
      observed_on: '2026-06-03',
      recordable: true,
      lost_time: false,
    });
    expect((await client.getObservation(obs.id)).kind).to.equal('incident');
    expect((await client.listObservations()).data.map((o) => o.id)).to.include(obs.id);
  });

  it('runs project governance: scan, resolve, compile, adequacy, simulate, notarize, audit-verify', async () => {
    const scan = await client.scan(fx.projectId);
    expect(scan.scan_id).to.match(/^SCN-/);
    const finding = [...scan.temporal.items, ...scan.contradictions.items][0];
    expect(finding, 'the fixture scan finds something to resolve').to.not.equal(undefined);
    const resolved = await client.resolveFinding(finding!.id, {
      resolution: 'Inspection ordered',
      resolved_on: '2026-06-10',
    });
    expect(resolved.id).to.be.a('string');
    const compiled = await client.compileDraw(fx.projectId, fx.drawId);
    expect(compiled.compilation.draw_id).to.equal(fx.drawId);
    expect((await client.adequacy(fx.projectId)).adequacy.vector).to.have.keys([
      'lender',
      'contractor',
      'project',
      'cashflow',
      'compliance',
      'risk',
    ]);
    const simulation = await client.simulateDraw(fx.drawId);
    expect(simulation.scenarios.length).to.be.greaterThan(0);
    const waiverId = (await client.listDocuments(fx.projectId)).data[0]!.id;
    const notarized = await client.notarize({
      document_type: 'LIEN_WAIVER',
      document_id: waiverId,
      jurisdiction: 'CA',
    });
    expect(notarized.multi_hash.sha256).to.match(/^[0-9a-f]{64}$/);
    const audit = await client.auditVerify(scan.provenance.ledger.hash);
    expect(audit.verdict).to.equal('AUTHENTIC');
    expect((await client.auditVerify('0'.repeat(64))).reason).to.equal('UNKNOWN_HASH');
  });

  it('reports a refused payment push as GATE_UNMET with every gate', async () => {
    const error = await rejection(sdk, () => client.pushPayment(fx.drawId, 'ACH'));
    expect(error.code).to.equal('GATE_UNMET');
    expect(error.status).to.equal(422);
    const gates = error.problem?.gates ?? [];
    expect(gates.map((g) => g.gate)).to.include('signatures');
    expect(gates.find((g) => g.gate === 'signatures')?.passed).to.equal(false);
  });

  it('reads rails, scan_all and profiles', async () => {
    const rail = await client.rail('SCHEDULE', { project_id: fx.projectId });
    expect(rail.rail).to.equal('SCHEDULE');
    const all = await client.scanAll();
    expect(all.rails).to.have.length(11);
    const profiles = await client.profiles();
    expect(profiles.data.map((p) => p.name)).to.include('construction');
  });

  it('pages the ledger, reads one event and the verification watermark', async () => {
    const page = await client.ledgerPage({ after: 0, limit: 5 });
    expect(page.events.map((e) => e.seq)).to.deep.equal([1, 2, 3, 4, 5]);
    expect(page.head.seq).to.equal(await svc.head());
    const one = await client.ledgerEvent(3);
    expect(one.hash).to.equal(page.events[2]!.hash);
    const status = await client.ledgerVerifyStatus();
    expect(status.head.seq).to.equal(page.head.seq);
  });

  it('reuses an Idempotency-Key it is given: the retry replays the first result', async () => {
    const body = { legal_name: 'Ridge Line Electric', roles: ['subcontractor' as const] };
    const first = await client.createEntity(body, { idempotencyKey: 'sdk-idem-0001' });
    const again = await client.createEntity(body, { idempotencyKey: 'sdk-idem-0001' });
    expect(again).to.deep.equal(first);
    const reused = await rejection(sdk, () =>
      client.createEntity({ ...body, legal_name: 'Other Name LLC' }, { idempotencyKey: 'sdk-idem-0001' }),
    );
    expect(reused.code).to.equal('IDEMPOTENCY_KEY_REUSED');
  });

  it('throws PlumblineError with code, status, request_id, detail and errors', async () => {
    const invalid = await rejection(sdk, () => client.createEntity({ legal_name: '', roles: [] }));
    expect(invalid.code).to.equal('INVALID_REQUEST');
    expect(invalid.status).to.equal(400);
    expect(invalid.request_id).to.match(/^req_/);
    expect(invalid.detail).to.be.a('string').and.not.equal('');
    expect(invalid.errors.map((e) => e.path)).to.include.members(['legal_name', 'roles']);

    const foreign = new sdk.Plumbline({ baseUrl: server.baseUrl, apiKey: other.key });
    const hidden = await rejection(sdk, () => foreign.getProject(fx.projectId));
    expect(hidden.code).to.equal('NOT_FOUND');
    expect(hidden.status).to.equal(404);

    const unknown = await rejection(sdk, () => client.score('No Such Builder Zzq'));
    expect(unknown.code).to.equal('NOT_FOUND');
    expect(unknown.problem?.candidates).to.be.an('array');

    const anonymous = new sdk.Plumbline({ baseUrl: server.baseUrl, apiKey: 'pl_test_not-a-real-key' });
    const denied = await rejection(sdk, () => anonymous.usage());
    expect(denied.code).to.equal('UNAUTHENTICATED');
    expect(denied.status).to.equal(401);

    const unreachable = new sdk.Plumbline({ baseUrl: 'http://127.0.0.1:9', apiKey: lender.key, retries: 0 });
    const offline = await rejection(sdk, () => unreachable.profiles());
    expect(offline.code).to.equal('NETWORK_ERROR');
    expect(offline.status).to.equal(0);
  });

  it('refuses an answer signed with another secret (SIGNATURE_INVALID)', async () => {
    const wrong = new sdk.Plumbline({
      baseUrl: server.baseUrl,
      apiKey: lender.key,
      signingSecret: other.signing_secret,
      now: () => svc.clock.now(),
    });
    const error = await rejection(sdk, () => wrong.profiles());
    expect(error.code).to.equal('SIGNATURE_INVALID');
    expect(error.request_id).to.match(/^req_/);
  });
});
