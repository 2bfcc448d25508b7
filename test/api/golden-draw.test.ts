import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import type { IssuedKey } from '../../src/orgs/keys.js';
import { D } from '../support/api-fixtures.js';
import { startJourney, type DrawJourney } from '../support/draw-journey.js';
import type { TestService } from '../support/service.js';

/**
 * One draw from submission to payment, through every governance step, as a lender's integration
 * would drive it: submit → scan BLOCKED → documents fixed → scan CLEAN → compile FUNDABLE →
 * signatures → notarize waivers → payment push 201 → audit-verify AUTHENTIC on each recorded hash.
 */
describe('golden draw: from submission to payment (SPEC §6)', function () {
  this.timeout(60_000);
  let j: DrawJourney;
  let svc: TestService;
  let lender: IssuedKey;
  let projectId: string;
  let drawId: string;
  const auth = () => ({ Authorization: `Bearer ${lender.key}` });
  const post = (path: string, body: unknown) => j.post(path, body);
  const fixDocuments = () => j.fixDocuments();
  const signAll = () => j.signAll();

  beforeEach(async () => {
    j = await startJourney();
    ({ svc, lender, projectId, drawId } = j);
  });
  afterEach(async () => {
    await svc.close();
  });

  it('walks the draw through every step and every recorded hash verifies as AUTHENTIC', async () => {
    const blocked = await post('/api/kernel-core', { action: 'full_scan', project_id: projectId });
    expect(blocked.body.scan_verdict).to.equal('BLOCKED');
    const waiver = await fixDocuments();
    const clean = await post('/api/kernel-core', { action: 'full_scan', project_id: projectId });
    expect(clean.status).to.equal(201);
    expect(
      [...clean.body.contradictions.items, ...clean.body.temporal.items],
      JSON.stringify(clean.body),
    ).to.deep.equal([]);
    expect(clean.body.scan_verdict).to.equal('CLEAN');

    const compiled = await post('/api/dependency-graph', {
      action: 'compile_for_draw',
      project_id: projectId,
    });
    expect(compiled.status, JSON.stringify(compiled.body)).to.equal(201);
    expect(compiled.body.compilation).to.include({
      draw_id: drawId,
      draw_verdict: 'FUNDABLE',
      verdict_status: 'READY',
      layers_executed: 6,
    });
    expect(compiled.body.compilation.evidence_available).to.include.members([
      'pral_verdict',
      'adequacy_vector',
      'draw_verdict',
    ]);
    expect(
      (compiled.body.compilation.trace as { status: string }[]).every((t) => t.status === 'FIRED'),
    ).to.equal(true);

    const simulated = await post('/api/simulate', { action: 'simulate_draw', draw_id: drawId });
    expect(simulated.status, JSON.stringify(simulated.body)).to.equal(201);
    expect(simulated.body.recommendation).to.equal('APPROVE');
    expect(simulated.body.scenarios.map((x: { name: string }) => x.name)).to.deep.equal([
      'Approve Now',
      'Delay 30 Days',
      'Reject',
    ]);

    // Three enrolled keys sign (the GC's, the architect's, the lender's), and a notary performs an
    // acknowledgment of the GC's signer on the waiver its key executed (docs/duties.md).
    await signAll();
    const draw0 = await request(svc.app).get(`/api/draws/${drawId}`).set(auth());
    expect(
      draw0.body.signatures.map((s: { attestation: string; role: string }) => [s.role, s.attestation]),
    ).to.deep.equal([
      ['Contractor', 'ED25519'],
      ['Architect', 'ED25519'],
      ['Lender', 'ED25519'],
    ]);
    expect(new Set(draw0.body.signatures.map((s: { signer_id: string }) => s.signer_id)).size).to.equal(3);
    const executed = await request(svc.app).get(`/api/documents/${waiver}/signatures`).set(auth());
    expect(executed.body.items).to.have.length(1);
    const notarized = await j.notarialAct(waiver);
    expect(notarized.status, JSON.stringify(notarized.body)).to.equal(201);
    expect(notarized.body.notarization_id).to.match(/^NOT-/);
    expect(notarized.body.multi_hash).to.have.keys(['sha256', 'sha3', 'blake2b']);
    expect(notarized.body.status).to.equal('NOTARIAL_ACT');
    expect(notarized.body.act).to.include({ act_type: 'acknowledgment', commission_state: 'CA' });

    const certified = await post('/api/certification', { action: 'issue', project_id: projectId });
    expect(certified.status, JSON.stringify(certified.body)).to.equal(201);
    expect(certified.body.certification.id).to.match(/^CERT-/);
    const badge = await request(svc.app)
      .get(`/api/certification?action=badge&cert=${String(certified.body.certification.id)}`)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => done(null, text));
      });
    expect(badge.status).to.equal(200);
    expect(badge.headers['content-type']).to.match(/^image\/svg\+xml/);
    expect(String(badge.body)).to.include('VALID');
    expect(String(badge.body)).to.match(/^<svg/);

    const paid = await post('/api/payment-push', { draw_id: drawId });
    expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
    expect(paid.body.payment).to.include({
      draw_id: drawId,
      amount: D(135_000),
      rail: 'ACH',
      status: 'SUBMITTED',
    });
    expect(paid.body.payment.instruction.format).to.equal('pain.001');
    const files = readdirSync(join(svc.dataDir, 'payments'));
    expect(files).to.include(`${String(paid.body.payment.instruction.message_id)}.xml`);
    const xml = readFileSync(join(svc.dataDir, 'payments', files[0]!), 'utf8');
    expect(xml).to.include('urn:iso:std:iso:20022:tech:xsd:pain.001.001.09');
    expect(xml).to.include('<InstdAmt Ccy="USD">135000.00</InstdAmt>');
    // Bank-ready: the lender's verified disbursement account pays the GC's verified account, both
    // agents by US ABA routing (USABA), as an ACH corporate credit (CCD); no internal ids, no NOTPROVIDED.
    expect(xml).to.match(/<DbtrAcct>\s*<Id>\s*<Othr>\s*<Id>4000123456<\/Id>/);
    expect(xml).to.match(/<CdtrAcct>\s*<Id>\s*<Othr>\s*<Id>7765432109<\/Id>/);
    expect(xml).to.include('<Cd>USABA</Cd>');
    expect(xml).to.include('<MmbId>121000358</MmbId>');
    expect(xml).to.include('<Cd>CCD</Cd>');
    expect(xml.match(/<CtrlSum>135000.00<\/CtrlSum>/g)).to.have.length(2);
    expect(xml).to.not.match(/NOTPROVIDED|org_|ent_/);
    const draw = await request(svc.app).get(`/api/draws/${drawId}`).set(auth());
    expect(draw.body.status).to.equal('FUNDED');

    const again = await post('/api/payment-push', { draw_id: drawId });
    expect(again.status).to.equal(409);

    const hashes = [
      clean.body.provenance.sha256,
      compiled.body.provenance.sha256,
      simulated.body.provenance.sha256,
      certified.body.provenance.sha256,
      notarized.body.multi_hash.sha256,
      notarized.body.multi_hash.sha3,
      notarized.body.multi_hash.blake2b,
      paid.body.provenance.sha256,
      paid.body.provenance.ledger.hash,
    ];
    for (const hash of hashes) {
      const verdict = await post('/api/audit-verify', { hash });
      expect(verdict.body.verdict, `${hash}: ${JSON.stringify(verdict.body)}`).to.equal('AUTHENTIC');
    }
  });

  it('refuses payment with 422 naming each unmet gate alone, and records every refusal', async () => {
    const waiver = await fixDocuments();
    await post('/api/dependency-graph', { action: 'compile_for_draw', project_id: projectId });
    const gatesOf = async () => {
      const res = await post('/api/payment-push', { draw_id: drawId });
      expect(res.status).to.equal(422);
      expect(res.body.code).to.equal('GATE_UNMET');
      return (res.body.gates as { gate: string; passed: boolean }[])
        .filter((g) => !g.passed)
        .map((g) => g.gate);
    };
    expect(await gatesOf()).to.deep.equal(['signatures', 'notarization']);
    await signAll();
    expect(await gatesOf()).to.deep.equal(['notarization']);
    // A bare hash stamp (the seed's shape) is recorded as HASH_STAMPED and does not satisfy the gate.
    const stamped = await post('/api/notarization', {
      action: 'notarize',
      document_type: 'LIEN_WAIVER',
      document_id: waiver,
      jurisdiction: 'CA',
    });
    expect(stamped.body.status).to.equal('HASH_STAMPED');
    expect(await gatesOf()).to.deep.equal(['notarization']);
    await j.notarize(waiver);
    // A new fact that changes the verdict (a lien: NOT_FUNDABLE): the push re-compiles at the head.
    await j.recordLien();
    expect(await gatesOf()).to.deep.equal(['verdict_fundable']);
    const ledger = await request(svc.app).get('/api/ledger?limit=500').set(auth());
    const blockedEvents = (ledger.body.events as { type: string }[]).filter(
      (e) => e.type === 'PaymentPushBlocked',
    );
    expect(blockedEvents).to.have.length(4);
  });

  it('funds exactly one of two concurrent pushes of the same draw', async () => {
    const waiver = await fixDocuments();
    await post('/api/dependency-graph', { action: 'compile_for_draw', project_id: projectId });
    await signAll();
    await j.notarize(waiver);
    const [a, b] = await Promise.all([
      post('/api/payment-push', { draw_id: drawId }),
      post('/api/payment-push', { draw_id: drawId }),
    ]);
    expect([a.status, b.status].sort()).to.deep.equal([201, 409]);
    const ledger = await request(svc.app).get('/api/ledger?limit=500').set(auth());
    expect(
      (ledger.body.events as { type: string }[]).filter((e) => e.type === 'PaymentPushed'),
    ).to.have.length(1);
  });

  it('refuses a notarization outside US jurisdictions and of an unknown document, changing nothing', async () => {
    const waiver = await fixDocuments();
    const before = await svc.head();
    const foreign = await post('/api/notarization', {
      action: 'notarize',
      document_type: 'LIEN_WAIVER',
      document_id: waiver,
      jurisdiction: 'ZZ',
    });
    expect(foreign.status).to.equal(400);
    const missing = await post('/api/notarization', {
      action: 'notarize',
      document_type: 'LIEN_WAIVER',
      document_id: 'WAIV-aaaaaaaaaaaaaaaa',
      jurisdiction: 'CA',
    });
    expect(missing.status).to.equal(404);
    const wrongType = await post('/api/notarization', {
      action: 'notarize',
      document_type: 'INVOICE',
      document_id: waiver,
      jurisdiction: 'CA',
    });
    expect(wrongType.status).to.equal(404);
    expect(await svc.head()).to.equal(before);
  });
});
