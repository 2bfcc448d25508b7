/**
 * US jurisdictions a project or notarization may name (SPEC §5 "US state code", SPEC §6
 * notarization "US state/territory code"): the 50 states, DC and the five inhabited territories.
 * Laid out ten a row so the 56 codes stay countable at a glance.
 */
// prettier-ignore
export const US_JURISDICTIONS = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'FL', 'GA',
  'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD',
  'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ',
  'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC',
  'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
  'DC',
  'PR', 'GU', 'VI', 'AS', 'MP',
] as const;

export type UsJurisdiction = (typeof US_JURISDICTIONS)[number];

export function isUsJurisdiction(code: string): code is UsJurisdiction {
  return (US_JURISDICTIONS as readonly string[]).includes(code);
}
