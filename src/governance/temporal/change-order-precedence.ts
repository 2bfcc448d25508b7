/**
 * CHANGE_ORDER_PRECEDENCE (DOMAIN §3): work on a change order billed before it was executed, or a
 * change order ≥ $50,000 billed before lender approval → BLOCKING; a change order executed after
 * its work started → WARNING.
 *
 * Interpretations:
 * - "work on a CO billed" by a draw: on some line the change order adds to (delta > 0), the
 *   draw's cumulative G exceeds what the line is worth without that change order — column C, less
 *   the change order's delta when C counts it (C counts change orders recorded before the draw and
 *   executed by its period end). Deductive change orders are never "billed".
 * - "before": the application's `submitted_on` is earlier than `executed_on` /
 *   `lender_approved_on`, or that date is absent. Historical facts: a later execution or approval
 *   does not undo the billing, so these are not curable by documents (explicit resolution).
 * - "≥ $50,000": the change order's signed `amount` ≥ 5,000,000 cents (exactly $50,000 fires).
 * - WARNING, project level (no draw), subject `<CO>:late_execution`: `executed_on` after
 *   `work_started_on`, or — already certain on `now` — work started and the change order still
 *   not executed.
 * - Every active draw is examined. Attributed to the GC.
 */
import type { ChangeOrder, Draw } from '../../projects/facts.js';
import type { FindingDraft, Severity } from '../findings.js';
import { CO_LENDER_APPROVAL_THRESHOLD_CENTS } from '../constants.js';
import { isoDate } from '../../platform/clock.js';
import type { ScanEngine, ScanInput } from '../scan-input.js';
import { activeDraws, drawEvidence, findingsOf } from '../scan-input.js';
import { usd } from '../units.js';

export const changeOrderPrecedence: ScanEngine = (input, now) => {
  const today = isoDate(now);
  const billed = activeDraws(input).flatMap((d) =>
    input.change_orders.filter((co) => billsWorkOn(d, co)).flatMap((co) => billingDrafts(input, d, co)),
  );
  const late = input.change_orders.map((co) => lateExecutionDraft(input, co, today));
  return findingsOf(input, now, [...billed, ...late]);
};

/** Whether `draw` bills work that only `co` makes room for on some line. */
export function billsWorkOn(draw: Draw, co: ChangeOrder): boolean {
  const counted =
    co.recorded_seq < draw.recorded_seq && co.executed_on !== null && co.executed_on <= draw.period_to;
  return co.lines.some((l) => {
    if (l.delta <= 0) return false;
    const line = draw.lines.find((dl) => dl.line === l.line);
    if (line === undefined) return false;
    const without = line.scheduled_value - (counted ? l.delta : 0);
    return line.completed_and_stored > without;
  });
}

function billingDrafts(input: ScanInput, draw: Draw, co: ChangeOrder): FindingDraft[] {
  const drafts: FindingDraft[] = [];
  if (co.executed_on === null || co.executed_on > draw.submitted_on) {
    const when = co.executed_on === null ? 'is not executed' : `was executed ${co.executed_on}`;
    drafts.push(
      draft(
        input,
        co,
        draw,
        'unexecuted',
        'BLOCKING',
        `Change order ${co.number} work billed before execution`,
        `Application ${draw.application_no} (submitted ${draw.submitted_on}) bills its work; the change order ${when}.`,
      ),
    );
  }
  const needsApproval = co.amount >= CO_LENDER_APPROVAL_THRESHOLD_CENTS;
  if (needsApproval && (co.lender_approved_on === null || co.lender_approved_on > draw.submitted_on)) {
    const when =
      co.lender_approved_on === null ? 'is not lender-approved' : `was approved ${co.lender_approved_on}`;
    drafts.push(
      draft(
        input,
        co,
        draw,
        'unapproved',
        'BLOCKING',
        `Change order ${co.number} (${usd(co.amount)}) billed before lender approval`,
        `Application ${draw.application_no} (submitted ${draw.submitted_on}) bills its work; the change order ${when}.`,
      ),
    );
  }
  return drafts;
}

function lateExecutionDraft(input: ScanInput, co: ChangeOrder, today: string): FindingDraft | null {
  const started = co.work_started_on;
  if (started === null || started > today) return null;
  if (co.executed_on !== null && co.executed_on <= started) return null;
  const executed = co.executed_on === null ? 'is still not executed' : `was executed ${co.executed_on}`;
  return draft(
    input,
    co,
    null,
    'late_execution',
    'WARNING',
    `Change order ${co.number} executed after its work started`,
    `Work started ${started}; the change order ${executed}.`,
  );
}

function draft(
  input: ScanInput,
  co: ChangeOrder,
  draw: Draw | null,
  aspect: string,
  severity: Severity,
  title: string,
  detail: string,
): FindingDraft {
  return {
    code: 'CHANGE_ORDER_PRECEDENCE',
    severity,
    draw_id: draw?.id ?? null,
    entity_id: input.project.general_contractor,
    subject: `${co.id}:${aspect}`,
    title,
    detail,
    evidence: [...(draw ? [drawEvidence(draw)] : []), { kind: 'change_order', id: co.id }],
    curable_by_documents: false,
  };
}
