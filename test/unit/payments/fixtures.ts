/**
 * A construction draw that passes every gate: application 2 (claimants GC + SUB) compiled
 * FUNDABLE at the head, three signatures, conditional waivers for draw 2 and
 * unconditional ones for funded draw 1, all executed and notarized, in balance, no CRITICAL rail.
 */
import type { Document, Draw, Signature } from '../../../src/projects/facts.js';
import type { GateContext } from '../../../src/payments/index.js';
import { aDraw, aFundedFirstDraw, aProject, aWaiver, GC, SUB } from '../compile/fixtures.js';

export const DRAW_2 = 'DRW-secondsecondseco';
export const DRAW_1 = 'DRW-firstfirstfirstf';

const signed = (role: Signature['role'], seq: number): Signature => ({
  role,
  signer_name: `${role} signer`,
  signed_on: '2026-03-04',
  recorded_at: '2026-03-04T00:00:00.000Z',
  recorded_seq: seq,
});

export function waivers(): Document[] {
  return [
    aWaiver('WAIV-condgcgcgcgcgcgc', GC, DRAW_2, 'CONDITIONAL_PROGRESS'),
    aWaiver('WAIV-condsubsubsubsub', SUB, DRAW_2, 'CONDITIONAL_PROGRESS'),
    aWaiver('WAIV-uncogcgcgcgcgcgc', GC, DRAW_1, 'UNCONDITIONAL_PROGRESS'),
    aWaiver('WAIV-uncosubsubsubsub', SUB, DRAW_1, 'UNCONDITIONAL_PROGRESS'),
  ];
}

export function passingContext(overrides: Partial<GateContext> = {}): GateContext {
  const draw: Draw = aDraw({
    signatures: [signed('Contractor', 12), signed('Architect', 13), signed('Lender', 14)],
  });
  const documents = waivers();
  return {
    project: aProject(),
    draw,
    draws: [aFundedFirstDraw(), draw],
    documents,
    compilation: {
      draw_verdict: 'FUNDABLE',
      reasons: [],
      finding_codes: [],
      pral: 'RELEASE',
      pral_rationale: ['GC eligibility RELEASE'],
    },
    reviewed: { seq: 25, draw_verdict: 'FUNDABLE' },
    accepted_codes: null,
    in_balance: true,
    rail: 'ACH',
    notarized_document_ids: new Set(documents.map((d) => d.id)),
    critical_rails: [],
    no_evidence_rails: [],
    ...overrides,
  };
}
