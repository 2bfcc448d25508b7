/**
 * WORKFORCE rail (DOMAIN §8): labor compliance and workforce stability from certified payrolls.
 * Payrolls are read per crew — one (project, contractor) pair — because each contractor files its
 * own payroll series and its own headcount.
 */
import type { CertifiedPayroll, IsoDate, Project } from '../projects/facts.js';
import { addDays, dayOf, daysBetween } from './dates.js';
import { finding, type RailFinding } from './findings.js';
import { groupBy, keyOf, observationsOf } from './observations.js';
import { isWorkComplete } from './progress.js';
import { RAIL_PATHS, type Rail, type RailFacts } from './rail.js';
import { evaluateWith, observed, type FactCheck } from './coverage.js';

/**
 * Uncovered days between two payroll periods beyond which a payroll is missing. DOMAIN §8 says
 * "payroll missing for a period"; certified payrolls are weekly, so a gap longer than one
 * week means at least one weekly payroll was never filed (shorter gaps are weekends/holidays).
 */
export const WORKFORCE_PAYROLL_MAX_GAP_DAYS = 7;
/** Days after a period ends within which its certified payroll is due (weekly filing). */
export const WORKFORCE_PAYROLL_DUE_DAYS = 7;
/** DOMAIN §8: a headcount change of more than 40 % between consecutive payrolls. */
export const WORKFORCE_HEADCOUNT_SWING_PCT = 40;

type Crew = CertifiedPayroll[];

function byPeriod(a: CertifiedPayroll, b: CertifiedPayroll): number {
  if (a.period_from !== b.period_from) return a.period_from < b.period_from ? -1 : 1;
  if (a.period_to !== b.period_to) return a.period_to < b.period_to ? -1 : 1;
  return a.recorded_seq - b.recorded_seq;
}

function missing(
  p: CertifiedPayroll,
  from: IsoDate,
  to: IsoDate,
  observed_on: IsoDate,
  ids: string[],
): RailFinding {
  return finding('WORKFORCE_PAYROLL_MISSING', 'WARNING', {
    project_id: p.project_id,
    entity_id: p.entity_id,
    title: 'Certified payroll missing',
    detail: `No certified payroll covers ${from} to ${to} (${daysBetween(from, to) + 1} days).`,
    evidence: ids.map((id) => ({ kind: 'observation', id })),
    observed_on,
  });
}

/** Gaps between filed periods, and the silence after the last one once it is overdue. */
function missingPayrolls(crew: Crew, today: IsoDate, active: boolean): RailFinding[] {
  const out: RailFinding[] = [];
  // The payroll reaching furthest so far: what is covered ends at its period_to.
  let covered: CertifiedPayroll | undefined;
  for (const p of crew) {
    if (covered !== undefined) {
      const gap = daysBetween(covered.period_to, p.period_from) - 1;
      if (gap > WORKFORCE_PAYROLL_MAX_GAP_DAYS) {
        const [from, to] = [addDays(covered.period_to, 1), addDays(p.period_from, -1)];
        out.push(missing(p, from, to, p.observed_on, [covered.id, p.id]));
      }
    }
    if (covered === undefined || p.period_to > covered.period_to) covered = p;
  }
  const silence = covered === undefined ? 0 : daysBetween(covered.period_to, today);
  if (
    active &&
    covered !== undefined &&
    silence > WORKFORCE_PAYROLL_MAX_GAP_DAYS + WORKFORCE_PAYROLL_DUE_DAYS
  )
    out.push(missing(covered, addDays(covered.period_to, 1), today, today, [covered.id]));
  return out;
}

/** A violation stands until a later payroll of the same crew certifies prevailing wages again. */
function wageViolations(crew: Crew): RailFinding[] {
  const lastCompliant = crew.findLastIndex((p) => p.prevailing_wage_ok);
  const standing = crew.slice(lastCompliant + 1).filter((p) => !p.prevailing_wage_ok);
  const last = standing.at(-1);
  if (last === undefined) return [];
  return [
    finding('WORKFORCE_WAGE_VIOLATION', 'WARNING', {
      project_id: last.project_id,
      entity_id: last.entity_id,
      title: 'Prevailing wage violation',
      detail: `${standing.length} certified payroll(s) not meeting prevailing wage, latest for ${last.period_from} to ${last.period_to}; no compliant payroll since.`,
      evidence: standing.map((p) => ({ kind: 'observation', id: p.id })),
      observed_on: last.observed_on,
    }),
  ];
}

/** Only the latest pair counts: the rail reports today's stability, not past ramp-ups. */
function headcountSwing(crew: Crew): RailFinding[] {
  const [previous, last] = crew.slice(-2);
  if (previous === undefined || last === undefined || previous.headcount <= 0) return [];
  const change = Math.abs(last.headcount - previous.headcount);
  // Decided on the whole counts: change × 100 is not exact as a double past 2^53, so a swing of
  // exactly 40 % between counts in the quadrillions read 40.00000000000001 %.
  if (BigInt(change) * 100n <= BigInt(WORKFORCE_HEADCOUNT_SWING_PCT) * BigInt(previous.headcount)) return [];
  const swingPct = (change * 100) / previous.headcount;
  return [
    finding('WORKFORCE_HEADCOUNT_SWING', 'WARNING', {
      project_id: last.project_id,
      entity_id: last.entity_id,
      title: 'Workforce headcount swing',
      detail: `Headcount moved from ${previous.headcount} to ${last.headcount} (${swingPct.toFixed(1)} %, limit ${WORKFORCE_HEADCOUNT_SWING_PCT} %).`,
      evidence: [previous, last].map((p) => ({ kind: 'observation', id: p.id })),
      observed_on: last.observed_on,
    }),
  ];
}

export function workforceFindings(facts: RailFacts, now: Date): RailFinding[] {
  const today = dayOf(now);
  const projects = new Map<string, Project>(facts.projects.map((p) => [p.id, p]));
  const payrolls = observationsOf(facts, 'certified_payroll');
  const crews = groupBy(payrolls, (p) => keyOf(p.project_id, p.entity_id));
  return [...crews.values()].flatMap((unsorted) => {
    const crew = [...unsorted].sort(byPeriod);
    const projectId = crew[0]?.project_id ?? null;
    const project = projectId === null ? undefined : projects.get(projectId);
    // Once the work is complete no further payroll is due.
    const active = project === undefined || !isWorkComplete(project, facts.draws);
    return [...missingPayrolls(crew, today, active), ...wageViolations(crew), ...headcountSwing(crew)];
  });
}

/** The facts the WORKFORCE rail reads (DOMAIN §8 table): none of them → INSUFFICIENT_DATA. */
export const WORKFORCE_FACTS: readonly FactCheck[] = [observed('certified_payroll')];

export const WORKFORCE_RAIL: Rail = {
  name: 'WORKFORCE',
  path: RAIL_PATHS.WORKFORCE,
  evaluate: evaluateWith('WORKFORCE', WORKFORCE_FACTS, workforceFindings),
};
