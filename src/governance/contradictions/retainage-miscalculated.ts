/**
 * RETAINAGE_MISCALCULATED (DOMAIN §2): retainage withheld ≠ retainage % × G within $1 → WARNING;
 * retainage released before 95 % complete → BLOCKING.
 *
 * Interpretations:
 * - Arithmetic (WARNING): |withheld − round(draw retainage % × Σ G / 100)| > $1.00, using the
 *   rate the application states (`retainage_expected`); exactly $1.00 off passes.
 * - Release (BLOCKING), judged on Σ G / Σ C of the draw being below 95 % (94.99 fires, 95.00
 *   does not): either the application states a rate below the project's contractual
 *   `retainage_pct`, or it withholds more than $1 less in total than the previous funded draw
 *   did — cumulative retainage can only go down by paying it out.
 * - Neither is curable by documents: the application's figures must be corrected.
 */
import type { Draw } from '../../projects/facts.js';
import type { FindingDraft } from '../findings.js';
import { RETAINAGE_RELEASE_MIN_PCT, RETAINAGE_TOLERANCE_CENTS } from '../constants.js';
import type { ScanEngine, ScanInput } from '../scan-input.js';
import {
  activeDraws,
  drawEvidence,
  findingsOf,
  isCompleteAtLeast,
  previousFundedDraw,
} from '../scan-input.js';
import { usd } from '../units.js';

export const retainageMiscalculated: ScanEngine = (input, now) =>
  findingsOf(
    input,
    now,
    activeDraws(input).flatMap((d) => [arithmeticDraft(input, d), releaseDraft(input, d)]),
  );

function arithmeticDraft(input: ScanInput, draw: Draw): FindingDraft | null {
  const off = draw.retainage_withheld - draw.retainage_expected;
  if (Math.abs(off) <= RETAINAGE_TOLERANCE_CENTS) return null;
  return {
    code: 'RETAINAGE_MISCALCULATED',
    severity: 'WARNING',
    draw_id: draw.id,
    entity_id: input.project.general_contractor,
    subject: 'arithmetic',
    title: `Application ${draw.application_no}: retainage withheld is miscalculated`,
    detail:
      `Withheld ${usd(draw.retainage_withheld)} vs ${draw.retainage_pct}% of ${usd(draw.summary.total_completed_and_stored)} ` +
      `= ${usd(draw.retainage_expected)} (off by ${usd(off)}).`,
    evidence: [drawEvidence(draw)],
    curable_by_documents: false,
  };
}

function releaseDraft(input: ScanInput, draw: Draw): FindingDraft | null {
  if (isCompleteAtLeast(draw, RETAINAGE_RELEASE_MIN_PCT)) return null;
  const contractual = input.project.retainage_pct;
  const prior = previousFundedDraw(input, draw);
  const reasons: string[] = [];
  if (draw.retainage_pct < contractual) {
    reasons.push(`rate ${draw.retainage_pct}% below the contractual ${contractual}%`);
  }
  if (prior && draw.retainage_withheld < prior.retainage_withheld - RETAINAGE_TOLERANCE_CENTS) {
    reasons.push(
      `withholds ${usd(draw.retainage_withheld)}, less than the ${usd(prior.retainage_withheld)} held at application ${prior.application_no}`,
    );
  }
  if (reasons.length === 0) return null;
  return {
    code: 'RETAINAGE_MISCALCULATED',
    severity: 'BLOCKING',
    draw_id: draw.id,
    entity_id: input.project.general_contractor,
    subject: 'release',
    title: `Application ${draw.application_no}: retainage released before ${RETAINAGE_RELEASE_MIN_PCT}% complete`,
    detail: `${reasons.join('; ')}.`,
    evidence: [drawEvidence(draw), ...(prior ? [drawEvidence(prior)] : [])],
    curable_by_documents: false,
  };
}
