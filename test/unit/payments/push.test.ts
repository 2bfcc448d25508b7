import { expect } from 'chai';
import {
  amountToPay,
  checkRail,
  dutiesAt,
  instructionOf,
  paymentView,
  type PaymentPushedPayload,
} from '../../../src/payments/index.js';
import type { GovernanceHead } from '../../../src/governance/head.js';
import { CONSTRUCTION_PROFILE, SUPPLY_CHAIN_PROFILE } from '../../../src/projects/profiles.js';
import { aDraw } from '../compile/fixtures.js';

const payment: PaymentPushedPayload = {
  payment_id: 'PAY-paypaypaypaypaypa',
  draw_id: 'DRW-secondsecondseco',
  project_id: 'prj_harborloftsaaaaa',
  amount: 144_000_00,
  rail: 'Wire',
  message_id: 'MSG-paypaypaypaypaypa',
  funded_on: '2026-03-06',
  compilation_id: 'CMP-cmpcmpcmpcmpcmpc',
  draw_verdict: 'FUNDABLE',
  instruction: {
    created_at: '2026-03-06T15:00:00.000Z',
    requested_execution_date: '2026-03-06',
    debtor: { name: 'First Builders Bank', account: 'org_bank', agent: null },
    creditor: { name: 'Keystone Builders, Inc.', account: 'ent_gc', agent: null },
    currency: 'USD',
    end_to_end_id: 'DRW-secondsecondseco',
    remittance_info: 'Draw 2 DRW-secondsecondseco on Harbor Lofts',
  },
};

describe('payment push (SPEC §6)', () => {
  it('answers the SPEC §6 payment view of a recorded payment', () => {
    expect(paymentView(payment)).to.deep.equal({
      id: 'PAY-paypaypaypaypaypa',
      draw_id: 'DRW-secondsecondseco',
      amount: 144_000_00,
      rail: 'Wire',
      status: 'SUBMITTED',
      instruction: { format: 'pain.001', message_id: 'MSG-paypaypaypaypaypa' },
    });
  });

  it('regenerates the same pain.001 bytes from the recorded payment, every time', () => {
    const xml = instructionOf(payment);
    expect(instructionOf(structuredClone(payment))).to.equal(xml);
    expect(xml).to.include('<MsgId>MSG-paypaypaypaypaypa</MsgId>');
    expect(xml).to.include('<CreDtTm>2026-03-06T15:00:00.000Z</CreDtTm>');
    expect(xml).to.include('<InstdAmt Ccy="USD">144000.00</InstdAmt>');
  });

  it('pays G702 line 8, or the reduced amount — never the requested figure', () => {
    const draw = aDraw();
    const lying = { ...draw, requested_amount: draw.summary.current_payment_due + 5_000_00 };
    expect(amountToPay(lying, 'FUNDABLE', lying.requested_amount)).to.equal(draw.summary.current_payment_due);
    expect(amountToPay(lying, 'FUNDABLE_WITH_CONDITIONS', 0)).to.equal(draw.summary.current_payment_due);
    expect(amountToPay(lying, 'REDUCED', 99_000_00)).to.equal(99_000_00);
  });

  it('refuses a rail outside the profile’s payment rails', () => {
    expect(checkRail(CONSTRUCTION_PROFILE, 'SWIFT')).to.deep.equal({
      ok: false,
      code: 'RAIL_NOT_ALLOWED',
      rail: 'SWIFT',
      allowed: ['ACH', 'Wire', 'RTP', 'ESCROW'],
      message: 'rail "SWIFT" is not available to the construction profile (allowed: ACH, Wire, RTP, ESCROW)',
    });
    expect(checkRail(CONSTRUCTION_PROFILE, 'wire')).to.include({ ok: false, code: 'RAIL_NOT_ALLOWED' });
  });

  it('uses the profile’s first rail when none is named', () => {
    expect(checkRail(CONSTRUCTION_PROFILE, undefined)).to.deep.equal({ ok: true, rail: 'ACH' });
    expect(checkRail(SUPPLY_CHAIN_PROFILE, 'SWIFT')).to.deep.equal({ ok: true, rail: 'SWIFT' });
  });

  it('asks the head only about the project’s documents, never for every notarized document', () => {
    // A head whose notarizations index answers single look-ups but refuses to be listed: a push
    // costs what its project holds, not what the ledger ever notarized (issue 19).
    const byDocument: Record<string, string[]> = { 'WAIV-a': ['NOT-1'], 'WAIV-other': ['NOT-2'] };
    const notarizations_by_document = new Proxy(byDocument, {
      ownKeys: () => expect.fail('listed every notarized document'),
    });
    const head = {
      governance: { notarizations_by_document, notarizations: {} },
      signers: { signers: {} },
      projects: { document_signatures: {} },
      keyRevoked: () => false,
      revealAccount: () => null,
    } as unknown as GovernanceHead;
    const duties = dutiesAt(
      head,
      [{ id: 'WAIV-a' }, { id: 'WAIV-b' }],
      { debtor: null, creditor: null },
      '2026-03-06',
    );
    expect([...duties.notarized_document_ids]).to.deep.equal(['WAIV-a']);
    expect(duties.notarial_acts).to.deep.equal({});
  });
});
