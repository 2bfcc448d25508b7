/**
 * AIA G702/G703 arithmetic: the derived columns of a pay application from its stated columns and
 * the project's facts. Integer cents throughout; the only non-integers are percentages.
 * Rounding: money rounds half up to the cent (`Math.round`, all operands ≥ 0 here); column H
 * rounds to 2 decimals and is a display figure, never summed back into money.
 */
import type { DrawLineStated, DrawSubmittedData } from './events.js';
import type { Cents, ChangeOrder, DrawLine, DrawSummary, IsoDate, SovLine } from './facts.js';

/** Column H: G / C as a percent with 2 decimals; 0 when C is 0 (nothing scheduled to measure against). */
export function percentComplete(completed: Cents, scheduled: Cents): number {
  if (scheduled === 0) return 0;
  return Math.round((completed * 10_000) / scheduled) / 100;
}

/** Retainage on an amount at a percentage, to the cent (DOMAIN §2 RETAINAGE_MISCALCULATED basis). */
export function retainageOn(amount: Cents, pct: number): Cents {
  return Math.round((amount * pct) / 100);
}

/**
 * Σ deltas per SOV line of the change orders counted into column C: executed, on or before the
 * period's end. A change order executed later is not yet part of the contract for this period
 * (DOMAIN §3 CHANGE_ORDER_PRECEDENCE judges billing against it).
 */
export function changeOrderDeltas(
  changeOrders: readonly ChangeOrder[],
  periodTo: IsoDate,
): Map<number, Cents> {
  const deltas = new Map<number, Cents>();
  for (const co of changeOrders) {
    if (co.executed_on === null || co.executed_on > periodTo) continue;
    for (const l of co.lines) deltas.set(l.line, (deltas.get(l.line) ?? 0) + l.delta);
  }
  return deltas;
}

/** One G703 row from the SOV line, its change-order delta and the stated D/E/F. */
export function deriveDrawLine(
  sov: SovLine,
  delta: Cents,
  stated: DrawLineStated,
  retainagePct: number,
): DrawLine {
  const scheduled_value = sov.scheduled_value + delta;
  const completed_and_stored = stated.previous + stated.this_period + stated.stored_materials;
  return {
    line: sov.line,
    description: sov.description,
    original_scheduled_value: sov.scheduled_value,
    change_order_delta: delta,
    scheduled_value,
    previous: stated.previous,
    this_period: stated.this_period,
    stored_materials: stated.stored_materials,
    completed_and_stored,
    percent_complete: percentComplete(completed_and_stored, scheduled_value),
    balance_to_finish: scheduled_value - completed_and_stored,
    retainage: retainageOn(completed_and_stored, retainagePct),
  };
}

/** All G703 rows in SOV order (the decider guarantees every SOV line is stated exactly once). */
export function deriveDrawLines(
  sov: readonly SovLine[],
  deltas: ReadonlyMap<number, Cents>,
  stated: readonly DrawLineStated[],
  retainagePct: number,
): DrawLine[] {
  const byLine = new Map(stated.map((l) => [l.line, l]));
  return sov.flatMap((s) => {
    const row = byLine.get(s.line);
    return row ? [deriveDrawLine(s, deltas.get(s.line) ?? 0, row, retainagePct)] : [];
  });
}

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

/** The G702 summary (lines 1–9) from the rows, the retainage withheld and previous certificates. */
export function summarize(
  lines: readonly DrawLine[],
  retainage: Cents,
  previousCertificates: Cents,
): DrawSummary {
  const original_contract_sum = sum(lines.map((l) => l.original_scheduled_value));
  const net_change_orders = sum(lines.map((l) => l.change_order_delta));
  const contract_sum_to_date = original_contract_sum + net_change_orders;
  const total_completed_and_stored = sum(lines.map((l) => l.completed_and_stored));
  const total_earned_less_retainage = total_completed_and_stored - retainage;
  return {
    original_contract_sum,
    net_change_orders,
    contract_sum_to_date,
    total_completed_and_stored,
    retainage,
    total_earned_less_retainage,
    previous_certificates: previousCertificates,
    current_payment_due: total_earned_less_retainage - previousCertificates,
    balance_to_finish_including_retainage: contract_sum_to_date - total_earned_less_retainage,
  };
}

/** A pay application's G702/G703 as frozen at submission (C uses the change orders recorded so far). */
export interface FrozenApplication {
  lines: DrawLine[];
  retainage_expected: Cents;
  retainage_withheld: Cents;
  previous_certificates_total: Cents;
  summary: DrawSummary;
}

/**
 * The application's derived columns and G702 summary from its stated figures, the project's SOV
 * and change orders, and Σ funded before it (used when previous certificates are not stated).
 */
export function freezeApplication(
  sov: readonly SovLine[],
  changeOrders: readonly ChangeOrder[],
  stated: Pick<
    DrawSubmittedData,
    'period_to' | 'lines' | 'retainage_pct' | 'retainage_withheld' | 'previous_certificates_total'
  >,
  previousFundedTotal: Cents,
): FrozenApplication {
  const lines = deriveDrawLines(
    sov,
    changeOrderDeltas(changeOrders, stated.period_to),
    stated.lines,
    stated.retainage_pct,
  );
  const retainage_expected = retainageOn(sum(lines.map((l) => l.completed_and_stored)), stated.retainage_pct);
  const retainage_withheld = stated.retainage_withheld ?? retainage_expected;
  const previous_certificates_total = stated.previous_certificates_total ?? previousFundedTotal;
  return {
    lines,
    retainage_expected,
    retainage_withheld,
    previous_certificates_total,
    summary: summarize(lines, retainage_withheld, previous_certificates_total),
  };
}

/**
 * The application's money figures that are not exact integer cents (DOMAIN: money is integer
 * cents): a column or total past 2^53 − 1 in magnitude is rounded by a double, so the G702 its
 * signers sign and the line 8 a payment pays would be off by cents.
 */
export function inexactFigures(application: FrozenApplication): string[] {
  const rows = application.lines.flatMap((l) =>
    Object.entries({
      scheduled_value: l.scheduled_value,
      completed_and_stored: l.completed_and_stored,
      balance_to_finish: l.balance_to_finish,
      retainage: l.retainage,
    }).map(([name, value]) => [`line ${l.line} ${name}`, value] as const),
  );
  const summary = Object.entries(application.summary).map(([name, value]) => [name, value] as const);
  return [...rows, ...summary].filter(([, value]) => !Number.isSafeInteger(value)).map(([name]) => name);
}
