/**
 * Deliberate problems in the pay applications themselves (DOMAIN §2 contradictions, §3 pay-period
 * rules). Each bends the fewest facts that make its rule fire and leaves the rest of the file
 * clean, so the finding it causes is the one the plan table promises.
 */
import { addDays, monthStart } from './calendar.js';
import type { DrawModel, Problem } from './model.js';
import { cents, latestDraw, previousDraw } from './model.js';

/** Lines of the draw by claimed percent complete, highest first. */
function byClaimedPercent(d: DrawModel): { line: number; pct: number }[] {
  return d.lines
    .map((l, i) => {
      const c = d.scheduled[i] ?? 0;
      return { line: l.line, pct: c > 0 ? (d.completed[i]! * 100) / c : 0 };
    })
    .sort((a, b) => b.pct - a.pct || a.line - b.line);
}

/** Inspector's figure `points` below the claimed H, rounded down so the gap is at least that. */
function seenBelow(pct: number, points: number): number {
  return Math.max(0, Math.floor((pct - points) * 10) / 10);
}

/**
 * INSPECTION_VARIANCE: on the latest application the inspector saw 12 points less than claimed on
 * the most advanced line (BLOCKING, > 10) and 7 points less on the next (WARNING, > 5).
 */
export const INSPECTION_VARIANCE_POINTS = { blocking: 12, warning: 7 } as const;
export const inspectionVariance: Problem = {
  tweak(m) {
    const d = latestDraw(m);
    const [first, second] = byClaimedPercent(d);
    if (!first || !second || second.pct < INSPECTION_VARIANCE_POINTS.warning + 1)
      throw new Error(`${m.ref}: not enough progress for an inspection variance`);
    for (const [target, points] of [
      [first, INSPECTION_VARIANCE_POINTS.blocking],
      [second, INSPECTION_VARIANCE_POINTS.warning],
    ] as const) {
      const row = d.inspection!.lines.find((l) => l.line === target.line)!;
      row.percent_complete = seenBelow(target.pct, points);
    }
  },
};

/**
 * RETAINAGE_MISCALCULATED: the latest application states half the contractual retainage rate
 * while the job is far from 95 % complete (release, BLOCKING) and withholds $2,500 less than even
 * that rate gives (arithmetic, WARNING).
 */
export const RETAINAGE_SHORTFALL = cents(2_500);
export const retainageMiscalculated: Problem = {
  shape(m) {
    const d = latestDraw(m);
    d.retainage_pct_stated = m.scenario.retainagePct / 2;
    d.withheld_skew = -RETAINAGE_SHORTFALL;
  },
};

/**
 * DUPLICATE_OR_UNSUPPORTED_COST (BLOCKING): the latest application lists a second copy of the
 * first application's first invoice — same vendor, same invoice number.
 */
export const duplicateInvoice: Problem = {
  tweak(m) {
    const first = m.draws[0]!.invoices[0]!;
    const d = latestDraw(m);
    d.invoices.push({ ...first, ref: `${d.ref}.dup`, recorded_on: addDays(d.submitted_on, -1) });
  },
};

/**
 * DUPLICATE_OR_UNSUPPORTED_COST (WARNING): invoices behind the latest application cover less than
 * 90 % of the amount requested (the smallest are missing from the file).
 */
export const unsupportedCost: Problem = {
  tweak(m) {
    const d = latestDraw(m);
    const kept = [...d.invoices].sort((a, b) => b.amount - a.amount || a.line - b.line);
    while (kept.length > 0 && kept.reduce((s, i) => s + i.amount, 0) * 10 >= d.requested_amount * 9)
      kept.pop();
    d.invoices = d.invoices.filter((i) => kept.includes(i));
  },
};

/**
 * ROLL_FORWARD_MISMATCH: on the latest application line 2's "previous" carries $15,000 more than
 * the previous application's G (and the period's work is shown that much lower, so G still adds
 * up). Line 2 (foundations/structure) is mid-work on every template, so the period has room.
 */
export const ROLL_FORWARD_SKEW = cents(15_000);
export const ROLL_FORWARD_LINE = 2;
export const rollForward: Problem = {
  shape(m) {
    latestDraw(m).previous_skew[ROLL_FORWARD_LINE] = ROLL_FORWARD_SKEW;
  },
};

/** PAY_PERIOD_SEQUENCE (BLOCKING): the latest period starts five days before the previous one ended. */
export const overlappingPeriod: Problem = {
  shape(m) {
    latestDraw(m).period_from = addDays(previousDraw(m).period_to, -4);
  },
};

/**
 * PAY_PERIOD_SEQUENCE: the latest application is a mid-month supplemental numbered one too high
 * (BLOCKING, not consecutive) and submitted in the same calendar month as the previous one
 * (WARNING).
 */
export const supplementalApplication: Problem = {
  shape(m) {
    const d = latestDraw(m);
    d.application_no += 1;
    d.period_to = addDays(monthStart(d.month), 14);
    d.submitted_on = addDays(d.period_to, 5);
    d.review_on = addDays(d.submitted_on, 5);
  },
};
