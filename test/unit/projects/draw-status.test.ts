import { expect } from 'chai';
import { percentComplete, retainageOn } from '../../../src/projects/index.js';
import {
  drawBody,
  History,
  invoiceBody,
  ORG_A,
  ORG_B,
  projectBody,
  signBody,
  waiverBody,
} from './fixtures.js';

function submittedDraw() {
  const h = new History();
  const project = h.run(ORG_A, { type: 'RegisterProject', body: projectBody() });
  const draw = h.run(ORG_A, { type: 'SubmitDraw', project_id: project, body: drawBody() });
  return { h, project, draw };
}

describe('draw status from governance events (documented in src/projects/events.ts)', () => {
  it('DrawCompiled moves SUBMITTED to COMPILED and records the compilation seq', () => {
    const { h, draw } = submittedDraw();
    h.governance(ORG_A, 'DrawCompiled', { draw_id: draw, draw_verdict: 'HOLD' });
    expect(h.state().draws[draw]).to.include({ status: 'COMPILED', compiled_seq: 3 });
  });

  it('PaymentPushed funds the draw with its amount, id, rail and the UTC date it was recorded', () => {
    const { h, draw } = submittedDraw();
    h.governance(ORG_A, 'DrawCompiled', { draw_id: draw });
    h.governance(ORG_A, 'PaymentPushed', {
      draw_id: draw,
      amount: 8_000_000,
      payment_id: 'PAY-abc',
      rail: 'Wire',
    });
    expect(h.state().draws[draw]).to.include({
      status: 'FUNDED',
      funded_amount: 8_000_000,
      funded_on: '2026-03-01', // recordedAt(4) in test/support/decider.ts
      payment_id: 'PAY-abc',
      payment_rail: 'Wire',
      compiled_seq: 3,
      last_fact_seq: 4,
    });
  });

  it('keeps the first payment: a second push does not change the funded figures', () => {
    const { h, draw } = submittedDraw();
    h.governance(ORG_A, 'PaymentPushed', { draw_id: draw, amount: 100, funded_on: '2026-03-09' });
    h.governance(ORG_A, 'PaymentPushed', { draw_id: draw, amount: 999 });
    h.governance(ORG_A, 'DrawRejected', { draw_id: draw });
    expect(h.state().draws[draw]).to.include({
      status: 'FUNDED',
      funded_amount: 100,
      funded_on: '2026-03-09',
    });
  });

  it('DrawRejected rejects an unfunded draw', () => {
    const { h, draw } = submittedDraw();
    h.governance(ORG_A, 'DrawRejected', { draw_id: draw });
    expect(h.state().draws[draw]!.status).to.equal('REJECTED');
  });

  it('ignores governance events recorded for another org or naming an unknown draw', () => {
    const { h, draw } = submittedDraw();
    h.governance(ORG_B, 'PaymentPushed', { draw_id: draw, amount: 1 });
    h.governance(ORG_A, 'PaymentPushed', { draw_id: 'DRW-nope', amount: 1 });
    h.governance(ORG_A, 'PaymentPushed', { amount: 1 });
    expect(h.state().draws[draw]).to.include({ status: 'SUBMITTED', funded_amount: null });
  });
});

describe('last_fact_seq (staleness of a compilation, SPEC §6 gate)', () => {
  it('moves on the draw and its project with signatures and documents naming the draw, not with compilation', () => {
    const { h, project, draw } = submittedDraw();
    h.governance(ORG_A, 'DrawCompiled', { draw_id: draw }); // seq 3
    expect(h.state().draws[draw]!.last_fact_seq).to.equal(2);
    h.run(ORG_A, { type: 'SignDraw', draw_id: draw, body: signBody('Architect') }); // seq 4
    h.run(ORG_A, { type: 'RecordDocument', project_id: project, body: waiverBody(draw) }); // seq 5
    expect(h.state().draws[draw]!.last_fact_seq).to.equal(5);
    h.run(ORG_A, { type: 'RecordDocument', project_id: project, body: invoiceBody() }); // seq 6, no draw named
    const s = h.state();
    expect(s.draws[draw]!.last_fact_seq).to.equal(5);
    expect(s.projects[project]!.last_fact_seq).to.equal(6);
  });
});

describe('pay-application arithmetic', () => {
  it('rounds H to two decimals and calls it 0 when nothing is scheduled', () => {
    expect(percentComplete(1, 3)).to.equal(33.33);
    expect(percentComplete(2, 3)).to.equal(66.67);
    expect(percentComplete(150, 100)).to.equal(150);
    expect(percentComplete(0, 0)).to.equal(0);
  });

  it('rounds retainage half up to the cent', () => {
    expect(retainageOn(5, 10)).to.equal(1); // 0.5 → 1
    expect(retainageOn(4, 10)).to.equal(0);
    expect(retainageOn(1_000_001, 7.5)).to.equal(75_000);
  });
});
