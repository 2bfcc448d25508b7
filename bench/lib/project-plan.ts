/**
 * One generated construction job: who is on it, its schedule of values and an S-curve of progress,
 * and the request bodies its months produce (the same bodies `POST /api/...` accepts, SPEC §5).
 * Mostly clean, with a little of the noise real files have (a waiver with an exception, a late
 * insurance renewal, an inspection that disagrees) so scans find something now and then.
 */
import type {
  RecordDocumentBody,
  RecordObservationBody,
  RegisterProjectBody,
  SubmitDrawBody,
} from '../../src/projects/contract.js';
import type { ProfileName } from '../../src/projects/profiles.js';
import { retainageOn } from '../../src/projects/pay-application.js';
import { ASSETS, MATERIALS, TRADES, type FirmKind, type Trade } from './names.js';
import type { Rng } from './prng.js';

/** A firm the generator registers the first time a job names it. */
export interface Firm {
  kind: FirmKind;
  name: string;
  ein: string;
  state: string;
  id: string | null;
}

export interface SovPlan {
  line: number;
  trade: Trade;
  description: string;
  value: number;
  sub: Firm | null;
}

export interface JobPlan {
  ordinal: number;
  lender: number;
  name: string;
  jurisdiction: string;
  profile: ProfileName;
  /** Month index (from the dataset's first month) of registration. */
  start: number;
  /** Number of monthly draws; the last one bills the job complete. */
  months: number;
  borrower: Firm;
  gc: Firm;
  architect: Firm;
  inspector: Firm;
  supplier: Firm;
  sov: SovPlan[];
  retainage_pct: number;
  milestones: { name: string; due: number }[];
  // Running figures, updated as the job's events are generated.
  id: string | null;
  /** Per line, D+E+F of the last funded application. */
  billed: number[];
  funded: number;
  /** The last funded application, whose unconditional waiver arrives with the next one. */
  last_draw: { id: string; amount: number; through: string } | null;
  /** Applications not rejected: the next one takes the number after them (a rejected one's number is reused). */
  applications: number;
  change_orders: number;
}

export const PROFILE_MIX: readonly ProfileName[] = [
  'construction',
  'construction',
  'construction',
  'construction',
  'construction',
  'construction',
  'construction',
  'construction',
  'construction',
  'construction',
  'construction',
  'construction',
  'construction',
  'construction',
  'construction',
  'construction',
  'treasury',
  'insurance',
  'government',
  'supply_chain',
];

/** YYYY-MM-DD of day `day` of month index `month` after `base` (UTC). */
export function dateIn(baseYear: number, month: number, day: number): string {
  const d = new Date(Date.UTC(baseYear, month, day));
  return d.toISOString().slice(0, 10);
}

/** Cumulative share of the work done after `a` of `months` draws: a smooth S-curve to 1. */
export function progress(a: number, months: number): number {
  if (a >= months) return 1;
  return 0.5 - 0.5 * Math.cos((Math.PI * a) / months);
}

export function sovFor(rng: Rng, contractSum: number, subs: (trade: Trade) => Firm): SovPlan[] {
  const trades = rng.sample(TRADES, rng.int(6, 12));
  const weights = trades.map(() => rng.int(5, 30));
  const total = weights.reduce((a, b) => a + b, 0);
  let left = contractSum;
  return trades.map(([trade, label], i) => {
    const value = i === trades.length - 1 ? left : Math.round((contractSum * weights[i]!) / total);
    left -= value;
    return { line: i + 1, trade, description: label, value, sub: i === 0 ? null : subs(trade) };
  });
}

export function registerBody(job: JobPlan, startDate: string, ids: (f: Firm) => string): RegisterProjectBody {
  const contract = job.sov.reduce((a, l) => a + l.value, 0);
  const loan = Math.round(contract * 0.75);
  const end = new Date(Date.parse(startDate) + (job.months + 1) * 30 * 86_400_000).toISOString().slice(0, 10);
  const maturity = new Date(Date.parse(end) + 180 * 86_400_000).toISOString().slice(0, 10);
  return {
    name: job.name,
    profile: job.profile,
    borrower: ids(job.borrower),
    general_contractor: ids(job.gc),
    architect: ids(job.architect),
    inspector: ids(job.inspector),
    jurisdiction: job.jurisdiction as RegisterProjectBody['jurisdiction'],
    loan_amount: loan,
    equity: contract - loan,
    contract_sum: contract,
    contingency: Math.round(contract * 0.05),
    retainage_pct: job.retainage_pct,
    interest_rate_pct: 7.25,
    start_date: startDate,
    completion_date: end,
    maturity_date: maturity,
    sov: job.sov.map((l) => ({
      line: l.line,
      description: l.description,
      scheduled_value: l.value,
      trade: l.trade,
      ...(l.sub ? { subcontractor: ids(l.sub) } : {}),
    })),
    required_coverages: [
      { type: 'GL', min_limit: 100_000_000 },
      { type: 'BUILDERS_RISK', min_limit: contract },
      { type: 'WORKERS_COMP', min_limit: 50_000_000 },
    ],
    milestones: job.milestones.map((m) => ({
      name: m.name,
      due_on: new Date(Date.parse(startDate) + m.due * 30 * 86_400_000).toISOString().slice(0, 10),
    })),
  };
}

/** The application for draw `a`: lines rolling forward from the last funded one, G702 arithmetic exact. */
export function drawBody(
  job: JobPlan,
  a: number,
  period: { from: string; to: string; submitted: string },
  invoices: string[],
): { body: SubmitDrawBody; perLine: number[]; requested: number } {
  const target = progress(a, job.months);
  const perLine = job.sov.map((l, i) => Math.max(0, Math.round(l.value * target) - job.billed[i]!));
  const lines = job.sov.map((l, i) => ({
    line: l.line,
    previous: job.billed[i]!,
    this_period: perLine[i]!,
    stored_materials: 0,
  }));
  const g = lines.reduce((s, l) => s + l.previous + l.this_period, 0);
  const requested = g - retainageOn(g, job.retainage_pct) - job.funded;
  return {
    body: {
      application_no: job.applications + 1,
      period_from: period.from,
      period_to: period.to,
      submitted_on: period.submitted,
      lines,
      retainage_pct: job.retainage_pct,
      invoices,
      requested_amount: Math.max(0, requested),
    },
    perLine,
    requested: Math.max(0, requested),
  };
}

export function waiverBody(
  rng: Rng,
  claimant: string,
  drawId: string,
  amount: number,
  through: string,
  signed: string,
  unconditional: boolean,
): RecordDocumentBody {
  return {
    type: 'LIEN_WAIVER',
    claimant,
    draw_id: drawId,
    waiver_type: unconditional ? 'UNCONDITIONAL_PROGRESS' : 'CONDITIONAL_PROGRESS',
    amount,
    through_date: through,
    signed_on: signed,
    executed: true,
    ...(rng.chance(0.02)
      ? {
          exceptions: [
            { description: 'Retention on change order work excepted', amount: Math.round(amount / 50) },
          ],
        }
      : {}),
  };
}

export function inspectionBody(
  rng: Rng,
  job: JobPlan,
  inspector: string,
  drawId: string,
  on: string,
  completedPerLine: number[],
): RecordDocumentBody {
  // Now and then the inspector sees one line well behind what is billed (INSPECTION_VARIANCE).
  const behind = rng.chance(0.03) ? rng.int(0, job.sov.length - 1) : -1;
  return {
    type: 'INSPECTION_REPORT',
    draw_id: drawId,
    inspector,
    inspected_on: on,
    lines: job.sov.map((l, i) => ({
      line: l.line,
      percent_complete: Math.min(
        100,
        Math.max(0, Math.round((completedPerLine[i]! * 100) / l.value) - (i === behind ? 15 : 0)),
      ),
    })),
    stored_materials_verified: true,
  };
}

/** The weekly and monthly field facts of one job-month (DOMAIN §8 rails). */
export function observationBodies(
  rng: Rng,
  job: JobPlan,
  projectId: string,
  day: (d: number) => string,
  ids: { gc: string; sub: string | null },
): RecordObservationBody[] {
  const out: RecordObservationBody[] = [];
  const common = (d: number) => ({ project_id: projectId, observed_on: day(d) });
  for (const week of [0, 1, 2, 3]) {
    const d = 2 + week * 6;
    out.push({
      ...common(d),
      entity: ids.gc,
      kind: 'certified_payroll',
      period_from: day(d - 1),
      period_to: day(d + 5),
      headcount: rng.int(8, 90),
      prevailing_wage_ok: !rng.chance(0.01),
    });
    out.push({ ...common(d), entity: ids.gc, kind: 'hours_worked', hours: rng.int(300, 3600) });
    out.push({
      ...common(d),
      kind: 'weather_forecast',
      date: day(d + 1),
      precip_mm: rng.chance(0.15) ? rng.int(5, 40) : rng.int(0, 4),
      wind_kph: rng.int(3, 50),
      heat_index_c: rng.int(-5, 38),
    });
  }
  for (const d of [6, 19]) {
    out.push({
      ...common(d),
      entity: ids.gc,
      kind: 'equipment_log',
      asset: rng.pick(ASSETS),
      hours: rng.int(20, 180),
      utilization_pct: rng.int(30, 95),
      last_maintenance_on: day(d - rng.int(1, 5)),
      interval_hours: 250,
    });
    const line = rng.pick(job.sov).line;
    out.push({
      ...common(d),
      // A lender furnishes facts only about parties to its project (OWASP API6): the delivery is
      // the receiving sub's (else the GC's), not the supplier's, who takes no part in the project.
      entity: ids.sub ?? ids.gc,
      kind: 'material_delivery',
      material: rng.pick(MATERIALS),
      needed_by: day(d + 2),
      ...(rng.chance(0.9) ? { delivered_on: day(d + rng.int(0, 3)) } : {}),
      quantity: rng.int(1, 400),
      critical: rng.chance(0.2),
      line,
    });
  }
  out.push({
    ...common(12),
    kind: 'cost_index',
    material: rng.pick(MATERIALS),
    index: 100 + rng.int(-5, 25),
    baseline: 100,
  });
  if (rng.chance(0.5))
    out.push({ ...common(14), kind: 'emissions_report', tco2e: rng.int(10, 200), budget_tco2e: 250 });
  if (rng.chance(0.3))
    out.push({ ...common(9), kind: 'thermal_scan', temp_c: rng.int(-5, 35), concrete_pour: rng.chance(0.5) });
  if (rng.chance(0.25))
    out.push({
      ...common(16),
      kind: 'environmental_inspection',
      passed: !rng.chance(0.1),
      violations: rng.chance(0.1) ? 1 : 0,
    });
  if (rng.chance(0.04))
    out.push({
      ...common(11),
      entity: ids.sub ?? ids.gc,
      kind: 'incident',
      recordable: true,
      lost_time: rng.chance(0.3),
    });
  if (rng.chance(0.02))
    out.push({
      ...common(13),
      entity: ids.sub ?? ids.gc,
      kind: 'osha_citation',
      activity_nr: String(rng.int(1_000_000, 9_999_999)),
      type: rng.chance(0.9) ? 'S' : 'O',
      penalty: rng.int(100_000, 1_500_000),
      abate_by: day(24),
      ...(rng.chance(0.7) ? { abated_on: day(20) } : {}),
    });
  return out;
}
