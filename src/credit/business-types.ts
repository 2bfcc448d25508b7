/**
 * SAM.gov business type codes → the four groups of the bias analysis (DOMAIN §7). Used by the bias
 * analysis ONLY: scoring inputs structurally exclude business types (inputs.ts).
 *
 * Source: the "Business Types" code list of the SAM Master Extract Mapping (Public File V2 layout,
 * entity extract fields 31–32) and the SAM Functional Data Dictionary; SBA-certified program codes
 * (A6, JT, XX) come from the extract's SBA business types field (117–118). Grouping follows the
 * FPDS/SAM categories: "Minority Owned Business" and its sub-types; woman-owned including the
 * WOSB/EDWOSB variants; veteran-owned including service-disabled; small business from the codes that
 * certify small size (SAM has no plain "small business" type — size is per NAICS — so an entity
 * without one of these codes counts as "others").
 */

export const BIAS_GROUPS = ['woman_owned', 'minority_owned', 'veteran_owned', 'small_business'] as const;
export type BiasGroup = (typeof BIAS_GROUPS)[number];

export interface BusinessTypeCode {
  code: string;
  name: string;
  groups: readonly BiasGroup[];
}

/** The mapped codes; any other SAM code maps to no group. */
export const SAM_BUSINESS_TYPE_GROUPS: readonly BusinessTypeCode[] = [
  { code: 'A2', name: 'Woman Owned Business', groups: ['woman_owned'] },
  { code: '8W', name: 'Woman Owned Small Business', groups: ['woman_owned', 'small_business'] },
  {
    code: '8E',
    name: 'Economically Disadvantaged Women Owned Small Business',
    groups: ['woman_owned', 'small_business'],
  },
  { code: '8C', name: 'Joint Venture Women Owned Small Business', groups: ['woman_owned', 'small_business'] },
  {
    code: '8D',
    name: 'Joint Venture Economically Disadvantaged Women Owned Small Business',
    groups: ['woman_owned', 'small_business'],
  },
  { code: '23', name: 'Minority Owned Business', groups: ['minority_owned'] },
  { code: 'FR', name: 'Asian-Pacific American Owned', groups: ['minority_owned'] },
  { code: 'QZ', name: 'Subcontinent Asian (Asian-Indian) American Owned', groups: ['minority_owned'] },
  { code: 'OY', name: 'Black American Owned', groups: ['minority_owned'] },
  { code: 'PI', name: 'Hispanic American Owned', groups: ['minority_owned'] },
  { code: 'NB', name: 'Native American Owned', groups: ['minority_owned'] },
  { code: 'OW', name: 'American Indian Owned', groups: ['minority_owned'] },
  { code: '05', name: 'Alaskan Native Corporation Owned Firm', groups: ['minority_owned'] },
  { code: '8U', name: 'Native Hawaiian Organization Owned Firm', groups: ['minority_owned'] },
  { code: '1B', name: 'Tribally Owned Firm', groups: ['minority_owned'] },
  { code: 'A5', name: 'Veteran Owned Business', groups: ['veteran_owned'] },
  { code: 'QF', name: 'Service Disabled Veteran Owned Business', groups: ['veteran_owned'] },
  { code: '27', name: 'Self Certified Small Disadvantaged Business', groups: ['small_business'] },
  { code: '1D', name: 'Small Agricultural Cooperative', groups: ['small_business'] },
  { code: 'A6', name: 'SBA Certified 8(a) Program Participant', groups: ['small_business'] },
  { code: 'JT', name: 'SBA Certified 8(a) Joint Venture', groups: ['small_business'] },
  { code: 'XX', name: 'SBA Certified HUBZone Firm', groups: ['small_business'] },
  { code: 'JX', name: 'Self-Certified HUBZone Joint Venture', groups: ['small_business'] },
];

const BY_CODE = new Map(SAM_BUSINESS_TYPE_GROUPS.map((c) => [c.code, c.groups]));

/**
 * The groups a set of SAM business type codes puts an entity in. SBA codes may carry a certification
 * expiry appended (`A620291223`), so the first two characters are the code.
 */
export function biasGroupsOf(codes: readonly string[]): Set<BiasGroup> {
  const groups = new Set<BiasGroup>();
  for (const raw of codes)
    for (const g of BY_CODE.get(raw.trim().slice(0, 2).toUpperCase()) ?? []) groups.add(g);
  return groups;
}
