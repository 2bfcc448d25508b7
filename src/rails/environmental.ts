/**
 * ENVIRONMENTAL rail (DOMAIN §8): emissions against budget and environmental violations left
 * open. Each site's latest report and latest inspection speak for it: a later report within
 * budget, or a later clean inspection, supersedes an earlier one.
 */
import type { EmissionsReport, EnvironmentalInspection } from '../projects/facts.js';
import { finding, type RailFinding } from './findings.js';
import { latestPer, observationsOf, siteOf } from './observations.js';
import { RAIL_PATHS, type Rail, type RailFacts } from './rail.js';
import { evaluateWith, observed, type FactCheck } from './coverage.js';
import { exceeds } from './thresholds.js';

/**
 * DOMAIN §8 "over budget": reported tCO2e above this share of the budget. 100 % — any excess —
 * because the budget already is the allowance.
 */
export const ENV_BUDGET_LIMIT_PCT = 100;

/**
 * Compared as a share of the budget, settled (thresholds.ts): the allowance computed as
 * budget × 100 / 100 lands below the budget itself for some decimals (1000.001 → 1000.0009999…),
 * so a report exactly at budget read as over it.
 */
function overBudget(r: EmissionsReport): RailFinding[] {
  const withinBudget =
    r.budget_tco2e > 0 ? !exceeds((r.tco2e / r.budget_tco2e) * 100, ENV_BUDGET_LIMIT_PCT) : r.tco2e <= 0;
  if (withinBudget) return [];
  const share = r.budget_tco2e > 0 ? ` (${((r.tco2e / r.budget_tco2e) * 100).toFixed(1)} % of budget)` : '';
  return [
    finding('ENV_OVER_BUDGET', 'WARNING', {
      project_id: r.project_id,
      entity_id: r.entity_id,
      title: 'Emissions over budget',
      detail: `Reported ${r.tco2e} tCO2e against a budget of ${r.budget_tco2e} tCO2e${share}.`,
      evidence: [{ kind: 'observation', id: r.id }],
      observed_on: r.observed_on,
    }),
  ];
}

function violationOpen(i: EnvironmentalInspection): RailFinding[] {
  if (i.passed && i.violations === 0) return [];
  return [
    finding('ENV_VIOLATION_OPEN', 'WARNING', {
      project_id: i.project_id,
      entity_id: i.entity_id,
      title: 'Environmental violation open',
      detail: `Latest environmental inspection ${i.passed ? 'passed' : 'failed'} with ${i.violations} open violation(s); no clean inspection since.`,
      evidence: [{ kind: 'observation', id: i.id }],
      observed_on: i.observed_on,
    }),
  ];
}

export function environmentalFindings(facts: RailFacts): RailFinding[] {
  return [
    ...latestPer(observationsOf(facts, 'emissions_report'), siteOf).flatMap(overBudget),
    ...latestPer(observationsOf(facts, 'environmental_inspection'), siteOf).flatMap(violationOpen),
  ];
}

/** The facts the ENVIRONMENTAL rail reads (DOMAIN §8 table): none of them → INSUFFICIENT_DATA. */
export const ENVIRONMENTAL_FACTS: readonly FactCheck[] = [
  observed('emissions_report'),
  observed('environmental_inspection'),
];

export const ENVIRONMENTAL_RAIL: Rail = {
  name: 'ENVIRONMENTAL',
  path: RAIL_PATHS.ENVIRONMENTAL,
  evaluate: evaluateWith('ENVIRONMENTAL', ENVIRONMENTAL_FACTS, (facts) => environmentalFindings(facts)),
};
