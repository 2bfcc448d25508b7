/**
 * Which rails a governance profile lets go without evidence (issue 14: no data is not good news).
 * A rail holding none of its facts answers ELEVATED with INSUFFICIENT_DATA; `scan_all` narrowed to a
 * project and the payment gate (`no_critical_rail`) count that as not clear unless the project's
 * profile lists the rail here. DOMAIN §12 names no such column; the choices:
 * - every profile requires SYSTEM_RISK, SCHEDULE, INSURANCE and COUNTERPARTY: their facts are part
 *   of any funded project (the ledger, the draws or milestones, the required coverages and their
 *   certificates, the loan commitment), so their absence is a gap in the file, never a feed not
 *   subscribed to;
 * - the observation-fed rails (DOMAIN §1 "observations": feeds a lender may or may not subscribe
 *   to) are optional for every profile. A profile that must insist on a feed (certified payrolls
 *   on public works, say) takes the rail out of its list here; none does yet, because DOMAIN §12
 *   names no such requirement and the seeded demo funds government work before its first payroll.
 */
import type { ProfileName } from '../projects/profiles.js';
import type { RailName } from './rail.js';

const OBSERVATION_FED: readonly RailName[] = [
  'WORKFORCE',
  'SAFETY',
  'ENVIRONMENTAL',
  'PROCUREMENT',
  'EQUIPMENT',
  'WEATHER',
  'MARKET',
];

export const PROFILE_OPTIONAL_RAILS: Readonly<Record<ProfileName, readonly RailName[]>> = {
  construction: OBSERVATION_FED,
  treasury: OBSERVATION_FED,
  insurance: OBSERVATION_FED,
  government: OBSERVATION_FED,
  supply_chain: OBSERVATION_FED,
};
