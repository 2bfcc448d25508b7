/**
 * Layer 4 `pral` (DOMAIN §6): the release level for this draw. It starts from the GC's own PRAL
 * (credit grade and behavioral state, computed by the credit capability) and only ever gets worse
 * with what this compile found: an exclusion is DENY (§6), and an open BLOCKING finding
 * attributed to the GC is the §5 trigger for PROBATION, which §6 maps to HOLD.
 */
import { fired, need, type Engine } from './engine.js';
import { PRAL_LEVELS, type DrawCompileInput, type DrawEvidence, type Pral } from './evidence.js';
import { ALL_FINDING_EVIDENCE, openFindingsForDraw } from './open-findings.js';

/** The worse of two levels ("the worse of the two columns wins", DOMAIN §6). */
export function worsePral(a: Pral, b: Pral): Pral {
  return PRAL_LEVELS.indexOf(a) >= PRAL_LEVELS.indexOf(b) ? a : b;
}

export const pralEngine: Engine<DrawCompileInput<unknown, unknown>, DrawEvidence> = {
  name: 'pral',
  inputs: ['identity_registry', ...ALL_FINDING_EVIDENCE],
  outputs: ['pral_verdict'],
  run({ input, evidence }) {
    const registry = need(evidence, 'identity_registry');
    const rationale = [`GC eligibility ${input.contractor.pral}`];
    let pral = input.contractor.pral;
    if (registry.excluded) {
      pral = worsePral(pral, 'DENY');
      rationale.push('GC has an active registry exclusion (DOMAIN §6: DENY)');
    }
    const gcBlocking = openFindingsForDraw(input, evidence).filter(
      (f) => f.severity === 'BLOCKING' && f.entity_id === registry.general_contractor,
    );
    if (gcBlocking.length > 0) {
      pral = worsePral(pral, 'HOLD');
      rationale.push(`${gcBlocking.length} open BLOCKING finding(s) on the GC (DOMAIN §5 PROBATION: HOLD)`);
    }
    const verdict = { pral, contractor_pral: input.contractor.pral, excluded: registry.excluded, rationale };
    return fired({ pral_verdict: verdict }, pral);
  },
};
