/**
 * ROLL_FORWARD_MISMATCH (DOMAIN §2, BLOCKING): an application does not start where the last paid
 * one ended.
 *
 * Interpretations:
 * - The FUNDED draws an application must account for (`fundedBefore`): for a FUNDED draw, those
 *   recorded before it (a paid draw is judged as it stood when paid); for one not yet paid, every
 *   FUNDED draw of the project — a later application paid first already paid for the work this
 *   one claims from zero, so paying it too would pay that work twice. REJECTED draws never count.
 * - "prior funded draw" = the latest (by recording) of those FUNDED draws. With none, every line's
 *   `previous` must be 0.
 * - "Σ funded" = Σ `funded_amount` of those FUNDED draws, as of the scan — so a draw submitted
 *   while its predecessor was still unfunded is flagged until the predecessor is funded, and then
 *   the re-scan resolves it.
 * - Every active draw is examined (the figures do not change with time). Line mismatches give one
 *   finding per draw (subject `lines`); the certificates total another (subject
 *   `previous_certificates`). Exact to the cent: G703 figures carry forward, they are not estimates.
 * - Not curable by documents: a corrected application is needed.
 */
import type { Draw } from '../../projects/facts.js';
import type { FindingDraft } from '../findings.js';
import type { ScanEngine, ScanInput } from '../scan-input.js';
import { activeDraws, drawEvidence, drawsBefore, findingsOf, lineEvidence } from '../scan-input.js';
import { sum, usd } from '../units.js';

export const rollForwardMismatch: ScanEngine = (input, now) =>
  findingsOf(
    input,
    now,
    activeDraws(input).flatMap((d) => [linesDraft(input, d), certificatesDraft(input, d)]),
  );

/** The FUNDED draws the examined draw must start from (see the interpretations above), oldest first. */
function fundedBefore(input: ScanInput, draw: Draw): Draw[] {
  const candidates =
    draw.status === 'FUNDED' ? drawsBefore(input, draw) : activeDraws(input).filter((d) => d.id !== draw.id);
  return candidates.filter((d) => d.status === 'FUNDED');
}

function linesDraft(input: ScanInput, draw: Draw): FindingDraft | null {
  const prior = fundedBefore(input, draw).at(-1);
  const priorG = new Map((prior?.lines ?? []).map((l) => [l.line, l.completed_and_stored]));
  const wrong = draw.lines.filter((l) => l.previous !== (priorG.get(l.line) ?? 0));
  if (wrong.length === 0) return null;
  const source = prior ? `application ${prior.application_no}'s D+E+F` : 'no prior funded draw (0)';
  return {
    code: 'ROLL_FORWARD_MISMATCH',
    severity: 'BLOCKING',
    draw_id: draw.id,
    entity_id: input.project.general_contractor,
    subject: 'lines',
    title: `Application ${draw.application_no}: previous work does not roll forward`,
    detail: `${wrong
      .map((l) => `line ${l.line}: previous ${usd(l.previous)} ≠ ${usd(priorG.get(l.line) ?? 0)}`)
      .join('; ')} (expected ${source}).`,
    evidence: [
      drawEvidence(draw),
      ...(prior ? [drawEvidence(prior)] : []),
      ...wrong.map((l) => lineEvidence(l.line)),
    ],
    curable_by_documents: false,
  };
}

function certificatesDraft(input: ScanInput, draw: Draw): FindingDraft | null {
  const funded = fundedBefore(input, draw);
  const total = sum(funded.map((d) => d.funded_amount ?? 0));
  if (draw.previous_certificates_total === total) return null;
  return {
    code: 'ROLL_FORWARD_MISMATCH',
    severity: 'BLOCKING',
    draw_id: draw.id,
    entity_id: input.project.general_contractor,
    subject: 'previous_certificates',
    title: `Application ${draw.application_no}: previous certificates do not match funded draws`,
    detail: `Previous certificates ${usd(draw.previous_certificates_total)} ≠ Σ funded ${usd(total)}.`,
    evidence: [drawEvidence(draw), ...funded.map(drawEvidence)],
    curable_by_documents: false,
  };
}
