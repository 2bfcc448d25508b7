/**
 * A change order adjusts the contract sum and SOV lines (DOMAIN §1) from the day it is executed:
 * a pay application's column C is the line's value plus the deltas of change orders executed by its
 * period end, the contract sum to date adds their amounts. A deduction can take a line, or the
 * contract, down to zero — never below. Below zero, column C went negative (H −50 %, so no
 * inspection variance could fire; the sheet read 137 % complete) and a contract sum to date of
 * −$500,000 left nothing to complete, so adequacy scored lender and cashflow 100 and called an
 * out-of-balance project in balance.
 *
 * Judged on every day the change order counts: its own execution day and each later one on which
 * another executed change order joins, so a deduction dated before the addition that would lift
 * the line is refused too. A change order not executed changes no figure, so it is not judged.
 */
import type { ChangeOrder, Project } from './facts.js';
import type { RecordChangeOrderBody } from './contract.js';
import type { Issue } from './decision.js';

export function checkChangeOrderFloor(
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

  const contractLow = days.find(
    (day) => project.contract_sum + sum(counted(day).map((co) => co.amount)) + body.amount < 0,
  );
  if (contractLow !== undefined) {
    const value = project.contract_sum + sum(counted(contractLow).map((co) => co.amount)) + body.amount;
    issues.push(belowZero(['amount'], `the contract sum to date would be ${cents(value)} on ${contractLow}`));
  }
  body.lines.forEach((l, i) => {
    const original = project.sov.find((s) => s.line === l.line)?.scheduled_value;
    if (original === undefined) return; // an unknown line is reported by checkSovLine
    const valueOn = (day: string) =>
      original +
      sum(counted(day).flatMap((co) => co.lines.filter((c) => c.line === l.line).map((c) => c.delta))) +
      l.delta;
    const low = days.find((day) => valueOn(day) < 0);
    if (low !== undefined)
      issues.push(
        belowZero(
          ['lines', i, 'delta'],
          `line ${l.line}'s scheduled value would be ${cents(valueOn(low))} on ${low}`,
        ),
      );
  });
}

function belowZero(path: Issue['path'], what: string): Issue {
  return { path, code: 'out_of_range', message: `${what}: a deduction may take it to zero, not below` };
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
