/**
 * What each project requires of its GC (insurance, DOMAIN §3 INSURANCE_EXPIRY) and the schedule
 * milestones it is measured against (DOMAIN §8 SCHEDULE), by profile, the way lenders and owners
 * usually write them into loan agreements and contracts.
 */
import type { CoverageType } from '../projects/facts.js';
import type { ProfileName } from '../projects/profiles.js';
import { addDays, daysFrom } from './calendar.js';
import type { MilestoneModel } from './model.js';
import { cents } from './model.js';

/** Coverage types per profile; builder's risk is written for the contract sum. */
const COVERAGES: Readonly<Record<ProfileName, readonly CoverageType[]>> = {
  construction: ['GL', 'BUILDERS_RISK', 'WORKERS_COMP', 'AUTO'],
  treasury: ['GL', 'WORKERS_COMP'],
  insurance: ['GL', 'WORKERS_COMP', 'UMBRELLA'],
  government: ['GL', 'WORKERS_COMP', 'AUTO', 'UMBRELLA'],
  supply_chain: ['GL', 'BUILDERS_RISK', 'WORKERS_COMP'],
};

const LIMITS: Readonly<Record<Exclude<CoverageType, 'BUILDERS_RISK'>, number>> = {
  GL: cents(2_000_000),
  WORKERS_COMP: cents(1_000_000),
  AUTO: cents(1_000_000),
  UMBRELLA: cents(5_000_000),
};

export function requiredCoverages(
  profile: ProfileName,
  contractSum: number,
): { type: CoverageType; min_limit: number }[] {
  return COVERAGES[profile].map((type) => ({
    type,
    min_limit: type === 'BUILDERS_RISK' ? contractSum : LIMITS[type],
  }));
}

/**
 * Milestones at fixed shares of the schedule. "Substantial Completion" is the name governance reads
 * as substantial completion for final lien waivers (governance/constants.ts).
 */
const MILESTONES: readonly (readonly [string, number])[] = [
  ['Foundations complete', 0.2],
  ['Structure topped out', 0.45],
  ['Building dried-in', 0.65],
  ['Substantial Completion', 0.95],
];

export function milestonesFor(start: string, completion: string): MilestoneModel[] {
  const span = daysFrom(start, completion);
  return MILESTONES.map(([name, share]) => ({
    name,
    due_on: addDays(start, Math.round(span * share)),
    completed_on: null,
  }));
}
