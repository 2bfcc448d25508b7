/**
 * LIEN_WAIVER_MISMATCH (DOMAIN §2): the waivers do not match the money.
 * BLOCKING: the unconditional waiver for the previous funded draw is missing or for less than paid.
 * WARNING: a conditional waiver's amount ≠ the amount requested for its claimant; a waiver with
 * exceptions; a final waiver before substantial completion.
 *
 * Interpretations:
 * - A later waiver of the same claimant, draw and waiver type supersedes the earlier one
 *   (`currentWaivers`), so delivering a corrected waiver cures the finding on re-scan.
 * - BLOCKING: for each active draw D with a previous funded draw P, the GC (who was paid P's
 *   `funded_amount`) must have delivered an executed unconditional waiver (progress or final) for
 *   P; the latest one counts and its amount must be ≥ the amount funded. Only the GC's payment is a
 *   fact (sub-tier payments are not recorded), so only the GC's waiver is required.
 * - "amount requested for that claimant": the GC → the draw's `requested_amount`; a subcontractor
 *   of SOV lines → Σ (E + F) on its lines, net of the draw's retainage % (rounded once);
 *   anyone else → Σ of its invoices listed on the draw. Exact to the cent.
 * - Substantial completion: a project milestone named "Substantial Completion" completed on or
 *   before the waiver's signing (through date when unsigned), or the waiver's draw being at least
 *   `SUBSTANTIAL_COMPLETION_PCT` complete. Not curable by documents (only progress removes it).
 * - Waivers of REJECTED draws are not examined.
 */
import type { Draw, LienWaiver } from '../../projects/facts.js';
import type { FindingDraft } from '../findings.js';
import { SUBSTANTIAL_COMPLETION_MILESTONE, SUBSTANTIAL_COMPLETION_PCT } from '../constants.js';
import type { ScanEngine, ScanInput } from '../scan-input.js';
import {
  activeDraws,
  documentEvidence,
  documentsOfType,
  drawEvidence,
  findingsOf,
  isCompleteAtLeast,
  previousFundedDraw,
} from '../scan-input.js';
import { sum, usd } from '../units.js';

const UNCONDITIONAL = new Set(['UNCONDITIONAL_PROGRESS', 'UNCONDITIONAL_FINAL']);
const FINAL = new Set(['CONDITIONAL_FINAL', 'UNCONDITIONAL_FINAL']);

export const lienWaiverMismatch: ScanEngine = (input, now) => {
  const drafts: (FindingDraft | null)[] = [];
  for (const draw of activeDraws(input)) {
    drafts.push(previousUnconditionalDraft(input, draw));
    for (const w of currentWaivers(input, draw)) {
      drafts.push(
        conditionalAmountDraft(input, draw, w),
        exceptionsDraft(draw, w),
        finalDraft(input, draw, w),
      );
    }
  }
  return findingsOf(input, now, drafts);
};

/** The waivers for `draw` that stand: the latest per claimant and waiver type. */
export function currentWaivers(input: ScanInput, draw: Draw): LienWaiver[] {
  const latest = new Map<string, LienWaiver>();
  for (const w of documentsOfType(input, 'LIEN_WAIVER')) {
    if (w.draw_id === draw.id) latest.set(`${w.claimant}|${w.waiver_type}`, w);
  }
  return [...latest.values()].sort((a, b) => a.recorded_seq - b.recorded_seq);
}

function previousUnconditionalDraft(input: ScanInput, draw: Draw): FindingDraft | null {
  const prior = previousFundedDraw(input, draw);
  if (prior === undefined) return null;
  const gc = input.project.general_contractor;
  const paid = prior.funded_amount ?? 0;
  const waiver = currentWaivers(input, prior)
    .filter((w) => w.claimant === gc && UNCONDITIONAL.has(w.waiver_type) && w.executed)
    .at(-1);
  if (waiver !== undefined && waiver.amount >= paid) return null;
  return {
    code: 'LIEN_WAIVER_MISMATCH',
    severity: 'BLOCKING',
    draw_id: draw.id,
    entity_id: gc,
    subject: 'previous_unconditional',
    title: `Application ${draw.application_no}: unconditional waiver for the previous payment ${waiver ? 'short' : 'missing'}`,
    detail: waiver
      ? `Unconditional waiver ${waiver.id} releases ${usd(waiver.amount)}, less than the ${usd(paid)} funded for application ${prior.application_no}.`
      : `No executed unconditional waiver from the general contractor for application ${prior.application_no} (funded ${usd(paid)}).`,
    evidence: [drawEvidence(draw), drawEvidence(prior), ...(waiver ? [documentEvidence(waiver)] : [])],
    curable_by_documents: true,
  };
}

/** The amount the draw requests for `claimant` (see the module comment). */
export function requestedFor(input: ScanInput, draw: Draw, claimant: string): number {
  if (claimant === input.project.general_contractor) return draw.requested_amount;
  const theirLines = new Set(
    input.project.sov.filter((l) => l.subcontractor === claimant).map((l) => l.line),
  );
  if (theirLines.size > 0) {
    const gross = sum(
      draw.lines.filter((l) => theirLines.has(l.line)).map((l) => l.this_period + l.stored_materials),
    );
    return Math.round((gross * (100 - draw.retainage_pct)) / 100);
  }
  const invoices = new Set(draw.invoices);
  return sum(
    documentsOfType(input, 'INVOICE')
      .filter((i) => invoices.has(i.id) && i.vendor === claimant)
      .map((i) => i.amount),
  );
}

function conditionalAmountDraft(input: ScanInput, draw: Draw, w: LienWaiver): FindingDraft | null {
  if (UNCONDITIONAL.has(w.waiver_type)) return null;
  const requested = requestedFor(input, draw, w.claimant);
  if (w.amount === requested) return null;
  return warning(
    draw,
    w,
    'amount',
    `Conditional waiver ${w.id} amount differs from the amount requested`,
    `Waiver amount ${usd(w.amount)} ≠ ${usd(requested)} requested for the claimant on application ${draw.application_no}.`,
    true,
  );
}

function exceptionsDraft(draw: Draw, w: LienWaiver): FindingDraft | null {
  if (w.exceptions.length === 0) return null;
  const excepted = w.exceptions.map((e) =>
    e.amount === null ? e.description : `${e.description} (${usd(e.amount)})`,
  );
  return warning(
    draw,
    w,
    'exceptions',
    `Lien waiver ${w.id} carries exceptions`,
    `Exceptions: ${excepted.join('; ')}.`,
    true,
  );
}

function finalDraft(input: ScanInput, draw: Draw, w: LienWaiver): FindingDraft | null {
  if (!FINAL.has(w.waiver_type)) return null;
  const asOf = w.signed_on ?? w.through_date;
  const milestone = input.project.milestones.some(
    (m) =>
      m.name.trim().toLowerCase() === SUBSTANTIAL_COMPLETION_MILESTONE &&
      m.completed_on !== null &&
      m.completed_on <= asOf,
  );
  if (milestone || isCompleteAtLeast(draw, SUBSTANTIAL_COMPLETION_PCT)) return null;
  return warning(
    draw,
    w,
    'final',
    `Final lien waiver ${w.id} before substantial completion`,
    `A ${w.waiver_type} waiver for application ${draw.application_no}, which is below ${SUBSTANTIAL_COMPLETION_PCT}% complete and with no substantial-completion milestone reached by ${asOf}.`,
    false,
  );
}

function warning(
  draw: Draw,
  w: LienWaiver,
  aspect: string,
  title: string,
  detail: string,
  curable: boolean,
): FindingDraft {
  return {
    code: 'LIEN_WAIVER_MISMATCH',
    severity: 'WARNING',
    draw_id: draw.id,
    entity_id: w.claimant,
    subject: `${w.id}:${aspect}`,
    title,
    detail,
    evidence: [drawEvidence(draw), documentEvidence(w)],
    curable_by_documents: curable,
  };
}
