/**
 * Remediation velocity (DOMAIN §5): how an entity cures the findings of the last 365 days.
 * NO_VIOLATIONS with none; RESPONSIVE when ≥ 80 % are resolved, the median cure is ≤ 14 days and no
 * BLOCKING finding has been open > 30 days; NON_RESPONSIVE when < 40 % are resolved or a BLOCKING
 * finding has been open > 30 days; PARTIAL otherwise. Evaluated "as of" any day, so the state
 * machine can ask when an entity first became NON_RESPONSIVE.
 */
import type { FindingRecord } from '../governance/findings.js';
import type { IsoDate } from '../projects/facts.js';
import {
  BLOCKING_OPEN_LIMIT_DAYS,
  NON_RESPONSIVE_MAX_RESOLVED_SHARE,
  REMEDIATION_WINDOW_DAYS,
  RESPONSIVE_MAX_MEDIAN_CURE_DAYS,
  RESPONSIVE_MIN_RESOLVED_SHARE,
} from './constants.js';
import { daysBetween, median } from './dates.js';
import { resolvedBy } from './inputs.js';

export const REMEDIATION_VELOCITIES = ['NO_VIOLATIONS', 'RESPONSIVE', 'PARTIAL', 'NON_RESPONSIVE'] as const;
export type RemediationVelocity = (typeof REMEDIATION_VELOCITIES)[number];

/** SPEC §4 `remediation`. */
export interface Remediation {
  velocity: RemediationVelocity;
  open_findings: number;
  resolved_findings: number;
  /** Median whole days from opening to resolution of the resolved ones; null when none. */
  median_days_to_cure: number | null;
}

/** Findings opened in the 365 days up to `day` (both ends included). */
function inWindow(findings: readonly FindingRecord[], day: IsoDate): FindingRecord[] {
  return findings.filter((f) => {
    const age = daysBetween(f.opened_on, day);
    return age >= 0 && age < REMEDIATION_WINDOW_DAYS;
  });
}

/** Remediation velocity of the given findings (already attributed to one entity) as of `day`. */
export function remediationVelocity(findings: readonly FindingRecord[], day: IsoDate): Remediation {
  const window = inWindow(findings, day);
  const resolved = window.filter((f) => resolvedBy(f, day));
  const open = window.filter((f) => !resolvedBy(f, day));
  const cure = median(resolved.map((f) => daysBetween(f.opened_on, f.resolved_on!)));
  const counts = {
    open_findings: open.length,
    resolved_findings: resolved.length,
    median_days_to_cure: cure,
  };
  if (window.length === 0) return { velocity: 'NO_VIOLATIONS', ...counts };
  const share = resolved.length / window.length;
  const blockingStale = open.some(
    (f) => f.severity === 'BLOCKING' && daysBetween(f.opened_on, day) > BLOCKING_OPEN_LIMIT_DAYS,
  );
  if (share < NON_RESPONSIVE_MAX_RESOLVED_SHARE || blockingStale)
    return { velocity: 'NON_RESPONSIVE', ...counts };
  if (share >= RESPONSIVE_MIN_RESOLVED_SHARE && cure !== null && cure <= RESPONSIVE_MAX_MEDIAN_CURE_DAYS) {
    return { velocity: 'RESPONSIVE', ...counts };
  }
  return { velocity: 'PARTIAL', ...counts };
}
