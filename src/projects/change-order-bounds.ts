/**
 * A change order adjusts the contract sum and SOV lines (DOMAIN §1) from the day it is executed:
 * a pay application's column C is the line's value plus the deltas of change orders executed by its
 * period end, the contract sum to date adds their amounts. Each must stay a figure in integer cents
 * (DOMAIN preamble): from zero to 2^53 − 1.
 *
 * - Below zero: a deduction may take a line, or the contract, to zero — never below. Below, column
 *   C went negative (H −50 %, so no inspection variance could fire) and a contract sum to date of
 *   −$500,000 left nothing to complete, so adequacy scored lender and cashflow 100 and called an
 *   out-of-balance project in balance.
 * - Past 2^53 − 1: a double no longer holds the sum exactly (9,007,199,354,740,991 read as …992),
 *   so adequacy's figures were off and every later application was refused as inexact — the same
 *   bound registration and pay applications keep (0a916e4).
 *
 * Judged on every day the change order counts: its own execution day and each later one on which
 * another executed change order joins, so a deduction dated before the addition that would lift
 * the line is refused too. A change order not executed changes no figure, so it is not judged.
 */
import type { ChangeOrder, Project } from './facts.js';
import type { RecordChangeOrderBody } from './contract.js';
import type { Issue } from './decision.js';

export function checkChangeOrderBounds(
  project: Project,
  recorded: readonly ChangeOrder[],
  body: RecordChangeOrderBody,
  issues: Issue[],
): void {
  const from = body.executed_on;
  if (from === undefined) return;
  const executed = recorded.filter((co) => co.executed_on !== null);
  const days = [
    from,
    ...executed.flatMap((co) => (co.executed_on !== null && co.executed_on > from ? [co.executed_on] : [])),
  ].sort();
  const counted = (day: string) => executed.filter((co) => co.executed_on !== null && co.executed_on <= day);

  const contractOn = (day: string) =>
    project.contract_sum + sum(counted(day).map((co) => co.amount)) + body.amount;
  const contract = outOfBounds(days, contractOn, 'the contract sum to date');
  if (contract !== null) issues.push({ path: ['amount'], code: 'out_of_range', message: contract });
  body.lines.forEach((l, i) => {
    const original = project.sov.find((s) => s.line === l.line)?.scheduled_value;
    if (original === undefined) return; // an unknown line is reported by checkSovLine
    const deltas = (day: string) =>
      counted(day).flatMap((co) => co.lines.filter((c) => c.line === l.line).map((c) => c.delta));
    const line = outOfBounds(
      days,
      (day) => original + sum(deltas(day)) + l.delta,
      `line ${l.line}'s scheduled value`,
    );
    if (line !== null) issues.push({ path: ['lines', i, 'delta'], code: 'out_of_range', message: line });
  });
}

/** Why `valueOn` leaves integer cents on one of `days` (the first such day), or null. */
function outOfBounds(days: readonly string[], valueOn: (day: string) => number, what: string): string | null {
  for (const day of days) {
    const value = valueOn(day);
    if (value < 0)
      return `${what} would be ${cents(value)} on ${day}: a deduction may take it to zero, not below`;
    if (!Number.isSafeInteger(value))
      return `${what} would exceed ${Number.MAX_SAFE_INTEGER} cents on ${day}: not exact in integer cents`;
  }
  return null;
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** Integer cents as signed dollars, e.g. −$50,000.00. */
function cents(value: number): string {
  const abs = Math.abs(value);
  const dollars = `$${Math.floor(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`;
  return value < 0 ? `−${dollars}` : dollars;
}
