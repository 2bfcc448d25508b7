/**
 * Rail facts (DOMAIN §8) every project reports while it runs, at healthy values: biweekly certified
 * payrolls, monthly hours, a first-aid incident, an equipment log, an on-time critical delivery,
 * a cost index near its baseline, emissions within budget, a passed environmental inspection, a
 * warm concrete pour, benign forecasts and the milestones reached. Problem scenarios replace or
 * add to these (problems-rails.ts); a clean project's rails stay NOMINAL.
 */
import { addDays, monthEnd } from './calendar.js';
import type { ObservationModel, ProjectModel } from './model.js';
import type { Rng } from './prng.js';

/** Certified payrolls are filed biweekly; the latest period ended this many days before `today`. */
const PAYROLL_PERIOD_DAYS = 14;
const LATEST_PAYROLL_END_AGO = 6;
const PAYROLLS = 3;

type Body = ObservationModel['body'];

export const observation = (on: string, body: Body): ObservationModel => ({ on, body });

/** Crew size that fits the job: roughly one worker per $120k of contract, within 12–80. */
export function crewSize(m: ProjectModel): number {
  return Math.min(80, Math.max(12, Math.round(m.contract_sum / 12_000_000)));
}

const EQUIPMENT: Readonly<Record<string, string>> = {
  construction: 'Tower crane TC-1',
  treasury: 'Genie S-65 boom lift',
  insurance: 'Bobcat T76 loader',
  government: 'CAT 320 excavator',
  supply_chain: 'JLG 1055 telehandler',
};

export function payrolls(m: ProjectModel, today: string, rng: Rng): ObservationModel[] {
  const crew = crewSize(m);
  return Array.from({ length: PAYROLLS }, (_, i) => {
    const period_to = addDays(today, -LATEST_PAYROLL_END_AGO - PAYROLL_PERIOD_DAYS * (PAYROLLS - 1 - i));
    const observed_on = addDays(period_to, 3);
    return observation(observed_on, {
      kind: 'certified_payroll',
      entity: m.scenario.gc,
      observed_on,
      period_from: addDays(period_to, -(PAYROLL_PERIOD_DAYS - 1)),
      period_to,
      headcount: Math.round(crew * rng.real(0.9, 1.1)),
      prevailing_wage_ok: true,
    });
  });
}

/** Monthly hours for the two months before the latest application: the TRIR denominator. */
export function hoursWorked(m: ProjectModel): ObservationModel[] {
  const crew = crewSize(m);
  const latest = m.draws.at(-1)!;
  const months = m.draws.length > 1 ? [m.draws.at(-2)!.month, latest.month] : [latest.month];
  return months.map((month) => {
    const observed_on = monthEnd(month);
    return observation(addDays(observed_on, 2), {
      kind: 'hours_worked',
      entity: m.scenario.gc,
      observed_on,
      hours: crew * 8 * 21,
    });
  });
}

function siteReadings(m: ProjectModel, today: string, rng: Rng): ObservationModel[] {
  const gc = m.scenario.gc;
  const latest = m.draws.at(-1)!;
  const line = m.sov[1] ?? m.sov[0]!;
  const needed_by = addDays(latest.period_to, -10);
  return [
    observation(addDays(today, -40), {
      kind: 'incident',
      entity: gc,
      observed_on: addDays(today, -40),
      recordable: false,
      lost_time: false,
    }),
    observation(addDays(today, -3), {
      kind: 'equipment_log',
      entity: gc,
      observed_on: addDays(today, -3),
      asset: EQUIPMENT[m.scenario.profile]!,
      hours: rng.int(120, 380),
      utilization_pct: rng.int(55, 85),
      last_maintenance_on: addDays(today, -rng.int(20, 40)),
      interval_hours: 500,
    }),
    observation(addDays(needed_by, -2), {
      kind: 'material_delivery',
      entity: line.sub ?? gc,
      observed_on: addDays(needed_by, -2),
      material: `${line.description} materials`,
      needed_by,
      delivered_on: addDays(needed_by, -2),
      quantity: rng.int(20, 120),
      critical: true,
      line: line.line,
    }),
    observation(addDays(today, -10), {
      kind: 'cost_index',
      observed_on: addDays(today, -10),
      material: 'Ready-mix concrete',
      index: 100 + rng.int(10, 60) / 10,
      baseline: 100,
    }),
  ];
}

function environment(m: ProjectModel, today: string, rng: Rng): ObservationModel[] {
  const gc = m.scenario.gc;
  const budget = Math.round(m.contract_sum / 1_000_000) * 2;
  return [
    observation(addDays(today, -15), {
      kind: 'emissions_report',
      entity: gc,
      observed_on: addDays(today, -15),
      tco2e: Math.round(budget * rng.real(0.55, 0.8)),
      budget_tco2e: budget,
    }),
    observation(addDays(today, -20), {
      kind: 'environmental_inspection',
      entity: gc,
      observed_on: addDays(today, -20),
      passed: true,
      violations: 0,
    }),
  ];
}

function weather(m: ProjectModel, today: string, rng: Rng): ObservationModel[] {
  return [
    observation(addDays(today, -16), {
      kind: 'thermal_scan',
      entity: m.scenario.gc,
      observed_on: addDays(today, -16),
      temp_c: rng.int(14, 24),
      concrete_pour: true,
    }),
    ...[1, 2].map((ahead) =>
      observation(today, {
        kind: 'weather_forecast',
        observed_on: today,
        date: addDays(today, ahead),
        precip_mm: rng.int(0, 6),
        wind_kph: rng.int(8, 28),
        heat_index_c: rng.int(20, 33),
      }),
    ),
  ];
}

function milestonesReached(m: ProjectModel): ObservationModel[] {
  return m.milestones.flatMap((ms) =>
    ms.completed_on === null
      ? []
      : [
          observation(ms.completed_on, {
            kind: 'milestone',
            observed_on: ms.completed_on,
            name: ms.name,
            completed_on: ms.completed_on,
          }),
        ],
  );
}

/** The healthy baseline; called after documents so milestone dates are known. */
export function baselineObservations(m: ProjectModel, today: string, rng: Rng): void {
  m.observations = [
    ...payrolls(m, today, rng),
    ...hoursWorked(m),
    ...siteReadings(m, today, rng),
    ...environment(m, today, rng),
    ...weather(m, today, rng),
    ...milestonesReached(m),
  ];
}

/** Replaces every observation of `kind` (problems swap a healthy series for a troubled one). */
export function replaceKind(m: ProjectModel, kind: string, replacement: ObservationModel[]): void {
  m.observations = [...m.observations.filter((o) => o.body.kind !== kind), ...replacement];
}
