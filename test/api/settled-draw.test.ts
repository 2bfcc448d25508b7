import { expect } from 'chai';
import { startJourney, type DrawJourney } from '../support/draw-journey.js';

/**
 * A FUNDED or REJECTED draw has left its lifecycle (DOMAIN §1: SUBMITTED → COMPILED → FUNDED, or
 * REJECTED): a decision about it answers 409 CONFLICT problem+json and records nothing, as
 * rejecting and accepting one already did (SPEC §6).
 */
describe('a settled draw (FUNDED or REJECTED) can no longer be decided', function () {
  this.timeout(60_000);
  let j: DrawJourney;

  afterEach(async () => {
    await j.svc.close();
  });

  const head = () => j.svc.composed.deps.ledger.head;

  async function expectConflict(path: string, body: unknown, detail: RegExp): Promise<void> {
    const before = head();
    const res = await j.post(path, body);
    expect(res.status, JSON.stringify(res.body)).to.equal(409);
    expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(res.body.code).to.equal('CONFLICT');
    expect(res.body.detail).to.match(detail);
    expect(head()).to.deep.equal(before);
  }

  async function funded(): Promise<void> {
    j = await startJourney();
    await j.readyToPay();
    const paid = await j.post('/api/payment-push', { draw_id: j.drawId });
    expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
  }

  async function rejectedDraw(): Promise<void> {
    j = await startJourney();
    await j.fixDocuments();
    const rejected = await j.post(`/api/draws/${j.drawId}/reject`, { reasons: ['borrower withdrew'] });
    expect(rejected.status, JSON.stringify(rejected.body)).to.equal(201);
  }

  describe('simulate (DOMAIN §10: funding it now is no longer a choice)', () => {
    it('a FUNDED draw: 409, no DrawSimulated recommending to fund it a second time', async () => {
      await funded();
      await expectConflict(
        '/api/simulate',
        { action: 'simulate_draw', draw_id: j.drawId },
        /already funded.*nothing to simulate/,
      );
    });

    it('a REJECTED draw: 409, nothing recorded', async () => {
      await rejectedDraw();
      await expectConflict(
        '/api/simulate',
        { action: 'simulate_draw', draw_id: j.drawId },
        /already rejected.*nothing to simulate/,
      );
    });
  });

  describe('compile for draw (DOMAIN §9: a verdict on funding it)', () => {
    const compileBody = () => ({ action: 'compile_for_draw', project_id: j.projectId, draw_id: j.drawId });

    it('a FUNDED draw named: 409, no DrawCompiled reading FUNDABLE / READY beside the payment', async () => {
      await funded();
      await expectConflict('/api/dependency-graph', compileBody(), /already funded.*nothing to compile/);
    });

    it('a REJECTED draw named: 409, nothing recorded', async () => {
      await rejectedDraw();
      await expectConflict('/api/dependency-graph', compileBody(), /already rejected.*nothing to compile/);
    });

    it('no draw named and none undecided: 404 as before, nothing recorded', async () => {
      await funded();
      const before = head();
      const res = await j.post('/api/dependency-graph', {
        action: 'compile_for_draw',
        project_id: j.projectId,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(404);
      expect(head()).to.deep.equal(before);
    });
  });
});
