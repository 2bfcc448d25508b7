/**
 * Layer 5 `adequacy` (DOMAIN §4): the capital adequacy vector and the in-balance test, computed
 * by the kernel's assessor over the project's open findings (adequacy is a project measure, the
 * same figure `POST /api/adequacy` gives). It reads `pral_verdict` for the registry exclusion,
 * which §4 turns into a compliance score of 0.
 */
import type { Finding } from '../findings.js';
import { fired, need, type Engine } from './engine.js';
import type { AdequacyVector, DrawCompileInput, DrawEvidence, PralVerdict } from './evidence.js';
import { ALL_FINDING_EVIDENCE, openProjectFindings } from './open-findings.js';

export interface AdequacyAssessment {
  adequacy: AdequacyVector;
  in_balance: boolean;
}

/** The kernel's adequacy, adapted to what the compile knows at layer 5. */
export type AdequacyAssessor<S, N> = (
  open: readonly Finding[],
  pral: PralVerdict,
  input: DrawCompileInput<S, N>,
) => AdequacyAssessment;

export function adequacyEngine<S, N>(
  assess: AdequacyAssessor<S, N>,
): Engine<DrawCompileInput<S, N>, DrawEvidence> {
  return {
    name: 'adequacy',
    inputs: ['pral_verdict', ...ALL_FINDING_EVIDENCE],
    outputs: ['adequacy_vector', 'in_balance'],
    run({ input, evidence }) {
      const { adequacy, in_balance } = assess(
        openProjectFindings(input, evidence),
        need(evidence, 'pral_verdict'),
        input,
      );
      const detail = `overall ${adequacy.overall.score} (${adequacy.overall.grade}), ${in_balance ? 'in balance' : 'out of balance'}`;
      return fired({ adequacy_vector: adequacy, in_balance }, detail);
    },
  };
}
