/**
 * TITLE_DATE_DOWN (DOMAIN §3): no title date-down effective on or after the draw submission →
 * BLOCKING; one with new liens → BLOCKING; older than 10 days on `now` → WARNING.
 *
 * Interpretations:
 * - Examines draws under review only (SUBMITTED / COMPILED), like INSPECTION_FRESHNESS.
 * - The date-down that counts is the latest (by `effective_on`, then recording) effective on or
 *   after the draw's `submitted_on`; a newer clean one supersedes one with liens.
 * - Currency (subject `currency`): missing → BLOCKING, age > 10 days → WARNING (10 passes, 11
 *   fires); curable by documents (a new date-down).
 * - Liens (subject `liens`): the counting date-down lists new liens → BLOCKING, attributed to the
 *   GC (a lien means someone under the GC went unpaid); not curable by documents alone — the lien
 *   has to be released or bonded off, which a later clean date-down then shows.
 */
import type { Draw, TitleDateDown } from '../../projects/facts.js';
import type { FindingDraft, Severity } from '../findings.js';
import { TITLE_DATE_DOWN_MAX_AGE_DAYS } from '../constants.js';
import { isoDate } from '../../platform/clock.js';
import type { ScanEngine, ScanInput } from '../scan-input.js';
import { documentEvidence, documentsOfType, drawEvidence, findingsOf, pendingDraws } from '../scan-input.js';
import { addDays, daysBetween, sum, usd } from '../units.js';

export const titleDateDown: ScanEngine = (input, now) => {
  const today = isoDate(now);
  return findingsOf(
    input,
    now,
    pendingDraws(input).flatMap((d) => drawDrafts(input, d, today)),
  );
};

function drawDrafts(input: ScanInput, draw: Draw, today: string): (FindingDraft | null)[] {
  const latest = documentsOfType(input, 'TITLE_DATE_DOWN')
    .filter((t) => t.effective_on >= draw.submitted_on)
    .sort((a, b) =>
      a.effective_on === b.effective_on
        ? a.recorded_seq - b.recorded_seq
        : a.effective_on.localeCompare(b.effective_on),
    )
    .at(-1);
  if (latest === undefined) {
    return [
      draft(
        input,
        draw,
        'currency',
        'BLOCKING',
        `No title date-down effective on or after ${draw.submitted_on}.`,
        null,
      ),
    ];
  }
  const age = daysBetween(latest.effective_on, today);
  return [
    age > TITLE_DATE_DOWN_MAX_AGE_DAYS
      ? {
          ...draft(
            input,
            draw,
            'currency',
            'WARNING',
            `Date-down effective ${latest.effective_on} is ${age} days old (limit ${TITLE_DATE_DOWN_MAX_AGE_DAYS}).`,
            latest,
          ),
          // Stale from the day after its limit ran out.
          arose_on: addDays(latest.effective_on, TITLE_DATE_DOWN_MAX_AGE_DAYS + 1),
        }
      : null,
    latest.new_liens.length > 0 ? draft(input, draw, 'liens', 'BLOCKING', liensDetail(latest), latest) : null,
  ];
}

function liensDetail(title: TitleDateDown): string {
  const total = sum(title.new_liens.map((l) => l.amount));
  const who = title.new_liens.map((l) => `${l.claimant_name} ${usd(l.amount)} recorded ${l.recorded_on}`);
  return `${title.new_liens.length} new lien(s) totalling ${usd(total)}: ${who.join('; ')}.`;
}

function draft(
  input: ScanInput,
  draw: Draw,
  subject: 'currency' | 'liens',
  severity: Severity,
  detail: string,
  title: TitleDateDown | null,
): FindingDraft {
  const heading =
    subject === 'liens'
      ? 'title date-down shows new liens'
      : severity === 'BLOCKING'
        ? 'no title date-down since submission'
        : 'title date-down is stale';
  return {
    code: 'TITLE_DATE_DOWN',
    severity,
    draw_id: draw.id,
    // A missing or stale date-down is the lender's title work (the title company is not a governed
    // entity); new liens on title come from unpaid lower tiers, which is the GC's payment record.
    entity_id: subject === 'liens' ? input.project.general_contractor : null,
    subject,
    title: `Application ${draw.application_no}: ${heading}`,
    detail,
    evidence: [drawEvidence(draw), ...(title ? [documentEvidence(title)] : [])],
    curable_by_documents: subject === 'currency',
  };
}
