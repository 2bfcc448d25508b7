/**
 * MARKET rail (DOMAIN §8): how fast change orders are growing each contract, and material cost
 * indexes running above their baselines.
 */
import type { ChangeOrder, CostIndex, IsoDate, Project } from '../projects/facts.js';
import { dayOf, daysBetween, latestOf } from './dates.js';
import { finding, type RailFinding } from './findings.js';
import { keyOf, latestPer, observationsOf, siteOf } from './observations.js';
import { RAIL_PATHS, type Rail, type RailFacts } from './rail.js';
import { evaluateWith, observed, type FactCheck } from './coverage.js';
import { settled } from './thresholds.js';

/** DOMAIN §8: executed change orders adding more than 2 % of the contract sum per month. */
export const MARKET_CO_VELOCITY_PCT_PER_MONTH = 2;
/**
 * Trailing window the velocity is measured over: 90 days (three months) — long enough that one
 * change order does not read as a trend, short enough to show today's pace, not the lifetime's.
 */
export const MARKET_CO_WINDOW_DAYS = 90;
/** Days per month when turning the window into months (90 days = 3 months). */
export const MARKET_DAYS_PER_MONTH = 30;
/** DOMAIN §8: a cost index more than 10 % above its baseline. */
export const MARKET_COST_ESCALATION_PCT = 10;

/** Executed in (today − window, today]; net of deductive change orders. */
function recentChangeOrders(facts: RailFacts, project: Project, today: IsoDate): ChangeOrder[] {
  return facts.change_orders.filter((co) => {
    if (co.project_id !== project.id || co.executed_on === null) return false;
    const age = daysBetween(co.executed_on, today);
    return age >= 0 && age < MARKET_CO_WINDOW_DAYS;
  });
}

function coVelocity(facts: RailFacts, project: Project, today: IsoDate): RailFinding[] {
  const recent = recentChangeOrders(facts, project, today);
  if (recent.length === 0 || project.contract_sum <= 0) return [];
  const net = recent.reduce((sum, co) => sum + co.amount, 0);
  const months = MARKET_CO_WINDOW_DAYS / MARKET_DAYS_PER_MONTH;
  // One division, so the 2 %-per-month boundary is exact in floating point.
  const velocity = (net * 100) / (project.contract_sum * months);
  if (velocity <= MARKET_CO_VELOCITY_PCT_PER_MONTH) return [];
  return [
    finding('MARKET_CO_VELOCITY', 'WARNING', {
      project_id: project.id,
      entity_id: project.general_contractor,
      title: 'Change orders growing the contract fast',
      detail: `${recent.length} change order(s) executed in the last ${MARKET_CO_WINDOW_DAYS} days add ${(net / 100).toFixed(2)} USD: ${velocity.toFixed(2)} % of the contract per month (limit ${MARKET_CO_VELOCITY_PCT_PER_MONTH} %).`,
      evidence: [
        { kind: 'project', id: project.id },
        ...recent.map((co) => ({ kind: 'change_order' as const, id: co.id })),
      ],
      observed_on:
        latestOf(recent.flatMap((co) => (co.executed_on === null ? [] : [co.executed_on]))) ?? today,
    }),
  ];
}

function costEscalation(c: CostIndex): RailFinding[] {
  // Settled: index 1.1 over a baseline of 1 is exactly 10 %, not 10.000000000000009 %. Divided
  // before it is scaled: (index − baseline) × 100 overflows to Infinity for figures near 1e308
  // (1.05e308 over 1e308 read +Infinity %, over the limit, for a 5 % rise).
  const escalation = settled(((c.index - c.baseline) / c.baseline) * 100);
  if (!(escalation > MARKET_COST_ESCALATION_PCT)) return [];
  return [
    finding('MARKET_COST_ESCALATION', 'WARNING', {
      project_id: c.project_id,
      entity_id: c.entity_id,
      title: `${c.material} cost escalation`,
      detail: `${c.material} index ${c.index} vs baseline ${c.baseline}: +${escalation.toFixed(1)} % (limit ${MARKET_COST_ESCALATION_PCT} %).`,
      evidence: [{ kind: 'observation', id: c.id }],
      observed_on: c.observed_on,
    }),
  ];
}

export function marketFindings(facts: RailFacts, now: Date): RailFinding[] {
  const today = dayOf(now);
  const indexes = latestPer(observationsOf(facts, 'cost_index'), (c) => keyOf(siteOf(c), c.material));
  return [...facts.projects.flatMap((p) => coVelocity(facts, p, today)), ...indexes.flatMap(costEscalation)];
}

/** The facts the MARKET rail reads (DOMAIN §8 table): none of them → INSUFFICIENT_DATA. */
export const MARKET_FACTS: readonly FactCheck[] = [
  observed('cost_index'),
  { name: 'change_orders', present: (facts) => facts.change_orders.length > 0 },
];

export const MARKET_RAIL: Rail = {
  name: 'MARKET',
  path: RAIL_PATHS.MARKET,
  evaluate: evaluateWith('MARKET', MARKET_FACTS, marketFindings),
};
