/**
 * EQUIPMENT rail (DOMAIN §8): each asset's latest log — service overdue, failure risk when far
 * past its service interval, and idle equipment (cost, not risk: INFO).
 */
import type { EquipmentLog } from '../projects/facts.js';
import { finding, type RailFinding } from './findings.js';
import { keyOf, latestPer, observationsOf } from './observations.js';
import { RAIL_PATHS, type Rail, type RailFacts } from './rail.js';
import { evaluateWith, observed, type FactCheck } from './coverage.js';
import { exceeds } from './thresholds.js';

/** DOMAIN §8 "maintenance overdue": operating hours since service beyond 1 × the interval. */
export const EQUIPMENT_MAINTENANCE_DUE_FACTOR = 1;
/** DOMAIN §8: failure risk when hours since service exceed 1.2 × the interval (supersedes overdue). */
export const EQUIPMENT_FAILURE_RISK_FACTOR = 1.2;
/** DOMAIN §8: utilization below 30 % is low. */
export const EQUIPMENT_LOW_UTILIZATION_PCT = 30;

function common(log: EquipmentLog) {
  return {
    project_id: log.project_id,
    entity_id: log.entity_id,
    evidence: [{ kind: 'observation' as const, id: log.id }],
    observed_on: log.observed_on,
  };
}

/** Failure risk is the overdue condition grown worse, so one asset gets one of the two. */
function serviceFindings(log: EquipmentLog): RailFinding[] {
  const ratio = log.hours / log.interval_hours;
  const detail = `${log.hours} hours since service on ${log.last_maintenance_on}, interval ${log.interval_hours} hours (${ratio.toFixed(2)} ×).`;
  if (exceeds(ratio, EQUIPMENT_FAILURE_RISK_FACTOR))
    return [
      finding('EQUIPMENT_FAILURE_RISK', 'WARNING', {
        ...common(log),
        title: `Failure risk on ${log.asset}`,
        detail,
      }),
    ];
  if (exceeds(ratio, EQUIPMENT_MAINTENANCE_DUE_FACTOR))
    return [
      finding('EQUIPMENT_MAINTENANCE_OVERDUE', 'WARNING', {
        ...common(log),
        title: `Maintenance overdue on ${log.asset}`,
        detail,
      }),
    ];
  return [];
}

function utilizationFindings(log: EquipmentLog): RailFinding[] {
  if (log.utilization_pct >= EQUIPMENT_LOW_UTILIZATION_PCT) return [];
  const detail = `Utilization ${log.utilization_pct} % (floor ${EQUIPMENT_LOW_UTILIZATION_PCT} %).`;
  return [
    finding('EQUIPMENT_LOW_UTILIZATION', 'INFO', {
      ...common(log),
      title: `Low utilization of ${log.asset}`,
      detail,
    }),
  ];
}

export function equipmentFindings(facts: RailFacts): RailFinding[] {
  const logs = latestPer(observationsOf(facts, 'equipment_log'), (l) =>
    keyOf(l.project_id, l.entity_id, l.asset),
  );
  return logs.flatMap((log) => [...serviceFindings(log), ...utilizationFindings(log)]);
}

/** The facts the EQUIPMENT rail reads (DOMAIN §8 table): none of them → INSUFFICIENT_DATA. */
export const EQUIPMENT_FACTS: readonly FactCheck[] = [observed('equipment_log')];

export const EQUIPMENT_RAIL: Rail = {
  name: 'EQUIPMENT',
  path: RAIL_PATHS.EQUIPMENT,
  evaluate: evaluateWith('EQUIPMENT', EQUIPMENT_FACTS, (facts) => equipmentFindings(facts)),
};
