import { expect } from 'chai';
import request from 'supertest';
import { D, firstDrawBody } from '../support/api-fixtures.js';
import { GL_REQUIRED, startJourney, type DrawJourney } from '../support/draw-journey.js';
import { signDrawAs, signWaiverAs } from '../support/signers.js';

/**
 * Money moves only on current governance (issue 14). Each case compiles the draw FUNDABLE and
 * makes it otherwise payable, then changes one fact, then pushes: the push re-runs the compilation
 * at the head, so it is refused with 422 GATE_UNMET naming the gate the change failed, and the
 * refusal is recorded with the compilation it ran.
 *
 * Every fact change that must block a compiled draw, and the gate that names it:
 * | fact change after the FUNDABLE compile                | refused by                          |
 * |-------------------------------------------------------|-------------------------------------|
 * | the GC's registry (SAM) exclusion                     | verdict_fundable + eligibility (DENY) |
 * | the GC's behavioral state (PROBATION) → PRAL HOLD      | eligibility (escrow only)           |
 * | the PRAL itself (DENY on exclusion, HOLD on state)     | eligibility                         |
 * | the GC's required insurance lapses                     | verdict_fundable (INSURANCE_EXPIRY) |
 * | a new BLOCKING finding (a new lien on the title)       | verdict_fundable                    |
 * | a contract-sum mismatch (a change order alters a line) | verdict_fundable (CONTRACT_SUM_MISMATCH) |
 * | evidence ages into conditions (stale inspection/title) | verdict_fundable (not accepted)     |
 * | a rail turns CRITICAL (a willful OSHA citation)        | no_critical_rail                    |
 * | a required rail has no evidence (no insurance facts)   | no_critical_rail — test/api/rails-coverage.test.ts |
 * | the lender rejects the draw (`DrawRejected`)           | 409 CONFLICT: a terminal state, like FUNDED (SPEC §6) |
 * Draw lines themselves are immutable facts (there is no amendment route): what can change under
 * a compiled draw is what its lines mean — the change-order case above. Signatures, waivers and
 * notarization have their own gates (signatures, waivers_executed, notarization) specified in
 * test/api/golden-draw.test.ts.
 */
interface Gate {
  gate: string;
  passed: boolean;
  detail: string;
}

const EXCLUSIONS_HEADER =
  '"Classification","Name","Prefix","First","Middle","Last","Suffix","Address 1","Address 2","Address 3","Address 4","City","State / Province","Country","Zip Code","D&B Open Data Flag","Unique Entity Identifier (DUNS)","Unique Entity Identifier (SAM)","Exclusion Program","Excluding Agency","CT Code","Exclusion Type","Additional Comments","Active Date","Termination Date","Record Status","Cross-Reference","SAM Number","CAGE","NPI","Creation_Date"';
const KEYSTONE_EXCLUDED =
  '"Firm","KEYSTONE BUILDERS, INC.","","","","","","1 MAIN ST","","","","OAKLAND","CA","USA","94601","N","","","Reciprocal","GSA","A","Ineligible (Proceedings Completed)","","06/01/2026","Indefinite","","","S4MRKEYS1","","","2026-06-01"';

async function refusedGates(j: DrawJourney, body: Record<string, unknown> = {}): Promise<Gate[]> {
  const res = await j.post('/api/payment-push', { draw_id: j.drawId, ...body });
  expect(res.status, JSON.stringify(res.body)).to.equal(422);
  expect(res.body.code).to.equal('GATE_UNMET');
  return res.body.gates as Gate[];
}

const failed = (gates: Gate[]) => gates.filter((g) => !g.passed).map((g) => g.gate);

/** Records an OSHA citation against the journey's GC on its project (DOMAIN §8 SAFETY). */
async function citeGc(
  j: DrawJourney,
  citation: { activity_nr: string; type: 'S' | 'W'; penalty: number; abate_by: string },
): Promise<void> {
  const res = await j.post('/api/observations', {
    project_id: j.projectId,
    entity: j.gc,
    kind: 'osha_citation',
    observed_on: '2026-06-03',
    ...citation,
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
}
const detailOf = (gates: Gate[], gate: string) => gates.find((g) => g.gate === gate)?.detail ?? '';

describe('payment gate: a compiled draw is paid only on the facts at the moment of payment', function () {
  this.timeout(60_000);
  let j: DrawJourney;
  afterEach(async () => {
    await j.svc.close();
  });

  describe('every fact change that must block a draw compiled FUNDABLE', () => {
    it('the GC’s registry exclusion: NOT_FUNDABLE at the head and PRAL DENY', async () => {
      j = await startJourney();
      await j.readyToPay();
      const admin = await j.svc.operator();
      const imported = await request(j.svc.app)
        .post('/api/registry/import?filename=exclusions.csv')
        .set('Authorization', `Bearer ${admin.key}`)
        .set('Content-Type', 'text/csv')
        .send(`${EXCLUSIONS_HEADER}\n${KEYSTONE_EXCLUDED}\n`);
      expect(imported.status, JSON.stringify(imported.body)).to.equal(200);

      const gates = await refusedGates(j);
      expect(failed(gates)).to.include.members(['verdict_fundable', 'eligibility']);
      expect(detailOf(gates, 'verdict_fundable')).to.equal(
        'at the head the draw is NOT_FUNDABLE (GC has an active registry exclusion); it was FUNDABLE when compiled at seq ' +
          /seq (\d+)$/.exec(detailOf(gates, 'verdict_fundable'))![1],
      );
      expect(detailOf(gates, 'eligibility')).to.match(/^PRAL DENY .* allows no rail; asked ACH$/);
    });

    it('the GC’s behavioral state (a serious citation puts it on PROBATION): PRAL HOLD, escrow only', async () => {
      j = await startJourney();
      await j.readyToPay();
      await citeGc(j, { activity_nr: '1700009', type: 'S', penalty: D(9_000), abate_by: '2026-06-30' });

      const gates = await refusedGates(j, { rail: 'ACH' });
      expect(failed(gates)).to.include('eligibility');
      expect(detailOf(gates, 'eligibility')).to.match(/^PRAL HOLD .* allows ESCROW; asked ACH$/);
    });

    it('an insurance lapse: the GC’s required GL coverage expires before the push', async () => {
      j = await startJourney({ project: GL_REQUIRED, insuredThrough: null });
      await j.insureGc('2026-07-10');
      await j.readyToPay();
      j.svc.clock.set('2026-07-11T15:00:00Z');

      const gates = await refusedGates(j);
      expect(failed(gates)).to.include('verdict_fundable');
      expect(detailOf(gates, 'verdict_fundable')).to.match(
        /^at the head the draw is HOLD \(BLOCKING: INSURANCE_EXPIRY\); it was FUNDABLE when compiled at seq \d+$/,
      );
    });

    it('a new finding: a title date-down showing a new lien', async () => {
      j = await startJourney();
      await j.readyToPay();
      await j.recordLien();

      const gates = await refusedGates(j);
      expect(failed(gates)).to.include('verdict_fundable');
      // A recorded lien is no paperwork gap: no document cures it (DOMAIN §9 NOT_FUNDABLE).
      expect(detailOf(gates, 'verdict_fundable')).to.match(
        /^at the head the draw is NOT_FUNDABLE \(BLOCKING \(no document cures\): TITLE_DATE_DOWN\); it was FUNDABLE/,
      );
    });

    it('a contract-sum mismatch: an executed change order moves budget between lines after the compile', async () => {
      j = await startJourney();
      await j.readyToPay();
      // Executed within the draw's period but recorded only now; net zero, so the project stays
      // in balance, yet line 1's scheduled value is no longer the draw's column C (DOMAIN §2).
      await j.created(`/api/projects/${j.projectId}/change-orders`, {
        number: 'CO-1',
        amount: 0,
        lines: [
          { line: 1, delta: D(25_000) },
          { line: 2, delta: -D(25_000) },
        ],
        description: 'Retaining wall funded from framing',
        executed_on: '2026-05-10',
        lender_approved_on: '2026-05-10',
        work_started_on: '2026-05-11',
      });

      const gates = await refusedGates(j);
      expect(failed(gates)).to.include('verdict_fundable');
      expect(detailOf(gates, 'verdict_fundable')).to.match(
        /^at the head the draw is (HOLD|NOT_FUNDABLE) \(.*CONTRACT_SUM_MISMATCH.*\); it was FUNDABLE when compiled at seq \d+$/,
      );
    });

    it('evidence ages into conditions: 37 days on, the inspection and title date-down are stale (FUNDABLE_WITH_CONDITIONS, not accepted)', async () => {
      j = await startJourney();
      await j.readyToPay();
      j.svc.clock.set('2026-07-09T15:00:00Z');

      const gates = await refusedGates(j);
      expect(failed(gates)).to.deep.equal(['verdict_fundable']);
      expect(detailOf(gates, 'verdict_fundable')).to.match(
        /^at the head the draw is FUNDABLE_WITH_CONDITIONS \(.*INSPECTION_FRESHNESS.*\).*not accepted by a lender \(draws:approve\)$/,
      );
    });

    it('a rail turns CRITICAL: a willful, unabated OSHA citation against the GC', async () => {
      j = await startJourney();
      await j.readyToPay();
      await citeGc(j, { activity_nr: '1700011', type: 'W', penalty: D(70_000), abate_by: '2026-07-15' });

      const gates = await refusedGates(j, { rail: 'ESCROW' });
      expect(failed(gates)).to.include('no_critical_rail');
      expect(detailOf(gates, 'no_critical_rail')).to.equal('CRITICAL: SAFETY');
    });

    it('records each refusal with the compilation it ran at the head, and pays nothing', async () => {
      j = await startJourney();
      await j.readyToPay();
      await j.recordLien();
      const before = await j.svc.head();
      await refusedGates(j);
      const ledger = await request(j.svc.app)
        .get(`/api/ledger?after=${before}&limit=10`)
        .set('Authorization', `Bearer ${j.lender.key}`);
      const events = ledger.body.events as { type: string; data: Record<string, unknown> }[];
      expect(events.map((e) => e.type)).to.deep.equal([
        'ProjectScanned',
        'DrawCompiled',
        'PaymentPushBlocked',
      ]);
      expect(events[1]!.data['draw_verdict']).to.equal('NOT_FUNDABLE');
      expect(events[2]!.data['compilation_id']).to.equal(events[1]!.data['compilation_id']);
      const draw = await request(j.svc.app)
        .get(`/api/draws/${j.drawId}`)
        .set('Authorization', `Bearer ${j.lender.key}`);
      expect(draw.body.status).to.equal('COMPILED');
    });
  });

  describe('what a payment was decided on', () => {
    it('records on PaymentPushed who decided it, the compilation hash, the signed application digest, the acceptance, line 8 and every gate', async () => {
      j = await startJourney({ draw: { requested_amount: D(140_000) } });
      const waiver = await j.fixDocuments();
      await j.compile();
      await j.signAll();
      await j.notarize(waiver);
      const accepted = await j.accept('pay line 8');
      const before = await j.svc.head();
      const paid = await j.post('/api/payment-push', { draw_id: j.drawId });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
      const ledger = await request(j.svc.app)
        .get(`/api/ledger?after=${before}&limit=10`)
        .set('Authorization', `Bearer ${j.lender.key}`);
      const events = ledger.body.events as {
        type: string;
        data: Record<string, unknown>;
        meta: { actor: string };
      }[];
      const compiled = events.find((e) => e.type === 'DrawCompiled')!;
      const pushed = events.find((e) => e.type === 'PaymentPushed')!;
      expect(pushed.meta.actor).to.equal(j.lender.key_id);
      const draw = await request(j.svc.app)
        .get(`/api/draws/${j.drawId}`)
        .set('Authorization', `Bearer ${j.lender.key}`);
      const signed = (draw.body.signatures as { application_sha256: string | null }[]).map(
        (s) => s.application_sha256,
      );
      const basis = pushed.data['basis'] as Record<string, unknown>;
      expect(basis).to.include({
        compilation_hash: compiled.data['payload_hash'],
        application_sha256: signed[0],
        acceptance_id: accepted.body.acceptance.id,
        current_payment_due: D(135_000),
        fundable_amount: D(135_000),
      });
      expect(new Set(signed)).to.deep.equal(new Set([basis['application_sha256']]));
      expect(pushed.data['amount']).to.equal(basis['fundable_amount']);
      const gates = basis['gates'] as Gate[];
      expect(gates.map((g) => g.gate)).to.deep.equal([
        'verdict_fundable',
        'signatures',
        'waivers_executed',
        'notarization',
        'in_balance',
        'no_critical_rail',
        'eligibility',
        'payee_account_stable',
      ]);
      expect(gates.every((g) => g.passed)).to.equal(true);
    });
  });

  describe('verdicts, amounts and eligibility', () => {
    it('pays a FUNDABLE draw its G702 line 8 on a rail its PRAL allows, and refuses RTP under RELEASE_WITH_CONDITIONS', async () => {
      j = await startJourney();
      await j.readyToPay();
      const gates = await refusedGates(j, { rail: 'RTP' });
      expect(failed(gates)).to.deep.equal(['eligibility']);
      expect(detailOf(gates, 'eligibility')).to.match(
        /^PRAL RELEASE_WITH_CONDITIONS .* allows ACH, Wire, ESCROW; asked RTP$/,
      );

      const paid = await j.post('/api/payment-push', { draw_id: j.drawId, rail: 'Wire' });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
      expect(paid.body.payment).to.include({ amount: D(135_000), rail: 'Wire' });
    });

    it('pays FUNDABLE_WITH_CONDITIONS only after a draws:approve key accepts the conditions, with a reason', async () => {
      j = await startJourney();
      const waiver = await j.fixDocuments({ waiverAmount: D(130_000) });
      const compiled = await j.compile();
      expect(compiled.body.compilation.draw_verdict).to.equal('FUNDABLE_WITH_CONDITIONS');
      await j.signAll();
      await j.notarize(waiver);

      const gates = await refusedGates(j);
      expect(failed(gates)).to.deep.equal(['verdict_fundable']);
      expect(detailOf(gates, 'verdict_fundable')).to.match(/not accepted by a lender \(draws:approve\)$/);

      const withoutScope = await j.post(`/api/draws/${j.drawId}/accept`, {
        reason: 'waiver shortfall cured at closing',
      });
      expect(withoutScope.status).to.equal(403);
      const acceptedRes = await j.accept('waiver shortfall cured at closing');
      expect(acceptedRes.body.acceptance).to.include({
        draw_verdict: 'FUNDABLE_WITH_CONDITIONS',
        reason: 'waiver shortfall cured at closing',
      });
      expect(acceptedRes.body.acceptance.accepted_codes).to.deep.equal(['LIEN_WAIVER_MISMATCH']);

      const paid = await j.post('/api/payment-push', { draw_id: j.drawId });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
      expect(paid.body.payment.amount).to.equal(D(135_000));
    });

    it('no longer counts an acceptance by a draws:approve key revoked since: the conditions must be accepted again', async () => {
      j = await startJourney({ draw: { requested_amount: D(140_000) } });
      const waiver = await j.fixDocuments();
      await j.signAll();
      await j.notarize(waiver);
      const approver = await j.svc.key('First Builders Bank', ['draws:approve']);
      const accept = (key: typeof approver) =>
        j.post(`/api/draws/${j.drawId}/accept`, { reason: 'pay the G702 figure' }, key);
      expect((await accept(approver)).status).to.equal(201);
      // The approver's key is revoked (stolen, or its holder left): its acceptance vouches for nothing.
      const admin = await j.svc.key('First Builders Bank', ['admin']);
      const revoked = await request(j.svc.app)
        .post(`/api/keys/${approver.key_id}/revoke`)
        .set('Authorization', `Bearer ${admin.key}`)
        .send({ reason: 'key stolen' });
      expect(revoked.status, JSON.stringify(revoked.body)).to.equal(200);
      const gates = await refusedGates(j);
      expect(failed(gates)).to.deep.equal(['verdict_fundable']);
      expect(detailOf(gates, 'verdict_fundable')).to.match(
        new RegExp(
          `; accepted by ${approver.key_id}, a key revoked since: not accepted by a lender \\(draws:approve\\)$`,
        ),
      );
      const another = await j.svc.key('First Builders Bank', ['draws:approve']);
      expect((await accept(another)).status).to.equal(201);
      const paid = await j.post('/api/payment-push', { draw_id: j.drawId });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
    });

    it('holds an accepted draw when a new condition of an accepted code arises: the acceptance covers findings, not codes', async () => {
      // GL and builder's risk are required; on 2026-06-03 GL expires in 22 days (a WARNING), the
      // builder's risk in 37 (none). The lender accepts the GL condition.
      j = await startJourney({
        insuredThrough: '2026-06-25',
        project: {
          required_coverages: [
            { type: 'GL', min_limit: D(1_000_000) },
            { type: 'BUILDERS_RISK', min_limit: D(1_000_000) },
          ],
        },
      });
      const cover = await j.post(`/api/projects/${j.projectId}/documents`, {
        type: 'INSURANCE_CERTIFICATE',
        insured: j.gc,
        coverage_type: 'BUILDERS_RISK',
        limit: D(2_000_000),
        effective_on: '2026-01-01',
        expires_on: '2026-07-10',
        additional_insured: true,
      });
      expect(cover.status, JSON.stringify(cover.body)).to.equal(201);
      const waiver = await j.fixDocuments();
      expect((await j.compile()).body.compilation.draw_verdict).to.equal('FUNDABLE_WITH_CONDITIONS');
      await j.signAll();
      await j.notarize(waiver);
      const acceptedRes = await j.accept('GL renewal binder on file');
      expect(acceptedRes.body.acceptance.accepted_codes).to.deep.equal(['INSURANCE_EXPIRY']);

      // Nine days on, the builder's risk expires within 30 days too: a new finding nobody accepted,
      // under the code the lender accepted for GL.
      j.svc.clock.set('2026-06-12T15:00:00Z');
      const gates = await refusedGates(j);
      expect(failed(gates)).to.deep.equal(['verdict_fundable']);
      expect(detailOf(gates, 'verdict_fundable')).to.match(
        /; not accepted: INSURANCE_EXPIRY \(FND-[a-z2-7]{16}\)$/,
      );

      await j.accept('builder’s risk renewal binder on file too');
      expect((await j.post('/api/payment-push', { draw_id: j.drawId })).status).to.equal(201);
    });

    it('pays a REDUCED draw only the reduced amount, after acceptance, and only by escrow (the GC’s BLOCKING variance makes its PRAL HOLD)', async () => {
      j = await startJourney();
      // Line 1 claims 25 % ($100k of $400k); the inspector saw 10 %: > 10 points, BLOCKING variance.
      const waiver = await j.fixDocuments({ inspectedLine1Pct: 10 });
      const compiled = await j.compile();
      expect(compiled.body.compilation.draw_verdict, JSON.stringify(compiled.body)).to.equal('REDUCED');
      const reduced = compiled.body.compilation.fundable_amount as number;
      expect(reduced).to.be.lessThan(D(135_000));
      await j.signAll();
      await j.notarize(waiver);

      const byAch = await refusedGates(j, { rail: 'ACH' });
      expect(failed(byAch)).to.deep.equal(['verdict_fundable', 'eligibility']);
      expect(detailOf(byAch, 'eligibility')).to.match(/^PRAL HOLD .* allows ESCROW; asked ACH$/);
      expect(failed(await refusedGates(j, { rail: 'ESCROW' }))).to.deep.equal(['verdict_fundable']);
      await j.accept('fund at the inspected amounts');
      expect(failed(await refusedGates(j, { rail: 'ACH' }))).to.deep.equal(['eligibility']);
      // No rail named: the push takes the preferred rail the PRAL allows, here ESCROW.
      const paid = await j.post('/api/payment-push', { draw_id: j.drawId });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
      expect(paid.body.payment).to.include({ amount: reduced, rail: 'ESCROW' });
    });

    it('pays a REDUCED draw line 8 less the inspected cut, never more, however much the application requested', async () => {
      // Line 8 is $135,000; the application asks $300,000. Line 1 claims $100k, inspected at 10 %
      // of $400k = $40k: a $60k cut, $54k net of retainage. The draw is worth $81,000 — the request
      // less the cut ($246,000) is more than the whole claim.
      j = await startJourney({ draw: { requested_amount: D(300_000) } });
      const waiver = await j.fixDocuments({ inspectedLine1Pct: 10, waiverAmount: D(300_000) });
      const compiled = await j.compile();
      expect(compiled.body.compilation.draw_verdict, JSON.stringify(compiled.body)).to.equal('REDUCED');
      expect(compiled.body.compilation.fundable_amount).to.equal(D(81_000));
      await j.signAll();
      await j.notarize(waiver);
      await j.accept('inspected amounts');
      const paid = await j.post('/api/payment-push', { draw_id: j.drawId, rail: 'ESCROW' });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
      expect(paid.body.payment.amount).to.equal(D(81_000));
    });

    it('keeps a BLOCKING variance a later inspection did not look at: a report on line 2 alone leaves line 1 at the 10 % seen before (REDUCED $81,000, not FUNDABLE $135,000)', async () => {
      j = await startJourney();
      // Line 1 claims 25 % ($100k of $400k); the inspector saw 10 %: BLOCKING, $81,000 fundable.
      const waiver = await j.fixDocuments({ inspectedLine1Pct: 10 });
      expect((await j.compile()).body.compilation.fundable_amount).to.equal(D(81_000));
      await j.signAll();
      await j.notarize(waiver);
      // A later visit reports line 2 only: it says nothing about line 1.
      const inspector = await j.created('/api/entities', {
        legal_name: 'Line Two Inspections LLC',
        roles: ['inspector'],
      });
      await j.created(`/api/projects/${j.projectId}/documents`, {
        type: 'INSPECTION_REPORT',
        draw_id: j.drawId,
        inspector,
        inspected_on: '2026-06-03',
        lines: [{ line: 2, percent_complete: 8.33 }],
        stored_materials_verified: true,
      });

      const gates = await refusedGates(j, { rail: 'ESCROW' });
      expect(failed(gates)).to.deep.equal(['verdict_fundable']);
      expect(detailOf(gates, 'verdict_fundable')).to.match(
        /^at the head the draw is REDUCED \(fundable at inspected amounts: 8100000 of 13500000\)/,
      );
      await j.accept('inspected amounts');
      const paid = await j.post('/api/payment-push', { draw_id: j.drawId, rail: 'ESCROW' });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
      expect(paid.body.payment.amount).to.equal(D(81_000));
    });

    it('cuts a REDUCED draw at the inspection its BLOCKING variance was found on: a later site report, not an earlier report naming the draw', async () => {
      // The report naming the draw (2026-06-02) agrees with the claim (line 1 at 25 %); a site
      // report after the period (2026-06-03, the latest inspection) sees line 1 at 5 %: BLOCKING,
      // REDUCED. The cut was measured on the earlier report, found nothing to cut, and the REDUCED
      // draw was accepted and paid its whole line 8 ($135,000). Line 1 is $100k claimed, $20k
      // inspected: an $80k cut, $72k net of retainage — $63,000.
      j = await startJourney();
      const waiver = await j.fixDocuments();
      const inspector = await j.created('/api/entities', {
        legal_name: 'Site Walk Inspections LLC',
        roles: ['inspector'],
      });
      await j.created(`/api/projects/${j.projectId}/documents`, {
        type: 'INSPECTION_REPORT',
        inspector,
        inspected_on: '2026-06-03',
        lines: [
          { line: 1, percent_complete: 5 },
          { line: 2, percent_complete: 8.33 },
        ],
        stored_materials_verified: true,
      });
      const compiled = await j.compile();
      expect(compiled.body.compilation.draw_verdict, JSON.stringify(compiled.body)).to.equal('REDUCED');
      expect(compiled.body.compilation.fundable_amount).to.equal(D(63_000));
      await j.signAll();
      await j.notarize(waiver);
      await j.accept('site walk');
      const paid = await j.post('/api/payment-push', { draw_id: j.drawId, rail: 'ESCROW' });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
      expect(paid.body.payment.amount).to.equal(D(63_000));
    });

    /**
     * A draw compiled REDUCED (line 1 inspected at 10 %), signed, notarized and accepted at its reduced
     * amount; then a second inspection of line 1 at `secondPct` % (the same finding).
     */
    async function acceptedReducedThenReinspected(secondPct: number) {
      j = await startJourney();
      const waiver = await j.fixDocuments({ inspectedLine1Pct: 10 });
      const compiled = await j.compile();
      expect(compiled.body.compilation.draw_verdict).to.equal('REDUCED');
      await j.signAll();
      await j.notarize(waiver);
      const approver = await j.svc.key('First Builders Bank', ['draws:approve']);
      const accept = (reason: string) => j.post(`/api/draws/${j.drawId}/accept`, { reason }, approver);
      expect((await accept('fund at the inspected amounts')).status).to.equal(201);
      await j.reinspect(secondPct);
      return { accept, acceptedAmount: compiled.body.compilation.fundable_amount as number };
    }

    it('holds a draw accepted at its REDUCED amount when a later inspection turns it FUNDABLE_WITH_CONDITIONS (full amount) until a lender accepts that', async () => {
      // 18 %: a 7-point variance, only a WARNING on the same line (the same finding). The draw now
      // pays its full line 8, an amount the lender never accepted.
      const { accept } = await acceptedReducedThenReinspected(18);
      // (The earlier BLOCKING variance put the GC on PROBATION: escrow only, whatever the verdict.)
      const gates = await refusedGates(j, { rail: 'ESCROW' });
      expect(failed(gates)).to.deep.equal(['verdict_fundable']);
      expect(detailOf(gates, 'verdict_fundable')).to.match(
        /^at the head the draw is FUNDABLE_WITH_CONDITIONS .*; the lender accepted it as REDUCED, not FUNDABLE_WITH_CONDITIONS$/,
      );
      expect((await accept('full amount after the second inspection')).status).to.equal(201);
      const paid = await j.post('/api/payment-push', { draw_id: j.drawId, rail: 'ESCROW' });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
      expect(paid.body.payment.amount).to.equal(D(135_000));
    });

    it('holds a REDUCED draw whose reduced amount changed since the lender accepted it', async () => {
      // 13 %: still a BLOCKING variance on the same line (REDUCED, the same finding), but at a larger
      // reduced amount than the one the lender accepted.
      const { accept, acceptedAmount } = await acceptedReducedThenReinspected(13);
      const gates = await refusedGates(j, { rail: 'ESCROW' });
      expect(failed(gates)).to.deep.equal(['verdict_fundable']);
      expect(detailOf(gates, 'verdict_fundable')).to.match(
        /; the lender accepted a reduced amount of \$[\d,.]+, not \$[\d,.]+$/,
      );
      expect((await accept('the larger amount after the second inspection')).status).to.equal(201);
      const paid = await j.post('/api/payment-push', { draw_id: j.drawId, rail: 'ESCROW' });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
      expect(paid.body.payment.amount).to.be.greaterThan(acceptedAmount);
    });

    it('records a request that disagrees with G702 line 8 as a finding, and pays line 8, not the request', async () => {
      j = await startJourney({ draw: { requested_amount: D(140_000) } });
      const waiver = await j.fixDocuments();
      const compiled = await j.compile();
      expect(compiled.body.compilation.draw_verdict).to.equal('FUNDABLE_WITH_CONDITIONS');
      expect(compiled.body.compilation.reasons).to.include('WARNING: DUPLICATE_OR_UNSUPPORTED_COST');
      await j.signAll();
      await j.notarize(waiver);
      await j.accept('pay the G702 figure');
      const paid = await j.post('/api/payment-push', { draw_id: j.drawId });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
      expect(paid.body.payment.amount).to.equal(D(135_000));
    });

    it('refuses to pay a draw whose G702 line 8 is nothing (retainage stated above what was earned): 422 with the refusal recorded, not a 500', async () => {
      // $150,000 earned, $200,000 of retainage stated (only a WARNING): line 8 is -$50,000.
      j = await startJourney({ draw: { requested_amount: 0, retainage_withheld: D(200_000) } });
      const waiver = await j.fixDocuments({ waiverAmount: 0 });
      const compiled = await j.compile();
      expect(compiled.body.compilation.draw_verdict, JSON.stringify(compiled.body)).to.equal(
        'FUNDABLE_WITH_CONDITIONS',
      );
      await j.signAll();
      await j.notarize(waiver);
      await j.accept('as stated');
      const gates = await refusedGates(j);
      expect(failed(gates)).to.deep.equal(['verdict_fundable']);
      expect(detailOf(gates, 'verdict_fundable')).to.match(
        /; nothing to pay: \$0\.00 is fundable \(G702 line 8 is -\$50,000\.00\)$/,
      );
      const draw = await request(j.svc.app)
        .get(`/api/draws/${j.drawId}`)
        .set('Authorization', `Bearer ${j.lender.key}`);
      expect(draw.body.status).to.not.equal('FUNDED');
    });

    it('never pays more than the project has left to disburse: an overbilled draw recorded before submission checked G ≤ C is refused by in_balance (422 naming the figures)', async () => {
      // Seen live before submission refused it: line 1 billed $40,000,000 on its $400,000
      // scheduled value, an inspection report listing no lines, the scan CLEAN, and the push paid
      // line 8 — $36,045,000 — on an $800,000 loan with $200,000 of equity.
      j = await startJourney({
        recordedUnchecked: true,
        draw: {
          lines: [
            { line: 1, previous: 0, this_period: D(40_000_000), stored_materials: 0 },
            { line: 2, previous: 0, this_period: D(50_000), stored_materials: 0 },
          ],
          requested_amount: D(36_045_000),
        },
      });
      const waiver = await j.fixDocuments({ waiverAmount: D(36_045_000), inspectedLines: [] });
      const compiled = await j.compile();
      expect(compiled.body.compilation.draw_verdict, JSON.stringify(compiled.body)).to.equal(
        'FUNDABLE_WITH_CONDITIONS',
      );
      await j.signAll();
      await j.notarize(waiver);
      await j.accept('as billed');
      for (const rail of ['ACH', 'ESCROW']) {
        const gates = await refusedGates(j, { rail });
        expect(failed(gates)).to.deep.equal(['in_balance']);
        expect(detailOf(gates, 'in_balance')).to.equal(
          'the payment of $36,045,000.00 exceeds the $1,000,000.00 left to disburse (undisbursed loan $800,000.00 + unspent equity $200,000.00 + remaining contingency $0.00, after $0.00 paid)',
        );
      }
      const draw = await request(j.svc.app)
        .get(`/api/draws/${j.drawId}`)
        .set('Authorization', `Bearer ${j.lender.key}`);
      expect(draw.body.status).to.not.equal('FUNDED');
    });

    it('pays one set of work once: application 1 is refused after application 2, claiming from zero, was paid first', async () => {
      j = await startJourney();
      const waiver1 = await j.fixDocuments();
      await j.signAll();
      // Application 2 (June) submitted while application 1 is unpaid: it claims from zero, as no
      // draw was funded yet, and is made payable on its own documents.
      const { drawId: second, waiver: waiver2 } = await j.secondApplication({
        invoices: [
          ['KB-2001', 1, D(100_000)],
          ['KB-2002', 2, D(50_000)],
        ],
        inspected: [25, 8.33],
        waiverAmount: D(135_000),
      });
      const signers = await j.signers();
      expect((await signWaiverAs(j.svc.app, j.lender, waiver2, signers.Contractor)).status).to.equal(201);
      for (const role of ['Contractor', 'Architect', 'Lender'] as const)
        expect((await signDrawAs(j.svc.app, j.lender, second, role, signers[role])).status).to.equal(201);
      for (const waiver of [waiver1, waiver2])
        expect((await j.notarialAct(waiver, { actDate: '2026-07-01' })).status).to.equal(201);

      const paid = await j.post('/api/payment-push', { draw_id: second });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
      expect(paid.body.payment.amount).to.equal(D(135_000));
      // Application 1 claims the same $150,000 of work from zero: it was paid with application 2.
      const gates = await refusedGates(j);
      expect(failed(gates)).to.deep.equal(['verdict_fundable']);
      expect(detailOf(gates, 'verdict_fundable')).to.equal(
        'at the head the draw is NOT_FUNDABLE (BLOCKING (no document cures): ROLL_FORWARD_MISMATCH)',
      );
    });

    it('never pays a rejected draw: DrawRejected ends its path to payment', async () => {
      j = await startJourney();
      await j.readyToPay();
      const rejected = await j.post(`/api/draws/${j.drawId}/reject`, {
        reasons: ['borrower withdrew the application'],
      });
      expect(rejected.status, JSON.stringify(rejected.body)).to.equal(201);
      expect(rejected.body.rejection.reasons).to.deep.equal(['borrower withdrew the application']);
      const again = await j.post(`/api/draws/${j.drawId}/reject`, { reasons: ['twice'] });
      expect(again.status).to.equal(409);
      const push = await j.post('/api/payment-push', { draw_id: j.drawId });
      expect(push.status).to.equal(409);
      const draw = await request(j.svc.app)
        .get(`/api/draws/${j.drawId}`)
        .set('Authorization', `Bearer ${j.lender.key}`);
      expect(draw.body.status).to.equal('REJECTED');
      // The rejected application left the sequence: the borrower may resubmit its number.
      const resubmitted = await j.post(`/api/projects/${j.projectId}/draws`, firstDrawBody());
      expect(resubmitted.status, JSON.stringify(resubmitted.body)).to.equal(201);
      const duplicate = await j.post(`/api/projects/${j.projectId}/draws`, firstDrawBody());
      expect(duplicate.status).to.equal(409);
    });
  });

  describe('lien waivers', () => {
    it('holds application 2 while the unconditional waiver the scan relies on for application 1 is unsigned: the GC signed one releasing $10,000 of the $135,000 paid', async () => {
      j = await startJourney();
      await j.readyToPay();
      const first = await j.post('/api/payment-push', { draw_id: j.drawId });
      expect(first.status, JSON.stringify(first.body)).to.equal(201);
      const signers = await j.signers();
      const unconditional = (amount: number) => ({
        type: 'LIEN_WAIVER',
        claimant: j.gc,
        draw_id: j.drawId,
        waiver_type: 'UNCONDITIONAL_PROGRESS',
        amount,
        through_date: '2026-05-31',
        signed_on: '2026-06-03',
        executed: true,
      });
      // The GC's signer executes (and a notary acknowledges) a release of $10,000 only …
      const signedShort = await j.created(`/api/projects/${j.projectId}/documents`, unconditional(D(10_000)));
      expect((await signWaiverAs(j.svc.app, j.lender, signedShort, signers.Contractor)).status).to.equal(201);
      await j.notarize(signedShort);
      // … and a later upload states a full release nobody signed: the scan reads it (the latest).
      const statedFull = await j.created(`/api/projects/${j.projectId}/documents`, unconditional(D(135_000)));

      // Application 2 (June), payable on its own documents.
      const { drawId: second, waiver: conditional } = await j.secondApplication({
        invoices: [
          ['KB-2001', 1, D(40_000)],
          ['KB-2002', 2, D(20_000)],
        ],
        draw: {
          requested_amount: D(54_000),
          lines: [
            { line: 1, previous: D(100_000), this_period: D(40_000), stored_materials: 0 },
            { line: 2, previous: D(50_000), this_period: D(20_000), stored_materials: 0 },
          ],
        },
        inspected: [35, 11.67],
        waiverAmount: D(54_000),
      });
      expect((await signWaiverAs(j.svc.app, j.lender, conditional, signers.Contractor)).status).to.equal(201);
      expect((await j.notarialAct(conditional, { actDate: '2026-07-01' })).status).to.equal(201);
      for (const role of ['Contractor', 'Architect', 'Lender'] as const)
        expect((await signDrawAs(j.svc.app, j.lender, second, role, signers[role])).status).to.equal(201);

      const refused = await j.post('/api/payment-push', { draw_id: second });
      expect(refused.status, JSON.stringify(refused.body)).to.equal(422);
      const gates = refused.body.gates as Gate[];
      expect(failed(gates)).to.deep.equal(['waivers_executed', 'notarization']);
      expect(detailOf(gates, 'waivers_executed')).to.equal(
        `not executed (no signature by the claimant's signer): ${statedFull}`,
      );
      expect(detailOf(gates, 'notarization')).to.equal(`${statedFull} is not notarized`);
      // Once the GC's signer executes the full release (and a notary acknowledges it), it pays.
      expect((await signWaiverAs(j.svc.app, j.lender, statedFull, signers.Contractor)).status).to.equal(201);
      expect((await j.notarialAct(statedFull, { actDate: '2026-07-01' })).status).to.equal(201);
      const paid = await j.post('/api/payment-push', { draw_id: second });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
      expect(paid.body.payment.amount).to.equal(D(54_000));
    });
  });

  describe('Idempotency-Key', () => {
    it('never answers 201 for a payment it did not record: a key whose refused push is past the 24 h replay window answers 422 IDEMPOTENCY_KEY_REUSED', async () => {
      j = await startJourney();
      const waiver = await j.fixDocuments();
      expect((await j.compile()).status).to.equal(201);
      await j.notarize(waiver);
      const push = () =>
        j.post('/api/payment-push', { draw_id: j.drawId }).set('Idempotency-Key', 'push-application-1');
      const refused = await push();
      expect(refused.status, JSON.stringify(refused.body)).to.equal(422);
      expect(failed(refused.body.gates as Gate[])).to.deep.equal(['signatures']);

      // A day and an hour later the replay record is gone; the chain signs and the same key is sent
      // again. Its event ids are the refusal's, so the ledger keeps the refusal and appends nothing.
      j.svc.clock.set('2026-06-04T16:00:00Z');
      await j.signAll();
      const before = await j.svc.head();
      const again = await push();
      expect(again.status, JSON.stringify(again.body)).to.equal(422);
      expect(again.body.code).to.equal('IDEMPOTENCY_KEY_REUSED');
      expect(await j.svc.head()).to.equal(before);
      const draw = await request(j.svc.app)
        .get(`/api/draws/${j.drawId}`)
        .set('Authorization', `Bearer ${j.lender.key}`);
      expect(draw.body.status).to.equal('COMPILED');

      // A new key decides a new push: paid once, and recorded.
      const paid = await j
        .post('/api/payment-push', { draw_id: j.drawId })
        .set('Idempotency-Key', 'push-application-1-again');
      expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
      const ledger = await request(j.svc.app)
        .get(`/api/ledger?after=${before}&limit=10`)
        .set('Authorization', `Bearer ${j.lender.key}`);
      const pushed = (ledger.body.events as { type: string; data: { payment_id?: string } }[]).filter(
        (e) => e.type === 'PaymentPushed',
      );
      expect(pushed.map((e) => e.data.payment_id)).to.deep.equal([paid.body.payment.id]);
    });
  });
});
