import { expect } from 'chai';
import type { IssuedKey } from '../../src/orgs/keys.js';
import type { Plumbline as PlumblineClient, PlumblineError } from '../../src/sdk/index.js';
import { D } from '../support/api-fixtures.js';
import { startJourney, type DrawJourney } from '../support/draw-journey.js';
import { listen, loadBuiltSdk, type Listening, type Sdk } from './harness.js';

/**
 * The SDK's lender decisions on a draw (issue 14): `acceptDraw` (scope `draws:approve`) accepts a
 * FUNDABLE_WITH_CONDITIONS draw's open conditions with a reason, `rejectDraw` ends a draw's path to
 * payment; refusals arrive as PlumblineError with the SPEC §2 code.
 */
describe('SDK draw decisions: acceptDraw and rejectDraw (draws:approve)', function () {
  this.timeout(60_000);
  let sdk: Sdk;
  let j: DrawJourney;
  let server: Listening;
  const clientFor = (key: IssuedKey): PlumblineClient =>
    new sdk.Plumbline({
      baseUrl: server.baseUrl,
      apiKey: key.key,
      signingSecret: key.signing_secret,
      now: () => j.svc.clock.now(),
    });
  const failure = async (call: () => Promise<unknown>): Promise<PlumblineError> => {
    try {
      await call();
    } catch (error) {
      expect(error).to.be.instanceOf(sdk.PlumblineError);
      return error as PlumblineError;
    }
    throw new Error('expected the call to fail');
  };

  beforeEach(async () => {
    sdk = await loadBuiltSdk();
    j = await startJourney();
    server = await listen(j.svc.app);
    // A conditional waiver $5,000 short of the request: FUNDABLE_WITH_CONDITIONS (WARNING).
    const waiver = await j.fixDocuments({ waiverAmount: D(130_000) });
    const compiled = await j.compile();
    expect(compiled.body.compilation.draw_verdict).to.equal('FUNDABLE_WITH_CONDITIONS');
    await j.signAll();
    await j.notarize(waiver);
  });
  afterEach(async () => {
    await server.close();
    await j.svc.close();
  });

  it('accepts the open conditions with a draws:approve key, and the draw then pays line 8', async () => {
    const approver = clientFor(await j.svc.key('First Builders Bank', ['draws:approve']));
    const result = await approver.acceptDraw(j.drawId, 'waiver shortfall cured at closing');
    expect(result.acceptance).to.include({
      draw_id: j.drawId,
      draw_verdict: 'FUNDABLE_WITH_CONDITIONS',
      fundable_amount: D(135_000),
      reason: 'waiver shortfall cured at closing',
      accepted_on: '2026-06-03',
    });
    expect(result.acceptance.id).to.match(/^ACC-/);
    expect(result.acceptance.accepted_codes).to.deep.equal(['LIEN_WAIVER_MISMATCH']);
    expect(result.provenance.ledger.seq).to.equal(await j.svc.head());
    const verdict = await clientFor(j.lender).auditVerify(result.provenance.sha256);
    expect(verdict.verdict).to.equal('AUTHENTIC');
    const paid = await clientFor(j.lender).pushPayment(j.drawId);
    expect(paid.payment.amount).to.equal(D(135_000));
  });

  it('refuses acceptance without the draws:approve scope (403 FORBIDDEN), changing nothing', async () => {
    const before = await j.svc.head();
    const error = await failure(() => clientFor(j.lender).acceptDraw(j.drawId, 'no scope'));
    expect([error.status, error.code]).to.deep.equal([403, 'FORBIDDEN']);
    expect(await j.svc.head()).to.equal(before);
  });

  it('rejects a draw with its reasons; a second rejection and a push are 409 CONFLICT', async () => {
    const lender = clientFor(j.lender);
    const result = await lender.rejectDraw(j.drawId, ['borrower withdrew the application']);
    expect(result.rejection).to.include({
      draw_id: j.drawId,
      project_id: j.projectId,
      rejected_on: '2026-06-03',
    });
    expect(result.rejection.id).to.match(/^REJ-/);
    expect(result.rejection.reasons).to.deep.equal(['borrower withdrew the application']);
    expect((await lender.getDraw(j.drawId)).status).to.equal('REJECTED');
    const twice = await failure(() => lender.rejectDraw(j.drawId, ['twice']));
    expect([twice.status, twice.code]).to.deep.equal([409, 'CONFLICT']);
    const push = await failure(() => lender.pushPayment(j.drawId));
    expect([push.status, push.code]).to.deep.equal([409, 'CONFLICT']);
  });
});
