/**
 * CONTRACT_SUM_MISMATCH (DOMAIN §2, BLOCKING): the schedule of values does not add up to the
 * contract, or a draw's column C does not carry the SOV plus the executed change orders.
 *
 * Interpretations:
 * - Project level: "Σ scheduled values" is the current SOV, i.e. Σ original values + Σ per-line
 *   deltas of executed change orders; "contract sum + Σ executed change orders" adds the change
 *   orders' stated amounts. So a change order whose amount ≠ Σ its deltas, or an SOV that does not
 *   sum to the contract, fires. "Executed" = `executed_on` on or before the scan day.
 * - Draw level: for each active draw, column C of a line must equal the line's SOV value plus the
 *   deltas of change orders executed on or before the draw's `period_to` — whenever they were
 *   recorded, so a back-dated executed change order missing from the sheet fires. A change order
 *   executed after the period belongs to a later application. One finding per draw (subject
 *   `lines`) listing every mismatching line, so one error does not count once per line.
 * - Not curable by documents: the figures themselves are wrong; a corrected application or
 *   change order (or an explicit resolution) removes it.
 */
import type { ChangeOrder, Draw, IsoDate } from '../../projects/facts.js';
import type { FindingDraft } from '../findings.js';
import { isoDate } from '../../platform/clock.js';
import type { ScanEngine, ScanInput } from '../scan-input.js';
import { activeDraws, drawEvidence, findingsOf, lineEvidence, projectEvidence } from '../scan-input.js';
import { sum, usd } from '../units.js';

export const contractSumMismatch: ScanEngine = (input, now) => {
  const today = isoDate(now);
  return findingsOf(input, now, [
    projectSumDraft(input, today),
    ...activeDraws(input).map((d) => drawLinesDraft(input, d)),
  ]);
};

function executedBy(input: ScanInput, day: IsoDate): ChangeOrder[] {
  return input.change_orders.filter((co) => co.executed_on !== null && co.executed_on <= day);
}

function projectSumDraft(input: ScanInput, today: IsoDate): FindingDraft | null {
  const { project } = input;
  const executed = executedBy(input, today);
  const scheduled =
    sum(project.sov.map((l) => l.scheduled_value)) +
    sum(executed.flatMap((co) => co.lines.map((l) => l.delta)));
  const contract = project.contract_sum + sum(executed.map((co) => co.amount));
  if (scheduled === contract) return null;
  return {
    code: 'CONTRACT_SUM_MISMATCH',
    severity: 'BLOCKING',
    draw_id: null,
    entity_id: project.general_contractor,
    subject: 'project',
    title: 'Schedule of values does not match the contract sum',
    detail:
      `Σ scheduled values ${usd(scheduled)} ≠ contract sum + executed change orders ${usd(contract)} ` +
      `(difference ${usd(scheduled - contract)}).`,
    evidence: [projectEvidence(project), ...executed.map((co) => ({ kind: 'change_order', id: co.id }))],
    curable_by_documents: false,
  };
}

function drawLinesDraft(input: ScanInput, draw: Draw): FindingDraft | null {
  const counted = executedBy(input, draw.period_to);
  const expected = new Map(input.project.sov.map((l) => [l.line, l.scheduled_value]));
  for (const co of counted) {
    for (const l of co.lines) expected.set(l.line, (expected.get(l.line) ?? 0) + l.delta);
  }
  const wrong = draw.lines.filter((l) => l.scheduled_value !== (expected.get(l.line) ?? 0));
  if (wrong.length === 0) return null;
  const described = wrong.map(
    (l) => `line ${l.line}: C ${usd(l.scheduled_value)} ≠ ${usd(expected.get(l.line) ?? 0)}`,
  );
  return {
    code: 'CONTRACT_SUM_MISMATCH',
    severity: 'BLOCKING',
    draw_id: draw.id,
    entity_id: input.project.general_contractor,
    subject: 'lines',
    title: `Application ${draw.application_no}: scheduled values do not carry the SOV and executed change orders`,
    detail: `${described.join('; ')}.`,
    evidence: [
      drawEvidence(draw),
      ...wrong.map((l) => lineEvidence(l.line)),
      ...counted.map((co) => ({ kind: 'change_order', id: co.id })),
    ],
    curable_by_documents: false,
  };
}
