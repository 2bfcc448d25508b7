/**
 * WAIVER_SEQUENCE (DOMAIN §3, WARNING): an unconditional waiver signed before the payment it
 * releases was funded, or its through date earlier than the previous period end.
 *
 * Interpretations:
 * - "the payment it releases" = the waiver's draw; "funded" = that draw's `funded_on`. A signed
 *   unconditional waiver of a draw not yet funded was signed before its funding, so it fires.
 *   Signing on the funding day is not "before".
 * - "the previous period end" = the `period_to` of the draw the waiver releases: that draw is the
 *   previous period from the application the waiver accompanies.
 * - Only the standing waiver per claimant and type counts (`currentWaivers`): a correctly dated
 *   replacement cures it on re-scan. Attributed to the claimant. Waivers of REJECTED draws are
 *   not examined.
 */
import type { Draw, LienWaiver } from '../../projects/facts.js';
import type { FindingDraft } from '../findings.js';
import { currentWaivers } from '../contradictions/lien-waiver-mismatch.js';
import type { ScanEngine, ScanInput } from '../scan-input.js';
import { activeDraws, documentEvidence, drawEvidence, findingsOf } from '../scan-input.js';

export const waiverSequence: ScanEngine = (input, now) =>
  findingsOf(
    input,
    now,
    activeDraws(input).flatMap((d) => drawDrafts(input, d)),
  );

function drawDrafts(input: ScanInput, draw: Draw): FindingDraft[] {
  const drafts: FindingDraft[] = [];
  for (const w of currentWaivers(input, draw)) {
    if (w.waiver_type !== 'UNCONDITIONAL_PROGRESS' && w.waiver_type !== 'UNCONDITIONAL_FINAL') continue;
    if (w.signed_on !== null && (draw.funded_on === null || w.signed_on < draw.funded_on)) {
      const funded = draw.funded_on === null ? 'is not yet funded' : `was funded ${draw.funded_on}`;
      drafts.push(
        draft(
          draw,
          w,
          'signed_before_funding',
          `Unconditional waiver ${w.id} signed before payment`,
          `Signed ${w.signed_on}; application ${draw.application_no} ${funded}.`,
        ),
      );
    }
    if (w.through_date < draw.period_to) {
      drafts.push(
        draft(
          draw,
          w,
          'through_date',
          `Unconditional waiver ${w.id} does not reach the period end`,
          `Through ${w.through_date}, before application ${draw.application_no}'s period end ${draw.period_to}.`,
        ),
      );
    }
  }
  return drafts;
}

function draft(draw: Draw, w: LienWaiver, aspect: string, title: string, detail: string): FindingDraft {
  return {
    code: 'WAIVER_SEQUENCE',
    severity: 'WARNING',
    draw_id: draw.id,
    entity_id: w.claimant,
    subject: `${w.id}:${aspect}`,
    title,
    detail,
    evidence: [drawEvidence(draw), documentEvidence(w)],
    curable_by_documents: true,
  };
}
