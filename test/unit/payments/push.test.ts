import { expect } from 'chai';
import {
  checkRail,
  decidePaymentPush,
  paymentView,
  type PaymentPushRequest,
} from '../../../src/payments/index.js';
import { CONSTRUCTION_PROFILE, SUPPLY_CHAIN_PROFILE } from '../../../src/projects/profiles.js';
import { passingContext } from './fixtures.js';

function request(overrides: Partial<PaymentPushRequest> = {}): PaymentPushRequest {
  return {
    profile: CONSTRUCTION_PROFILE,
    gates: passingContext(),
    rail: 'Wire',
    payment_id: 'PAY-paypaypaypaypaypa',
    message_id: 'PAY-paypaypaypaypaypa',
    today: '2026-03-06',
    ...overrides,
  };
}

describe('payment push decision (SPEC §6)', () => {
  it('yields the PaymentPushed payload for the requested amount when every gate is met', () => {
    const decision = decidePaymentPush(request());
    expect(decision.ok).to.equal(true);
    if (!decision.ok) return;
    expect(decision.payment).to.deep.equal({
      payment_id: 'PAY-paypaypaypaypaypa',
      draw_id: 'DRW-secondsecondseco',
      project_id: 'prj_harborloftsaaaaa',
      amount: 144_000_00,
      rail: 'Wire',
      message_id: 'PAY-paypaypaypaypaypa',
      funded_on: '2026-03-06',
    });
    expect(paymentView(decision.payment)).to.deep.equal({
      id: 'PAY-paypaypaypaypaypa',
      draw_id: 'DRW-secondsecondseco',
      amount: 144_000_00,
      rail: 'Wire',
      status: 'SUBMITTED',
      instruction: { format: 'pain.001', message_id: 'PAY-paypaypaypaypaypa' },
    });
  });

  it('is GATE_UNMET with every gate’s result when one gate fails', () => {
    const decision = decidePaymentPush(request({ gates: passingContext({ critical_rails: ['SAFETY'] }) }));
    expect(decision).to.deep.include({ ok: false, code: 'GATE_UNMET', rail: 'Wire' });
    if (decision.ok || decision.code !== 'GATE_UNMET') return;
    expect(decision.gates).to.have.length(6);
    expect(decision.gates.filter((g) => !g.passed).map((g) => g.gate)).to.deep.equal(['no_critical_rail']);
  });

  it('is a CONFLICT for a draw already funded or rejected, before any gate is evaluated', () => {
    const ctx = passingContext();
    const funded = decidePaymentPush(
      request({
        gates: { ...ctx, draw: { ...ctx.draw, status: 'FUNDED', payment_id: 'PAY-earlierearlierea' } },
      }),
    );
    expect(funded).to.deep.equal({
      ok: false,
      code: 'CONFLICT',
      message: 'DRW-secondsecondseco is already funded (PAY-earlierearlierea)',
    });
    const rejected = decidePaymentPush(
      request({ gates: { ...ctx, draw: { ...ctx.draw, status: 'REJECTED' } } }),
    );
    expect(rejected).to.include({ ok: false, code: 'CONFLICT' });
  });

  it('refuses a rail outside the profile’s payment rails', () => {
    expect(decidePaymentPush(request({ rail: 'SWIFT' }))).to.deep.equal({
      ok: false,
      code: 'RAIL_NOT_ALLOWED',
      rail: 'SWIFT',
      allowed: ['ACH', 'Wire', 'RTP'],
      message: 'rail "SWIFT" is not available to the construction profile (allowed: ACH, Wire, RTP)',
    });
    expect(checkRail(CONSTRUCTION_PROFILE, 'wire')).to.include({ ok: false, code: 'RAIL_NOT_ALLOWED' });
  });

  it('uses the profile’s first rail when none is named', () => {
    expect(checkRail(CONSTRUCTION_PROFILE, undefined)).to.deep.equal({ ok: true, rail: 'ACH' });
    expect(checkRail(SUPPLY_CHAIN_PROFILE, 'SWIFT')).to.deep.equal({ ok: true, rail: 'SWIFT' });
  });
});
