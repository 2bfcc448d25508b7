/**
 * Deliberate rail troubles (DOMAIN §8): observation series that drive a rail's findings and
 * posture. Each replaces the healthy series of its kind on one project; dates are relative to
 * `today` so the rail reads them as current.
 */
import { addDays } from './calendar.js';
import type { ObservationModel, Problem, ProjectModel } from './model.js';
import { cents, latestDraw } from './model.js';
import { crewSize, observation, replaceKind } from './observations.js';
import { STORED_LINES } from './problems-docs.js';

const on = (today: string, daysAgo: number): string => addDays(today, -daysAgo);

/**
 * WORKFORCE ELEVATED (score 60): biweekly payrolls with a three-week hole (missing), the latest
 * not meeting prevailing wage (violation) and its headcount down 42 % (swing > 40 %).
 */
export const workforceTroubles: Problem = {
  observe(m, { today }) {
    const crew = crewSize(m);
    const periods: [number, number, number, boolean][] = [
      [90, 77, crew, true],
      [76, 63, crew + 2, true],
      [41, 28, crew, true],
      [27, 14, Math.round(crew * 0.58), false],
    ];
    replaceKind(
      m,
      'certified_payroll',
      periods.map(([from, to, headcount, ok]) =>
        observation(on(today, to - 3), {
          kind: 'certified_payroll',
          entity: m.scenario.gc,
          observed_on: on(today, to - 3),
          period_from: on(today, from),
          period_to: on(today, to),
          headcount,
          prevailing_wage_ok: ok,
        }),
      ),
    );
  },
};

/**
 * SAFETY CRITICAL: a serious citation (abated), a willful one unabated past its abatement date,
 * an other-than-serious one, and three recordable incidents on a few thousand hours (TRIR ≫ 3).
 * The serious/willful citations are also the GC's PROBATION trigger (DOMAIN §5).
 */
export const safetyTroubles: Problem = {
  observe(m, { today, rng }) {
    const gc = m.scenario.gc;
    const activity = () => String(rng.int(1_500_000_000, 1_799_999_999));
    const citation = (
      daysAgo: number,
      type: string,
      penalty: number,
      abateBy: number,
      abated: number | null,
    ) =>
      // An abated citation is recorded the day its abatement is known: an abatement dated after
      // the day a fact is recorded has not happened (refused, 400).
      observation(on(today, abated ?? daysAgo), {
        kind: 'osha_citation',
        entity: gc,
        observed_on: on(today, daysAgo),
        activity_nr: activity(),
        type,
        penalty,
        abate_by: on(today, abateBy),
        ...(abated === null ? {} : { abated_on: on(today, abated) }),
      });
    const incident = (daysAgo: number, lost: boolean) =>
      observation(on(today, daysAgo), {
        kind: 'incident',
        entity: gc,
        observed_on: on(today, daysAgo),
        recordable: true,
        lost_time: lost,
      });
    m.observations.push(
      citation(60, 'S', cents(15_625), 45, 48),
      citation(25, 'W', cents(112_500), 5, null),
      citation(58, 'O', cents(2_400), 30, 32),
      incident(70, false),
      incident(40, true),
      incident(12, false),
    );
  },
};

/**
 * SCHEDULE ELEVATED: the stalled job reached its first milestone 50 days late and its second is
 * 45 days overdue and open (slippage ×2), while time runs far ahead of work (pace lag).
 */
export const scheduleSlip: Problem = {
  tweak(m, { today }) {
    const [foundations, structure] = m.milestones;
    if (!foundations || !structure) throw new Error(`${m.ref}: expected milestones`);
    foundations.completed_on = addDays(foundations.due_on, 50);
    if (foundations.completed_on >= today) throw new Error(`${m.ref}: first milestone not yet due`);
    structure.due_on = on(today, 45);
    structure.completed_on = null;
  },
};

/** ENVIRONMENTAL ELEVATED: emissions 14 % over budget and a failed stormwater inspection with two open violations. */
export const environmentalTroubles: Problem = {
  observe(m, { today }) {
    const gc = m.scenario.gc;
    replaceKind(m, 'emissions_report', [
      observation(on(today, 15), {
        kind: 'emissions_report',
        entity: gc,
        observed_on: on(today, 15),
        tco2e: 1425,
        budget_tco2e: 1250,
      }),
    ]);
    replaceKind(m, 'environmental_inspection', [
      observation(on(today, 20), {
        kind: 'environmental_inspection',
        entity: gc,
        observed_on: on(today, 20),
        passed: false,
        violations: 2,
      }),
    ]);
  },
};

/**
 * PROCUREMENT CRITICAL: the racking billed as stored on line 3 is recorded as not delivered (and
 * it is a late critical delivery); line 4's stored dock equipment has no delivery record at all.
 */
export const procurementTroubles: Problem = {
  observe(m) {
    const d = latestDraw(m);
    const observed_on = addDays(d.period_to, -2);
    m.observations.push(
      observation(observed_on, {
        kind: 'material_delivery',
        entity: 'sup.racking',
        observed_on,
        material: 'Selective pallet racking, 4,200 positions',
        needed_by: addDays(d.period_to, -5),
        quantity: 4200,
        critical: true,
        line: STORED_LINES[0],
      }),
    );
  },
};

/** EQUIPMENT ELEVATED: crane service overdue, excavator far past its interval (failure risk), an idle telehandler. */
export const equipmentTroubles: Problem = {
  observe(m, { today }) {
    const gc = m.scenario.gc;
    const log = (asset: string, hours: number, interval: number, utilization: number, serviced: number) =>
      observation(on(today, 2), {
        kind: 'equipment_log',
        entity: gc,
        observed_on: on(today, 2),
        asset,
        hours,
        utilization_pct: utilization,
        last_maintenance_on: on(today, serviced),
        interval_hours: interval,
      });
    replaceKind(m, 'equipment_log', [
      log('Liebherr 172 EC-B tower crane', 560, 500, 72, 64),
      log('CAT 336 excavator', 780, 600, 64, 80),
      log('JLG 1055 telehandler', 140, 500, 18, 30),
    ]);
  },
};

/** WEATHER: 14 days of Gulf Coast forecasts — six rain or wind days (lost workdays) and two heat-index days ≥ 39 °C. */
export const weatherTroubles: Problem = {
  observe(m, { today }) {
    const rough: Record<number, [number, number, number]> = {
      1: [24, 22, 33],
      2: [38, 30, 32],
      4: [12, 48, 31],
      6: [41, 26, 34],
      7: [18, 20, 35],
      9: [3, 52, 33],
      11: [2, 12, 40.5],
      12: [0, 10, 41.2],
    };
    const forecasts: ObservationModel[] = Array.from({ length: 14 }, (_, ahead) => {
      const [precip_mm, wind_kph, heat_index_c] = rough[ahead] ?? [1, 14, 34];
      return observation(on(today, 1), {
        kind: 'weather_forecast',
        observed_on: on(today, 1),
        date: addDays(today, ahead),
        precip_mm,
        wind_kph,
        heat_index_c,
      });
    });
    replaceKind(m, 'weather_forecast', forecasts);
  },
};

/** WEATHER (cold pour) and MARKET (cost escalation): a footing pour scanned at 3.5 °C; structural steel 14 % over baseline. */
export const coldPourAndSteel: Problem = {
  observe(m, { today }) {
    replaceKind(m, 'thermal_scan', [
      observation(on(today, 18), {
        kind: 'thermal_scan',
        entity: m.scenario.gc,
        observed_on: on(today, 18),
        temp_c: 3.5,
        concrete_pour: true,
      }),
    ]);
    m.observations.push(
      observation(on(today, 9), {
        kind: 'cost_index',
        observed_on: on(today, 9),
        material: 'Structural steel',
        index: 114,
        baseline: 100,
      }),
    );
  },
};

/** SYSTEM_RISK (rail data stale): the job's only equipment log is 75 days old. */
export const staleEquipmentData: Problem = {
  observe(m: ProjectModel, { today }) {
    replaceKind(
      m,
      'equipment_log',
      m.observations
        .filter((o) => o.body.kind === 'equipment_log')
        .map((o) =>
          observation(on(today, 75), {
            ...o.body,
            observed_on: on(today, 75),
            last_maintenance_on: on(today, 100),
          }),
        ),
    );
  },
};
