/**
 * Layers 2 and 3 (DOMAIN §9): one engine per §2 contradiction and one per §3 temporal rule, each
 * wrapping the kernel's rule for that code, so a compile and a full scan can never disagree on
 * what was found. The kernel's rules arrive as a map (`FindingRules`), which keeps this file free
 * of the kernel's internals and makes wiring one line.
 *
 * Inputs are the intake views each rule's facts come from. A temporal rule also reads the
 * contradiction about the same facts (waiver sequence after waiver amounts, freshness after
 * variance …): a reviewer reads the two together, so its trace line says how many of its findings
 * sit on a draw the contradiction also flagged — and that read is what puts temporal rules on
 * layer 3.
 */
import {
  CONTRADICTION_CODES,
  TEMPORAL_CODES,
  type ContradictionCode,
  type Finding,
  type FindingCode,
  type TemporalCode,
} from '../findings.js';
import { fired, type Engine, type EvidenceName } from './engine.js';
import { findingEvidence, type DrawCompileInput, type DrawEvidence } from './evidence.js';

/** The kernel's per-code rule: the findings of one code for the scan input on `now`. */
export type FindingRule<S, N> = (input: S, now: N) => Finding[];
export type FindingRules<S, N> = Readonly<Record<FindingCode, FindingRule<S, N>>>;

type Name = EvidenceName<DrawEvidence>;

/** The intake views each contradiction's facts come from. */
const CONTRADICTION_INPUTS: Readonly<Record<ContradictionCode, readonly Name[]>> = {
  CONTRACT_SUM_MISMATCH: ['sov_integrity'],
  ROLL_FORWARD_MISMATCH: ['sov_integrity'],
  INSPECTION_VARIANCE: ['sov_integrity', 'document_inventory'],
  LIEN_WAIVER_MISMATCH: ['document_inventory', 'identity_registry'],
  DUPLICATE_OR_UNSUPPORTED_COST: ['document_inventory'],
  RETAINAGE_MISCALCULATED: ['sov_integrity'],
  STORED_MATERIALS_UNSUPPORTED: ['sov_integrity', 'document_inventory'],
};

/** Each temporal rule: its intake views and the contradiction about the same facts. */
const TEMPORAL_INPUTS: Readonly<
  Record<TemporalCode, { views: readonly Name[]; related: ContradictionCode }>
> = {
  // Builder's-risk coverage is what insures stored materials.
  INSURANCE_EXPIRY: {
    views: ['identity_registry', 'document_inventory'],
    related: 'STORED_MATERIALS_UNSUPPORTED',
  },
  WAIVER_SEQUENCE: { views: ['document_inventory'], related: 'LIEN_WAIVER_MISMATCH' },
  INSPECTION_FRESHNESS: { views: ['document_inventory'], related: 'INSPECTION_VARIANCE' },
  // A new lien on title is the claim a missing waiver failed to release.
  TITLE_DATE_DOWN: { views: ['document_inventory'], related: 'LIEN_WAIVER_MISMATCH' },
  CHANGE_ORDER_PRECEDENCE: { views: ['sov_integrity'], related: 'CONTRACT_SUM_MISMATCH' },
  PAY_PERIOD_SEQUENCE: { views: ['sov_integrity'], related: 'ROLL_FORWARD_MISMATCH' },
};

type DrawEngine<S, N> = Engine<DrawCompileInput<S, N>, DrawEvidence>;

export function contradictionEngines<S, N>(rules: FindingRules<S, N>): DrawEngine<S, N>[] {
  return CONTRADICTION_CODES.map((code) => ({
    name: code.toLowerCase(),
    inputs: CONTRADICTION_INPUTS[code],
    outputs: [findingEvidence(code)],
    run({ input }) {
      const found = rules[code](input.scan_input, input.now);
      return fired({ [findingEvidence(code)]: found }, summary(found));
    },
  }));
}

export function temporalEngines<S, N>(rules: FindingRules<S, N>): DrawEngine<S, N>[] {
  return TEMPORAL_CODES.map((code) => {
    const { views, related } = TEMPORAL_INPUTS[code];
    return {
      name: code.toLowerCase(),
      inputs: [...views, findingEvidence(related)],
      outputs: [findingEvidence(code)],
      run({ input, evidence }) {
        const found = rules[code](input.scan_input, input.now);
        const flaggedDraws = new Set((evidence[findingEvidence(related)] ?? []).map((f) => f.draw_id));
        const alongside = found.filter((f) => f.draw_id !== null && flaggedDraws.has(f.draw_id)).length;
        return fired(
          { [findingEvidence(code)]: found },
          `${summary(found)}; ${alongside} on a draw with ${related}`,
        );
      },
    };
  });
}

function summary(found: readonly Finding[]): string {
  const blocking = found.filter((f) => f.severity === 'BLOCKING').length;
  return `${found.length} finding(s), ${blocking} BLOCKING`;
}
