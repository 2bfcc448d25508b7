/**
 * PAY_PERIOD_SEQUENCE (DOMAIN §3): application numbers not consecutive, or periods overlapping →
 * BLOCKING; two draws within one calendar month → WARNING.
 *
 * Interpretations:
 * - The sequence is the active draws (REJECTED ones left it) in recording order. Each draw after
 *   the first must carry its predecessor's number + 1 (subject `application_no`); the first draw's
 *   number is not judged (a loan can be taken over mid-project).
 * - Periods are inclusive day ranges, so a period starting on the day the previous one ended
 *   overlaps. Each later draw is compared with every earlier one (subject `overlap:<earlier>`).
 * - "within one calendar month": both `submitted_on` dates in the same calendar month (subject
 *   `same_month:<earlier>`), not a rolling 30 days.
 * - Findings sit on the later draw, are attributed to the GC and are not curable by documents.
 */
import type { Draw } from '../../projects/facts.js';
import type { FindingDraft, Severity } from '../findings.js';
import type { ScanEngine, ScanInput } from '../scan-input.js';
import { activeDraws, drawEvidence, findingsOf } from '../scan-input.js';
import { sameCalendarMonth } from '../units.js';

export const payPeriodSequence: ScanEngine = (input, now) => {
  const draws = activeDraws(input);
  const drafts: (FindingDraft | null)[] = [];
  draws.forEach((draw, i) => {
    const previous = draws[i - 1];
    if (previous !== undefined) drafts.push(numberDraft(input, draw, previous));
    for (const earlier of draws.slice(0, i)) drafts.push(...pairDrafts(input, draw, earlier));
  });
  return findingsOf(input, now, drafts);
};

function numberDraft(input: ScanInput, draw: Draw, previous: Draw): FindingDraft | null {
  if (draw.application_no === previous.application_no + 1) return null;
  return draft(
    input,
    draw,
    previous,
    'application_no',
    'BLOCKING',
    `Application ${draw.application_no} does not follow application ${previous.application_no}`,
    `Expected application number ${previous.application_no + 1}.`,
  );
}

function pairDrafts(input: ScanInput, draw: Draw, earlier: Draw): FindingDraft[] {
  const drafts: FindingDraft[] = [];
  if (draw.period_from <= earlier.period_to && earlier.period_from <= draw.period_to) {
    drafts.push(
      draft(
        input,
        draw,
        earlier,
        `overlap:${earlier.id}`,
        'BLOCKING',
        `Application ${draw.application_no}'s period overlaps application ${earlier.application_no}'s`,
        `${draw.period_from}–${draw.period_to} overlaps ${earlier.period_from}–${earlier.period_to}.`,
      ),
    );
  }
  if (sameCalendarMonth(draw.submitted_on, earlier.submitted_on)) {
    drafts.push(
      draft(
        input,
        draw,
        earlier,
        `same_month:${earlier.id}`,
        'WARNING',
        `Applications ${earlier.application_no} and ${draw.application_no} submitted in the same month`,
        `Submitted ${earlier.submitted_on} and ${draw.submitted_on}.`,
      ),
    );
  }
  return drafts;
}

function draft(
  input: ScanInput,
  draw: Draw,
  other: Draw,
  subject: string,
  severity: Severity,
  title: string,
  detail: string,
): FindingDraft {
  return {
    code: 'PAY_PERIOD_SEQUENCE',
    severity,
    draw_id: draw.id,
    entity_id: input.project.general_contractor,
    subject,
    title,
    detail,
    evidence: [drawEvidence(draw), drawEvidence(other)],
    curable_by_documents: false,
  };
}
