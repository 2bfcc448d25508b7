/**
 * A scenario becomes a project skeleton (dates, money, SOV, one application per month), and the
 * skeleton gets its G702/G703 figures. Clean by construction: every figure is what DOMAIN §2
 * checks it against (C = SOV + executed change orders, previous = last G, retainage = rate × G,
 * requested = earned less retainage less previous certificates), so a problem is only ever
 * the one a scenario puts there on purpose.
 */
import { PROFILES } from '../projects/profiles.js';
import { addDays, addMonths, lastClosedMonth, monthEnd, monthStart } from './calendar.js';
import type { DrawModel, ProjectModel, Scenario, SovLineModel } from './model.js';
import { cents } from './model.js';
import { personName } from './names.js';
import type { Rng } from './prng.js';
import { milestonesFor, requiredCoverages } from './requirements.js';

/** Share of the schedule each SOV line's work spans; starts are staggered across the rest. */
const LINE_WORK_SPAN = 0.55;
/** Days from the period end to submission (pay applications go in early the next month). */
const SUBMIT_AFTER_PERIOD_DAYS = 5;
/** Days from submission to the lender's review (compile) and to funding. */
const REVIEW_AFTER_SUBMIT_DAYS = 5;
const FUND_AFTER_SUBMIT_DAYS = 6;

function months(from: string, to: string): number {
  const [fy, fm] = from.split('-').map(Number) as [number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number];
  return (ty - fy) * 12 + (tm - fm);
}

function sovOf(scn: Scenario, contract: number, rng: Rng): SovLineModel[] {
  const weights = scn.sov.map((l) => l.weight * rng.real(0.85, 1.15));
  const total = weights.reduce((a, b) => a + b, 0);
  let assigned = 0;
  return scn.sov.map((l, i) => {
    const last = i === scn.sov.length - 1;
    // Whole hundreds of dollars, the last line taking the remainder so Σ SOV = contract sum.
    const scheduled = last
      ? contract - assigned
      : Math.round((contract * weights[i]!) / total / 10_000) * 10_000;
    assigned += scheduled;
    return {
      line: i + 1,
      description: l.description,
      trade: l.trade,
      sub: l.sub,
      vendor: l.sub ?? l.vendor ?? scn.gc,
      scheduled,
      starts_at: (i / Math.max(1, scn.sov.length - 1)) * (1 - LINE_WORK_SPAN),
    };
  });
}

function drawSkeleton(scn: Scenario, month: string, k: number): DrawModel {
  const period_to = monthEnd(month);
  const submitted_on = addDays(period_to, SUBMIT_AFTER_PERIOD_DAYS);
  const pending = k === scn.draws;
  return {
    ref: `${scn.code}.d${k}`,
    application_no: k,
    month,
    period_from: monthStart(month),
    period_to,
    submitted_on,
    pending,
    fund: !pending && scn.fundHistory,
    review_on: addDays(submitted_on, REVIEW_AFTER_SUBMIT_DAYS),
    funded_on: addDays(submitted_on, FUND_AFTER_SUBMIT_DAYS),
    stored_share: {},
    overbill: {},
    previous_skew: {},
    retainage_pct_stated: null,
    withheld_skew: 0,
    scheduled: [],
    completed: [],
    lines: [],
    retainage_pct: scn.retainagePct,
    retainage_withheld: 0,
    previous_certificates_total: 0,
    requested_amount: 0,
    invoices: [],
    bills_of_sale: [],
    waivers: [],
    inspection: null,
    titles: [],
    signatures: [],
    unconditional: [],
  };
}

/** Dates, money, SOV, milestones, coverages and one empty application per month. */
export function skeleton(scn: Scenario, today: string, rng: Rng): ProjectModel {
  const latestMonth = addMonths(lastClosedMonth(today), -scn.stalledMonths);
  const firstMonth = addMonths(latestMonth, -(scn.draws - 1));
  const startMonth = addMonths(firstMonth, -scn.preMonths);
  const start_date = addDays(monthStart(startMonth), 2);
  const completion_date = monthEnd(addMonths(startMonth, scn.durationMonths - 1));
  const contract_sum = cents(rng.int(scn.contract[0] / 1000, scn.contract[1] / 1000) * 1000);
  const contingency = Math.round((contract_sum * 0.05) / 100_000) * 100_000;
  const equity = Math.round(((contract_sum + contingency) * 0.25) / 100_000) * 100_000;
  const signers = Object.fromEntries(
    PROFILES[scn.profile].certification_chain.map((role) => [role, personName(rng)]),
  );
  return {
    scenario: scn,
    ref: scn.code,
    registered_on: addDays(start_date, -21),
    start_date,
    completion_date,
    maturity_date: monthEnd(addMonths(startMonth, scn.durationMonths + 5)),
    contract_sum,
    contingency,
    // Construction loans price in eighths of a point.
    interest_rate_pct: rng.int(50, 70) / 8,
    equity,
    loan_amount: contract_sum + contingency - equity,
    sov: sovOf(scn, contract_sum, rng),
    required: requiredCoverages(scn.profile, contract_sum),
    certificates: [],
    milestones: milestonesFor(start_date, completion_date),
    change_orders: [],
    draws: Array.from({ length: scn.draws }, (_, i) => drawSkeleton(scn, addMonths(firstMonth, i), i + 1)),
    observations: [],
    extra: [],
    signers,
  };
}

/** Planned share of the whole job done by the end of `month`, bent by the scenario's pace. */
export function plannedFraction(m: ProjectModel, month: string): number {
  const scn = m.scenario;
  const elapsed = months(m.start_date.slice(0, 7), month) + 1;
  return Math.min(1, (scn.pace * elapsed) / scn.durationMonths);
}

function lineProgress(line: SovLineModel, fraction: number): number {
  return Math.min(1, Math.max(0, (fraction - line.starts_at) / LINE_WORK_SPAN));
}

/** Column C per line: SOV plus change orders recorded before the application and executed by its period end. */
function scheduledFor(m: ProjectModel, d: DrawModel): number[] {
  return m.sov.map((l) => {
    const deltas = m.change_orders
      .filter(
        (co) => co.recorded_on < d.submitted_on && co.executed_on !== null && co.executed_on <= d.period_to,
      )
      .flatMap((co) => co.deltas.filter((x) => x.line === l.line).map((x) => x.delta));
    return l.scheduled + deltas.reduce((a, b) => a + b, 0);
  });
}

/** Every application's G702/G703 figures, in order (each reads the one before). */
export function buildFigures(m: ProjectModel): void {
  let prior: number[] = m.sov.map(() => 0);
  let certified = 0;
  for (const d of m.draws) {
    const fraction = plannedFraction(m, d.month);
    d.scheduled = scheduledFor(m, d);
    d.completed = m.sov.map((l, i) => {
      const planned = Math.round(d.scheduled[i]! * lineProgress(l, fraction)) + (d.overbill[l.line] ?? 0);
      return Math.max(planned, prior[i]!);
    });
    d.lines = m.sov.map((l, i) => {
      const increment = d.completed[i]! - prior[i]!;
      const stored = Math.round(increment * (d.stored_share[l.line] ?? 0));
      const skew = d.previous_skew[l.line] ?? 0;
      const this_period = increment - stored - skew;
      if (this_period < 0) throw new Error(`${d.ref} line ${l.line}: negative work this period`);
      return { line: l.line, previous: prior[i]! + skew, this_period, stored_materials: stored };
    });
    const earned = d.completed.reduce((a, b) => a + b, 0);
    d.retainage_pct = d.retainage_pct_stated ?? m.scenario.retainagePct;
    d.retainage_withheld = Math.round((earned * d.retainage_pct) / 100) + d.withheld_skew;
    d.previous_certificates_total = certified;
    d.requested_amount = earned - d.retainage_withheld - certified;
    if (d.requested_amount < 0) throw new Error(`${d.ref}: negative amount requested`);
    certified += d.requested_amount;
    prior = d.completed;
  }
}
