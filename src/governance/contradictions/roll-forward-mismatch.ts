/**
 * ROLL_FORWARD_MISMATCH (DOMAIN §2, BLOCKING): an application does not start where the last paid
 * one ended.
 *
 * Interpretations:
 * - "prior funded draw" = the latest FUNDED draw recorded before the examined draw (REJECTED
 *   draws never count). With none, every line's `previous` must be 0.
 * - "Σ funded" = Σ `funded_amount` of the FUNDED draws recorded before the examined draw, as of
 *   the scan — so a draw submitted while its predecessor was still unfunded is flagged until the
 *   predecessor is funded, and then the re-scan resolves it.
 * - Every active draw is examined (the figures do not change with time). Line mismatches give one
 *   finding per draw (subject `lines`); the certificates total another (subject
 *   `previous_certificates`). Exact to the cent: G703 figures carry forward, they are not estimates.
 * - Not curable by documents: a corrected application is needed.
 */
import type { Draw } from '../../projects/facts.js';
import type { FindingDraft } from '../findings.js';
import type { ScanEngine, ScanInput } from '../scan-input.js';
import {
  activeDraws,
  drawEvidence,
  drawsBefore,
  findingsOf,
  lineEvidence,
  previousFundedDraw,
} from '../scan-input.js';
import { sum, usd } from '../units.js';

export const rollForwardMismatch: ScanEngine = (input, now) =>
  findingsOf(
    input,
    now,
    activeDraws(input).flatMap((d) => [linesDraft(input, d), certificatesDraft(input, d)]),
  );

function linesDraft(input: ScanInput, draw: Draw): FindingDraft | null {
  const prior = previousFundedDraw(input, draw);
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
  const funded = drawsBefore(input, draw).filter((d) => d.status === 'FUNDED');
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
