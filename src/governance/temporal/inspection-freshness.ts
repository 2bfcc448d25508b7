/**
 * INSPECTION_FRESHNESS (DOMAIN §3): no inspection on or after the draw's period end → BLOCKING;
 * inspection older than 30 days on `now` → WARNING.
 *
 * Interpretations:
 * - Examines draws under review only (SUBMITTED / COMPILED): freshness is about what the lender
 *   knows before paying, so once a draw is funded (or rejected) the re-scan resolves it.
 * - Inspections that count: those belonging to the draw (`inspectionsOf`) inspected on or after
 *   its `period_to`; the latest of them is aged. "older than 30 days": 31 days fires, 30 does not.
 * - One finding per draw (subject `inspection`) whose severity follows its state; curable by
 *   documents (a new inspection report). Attributed to the project's inspector (null without one),
 *   who owes the inspection — not to the GC (see `draft`).
 */
import type { Draw } from '../../projects/facts.js';
import type { FindingDraft, Severity } from '../findings.js';
import { INSPECTION_MAX_AGE_DAYS } from '../constants.js';
import { isoDate } from '../../platform/clock.js';
import type { ScanEngine, ScanInput } from '../scan-input.js';
import { documentEvidence, drawEvidence, findingsOf, inspectionsOf, pendingDraws } from '../scan-input.js';
import { addDays, daysBetween } from '../units.js';

export const inspectionFreshness: ScanEngine = (input, now) => {
  const today = isoDate(now);
  return findingsOf(
    input,
    now,
    pendingDraws(input).map((d) => drawDraft(input, d, today)),
  );
};

function drawDraft(input: ScanInput, draw: Draw, today: string): FindingDraft | null {
  const latest = inspectionsOf(input, draw).find((r) => r.inspected_on >= draw.period_to);
  if (latest === undefined) {
    return draft(input, draw, 'BLOCKING', `No inspection on or after the period end ${draw.period_to}.`, []);
  }
  const age = daysBetween(latest.inspected_on, today);
  if (age <= INSPECTION_MAX_AGE_DAYS) return null;
  return {
    ...draft(
      input,
      draw,
      'WARNING',
      `Latest inspection ${latest.inspected_on} is ${age} days old (limit ${INSPECTION_MAX_AGE_DAYS}).`,
      [documentEvidence(latest)],
    ),
    // The inspection went stale the day after its limit ran out.
    arose_on: addDays(latest.inspected_on, INSPECTION_MAX_AGE_DAYS + 1),
  };
}

function draft(
  input: ScanInput,
  draw: Draw,
  severity: Severity,
  detail: string,
  evidence: FindingDraft['evidence'],
): FindingDraft {
  return {
    code: 'INSPECTION_FRESHNESS',
    severity,
    draw_id: draw.id,
    // The lender's inspector owes the inspection, not the contractor: attributing it to the GC
    // would put a contractor on probation (DOMAIN §5) for the lender's own diligence gap.
    entity_id: input.project.inspector,
    subject: 'inspection',
    title:
      severity === 'BLOCKING'
        ? `Application ${draw.application_no}: no inspection after the period end`
        : `Application ${draw.application_no}: inspection is stale`,
    detail,
    evidence: [drawEvidence(draw), ...evidence],
    curable_by_documents: true,
  };
}
