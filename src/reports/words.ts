/**
 * The report's words: every enum a reader would otherwise see raw (NON_RESPONSIVE, GOOD_STANDING,
 * RELEASE_WITH_CONDITIONS…) in plain English, and what each behavioral state and PRAL means
 * (DOMAIN §5–§6), so a credit officer reads the report without the API reference.
 */

const WORDS: Readonly<Record<string, string>> = {
  PROVISIONAL: 'Provisional',
  GOOD_STANDING: 'Good standing',
  WATCH: 'Watch',
  PROBATION: 'Probation',
  RESTRICTED: 'Restricted',
  SUSPENDED: 'Suspended',
  RELEASE: 'Release',
  RELEASE_WITH_CONDITIONS: 'Release with conditions',
  HOLD: 'Hold',
  DENY: 'Deny',
  LOW: 'Low',
  MEDIUM: 'Medium',
  HIGH: 'High',
  CLEAR: 'Clear',
  NO_VIOLATIONS: 'No findings to cure',
  NON_RESPONSIVE: 'Non-responsive',
  PREFERRED: 'Preferred',
  STANDARD: 'Standard',
  NONE: 'None',
  ESCROW: 'Joint check / escrow',
  active: 'Active',
  inactive: 'Not active',
  expired: 'Expired',
  not_registered: 'Not registered',
  excluded: 'Excluded',
  none: 'None on record',
  sam_extract: 'SAM.gov extract (imported)',
  sam_api: 'SAM.gov API (live)',
  general_contractor: 'General contractor',
  subcontractor: 'Subcontractor',
  owner: 'Owner',
  architect: 'Architect',
  inspector: 'Inspector',
  supplier: 'Supplier',
  early_payment: 'Early payment',
  supply_chain_finance: 'Supply-chain finance',
  retainage_advance: 'Retainage advance',
  ACH: 'ACH',
  RTP: 'RTP',
  SWIFT: 'SWIFT',
  Wire: 'Wire',
};

/** An enum value in words: the table first, else SNAKE_CASE / snake_case → Sentence case. */
export function words(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const known = WORDS[value];
  if (known !== undefined) return known;
  const spaced = value.replace(/_/g, ' ').toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** What each behavioral state means for a lender (DOMAIN §5). */
export const STATE_MEANINGS: Readonly<Record<string, string>> = {
  PROVISIONAL:
    'New to the bureau: fewer than three funded draws on record. Treated like good standing for payment, with less history behind it.',
  GOOD_STANDING: 'Three or more funded draws with no blocking finding, and nothing adverse since.',
  WATCH:
    'A warning finding stayed open, or the composite score dropped sharply. Payments proceed with conditions.',
  PROBATION:
    'A blocking finding, an insurance lapse or a serious safety citation. Payments are held to joint check or escrow.',
  RESTRICTED:
    'A second blocking finding within 90 days, or findings left uncured. No payment is released until it steps back up.',
  SUSPENDED: 'An active federal exclusion (SAM.gov). No payment may be released.',
};

/** What each PRAL allows (DOMAIN §6). */
export const PRAL_MEANINGS: Readonly<Record<string, string>> = {
  RELEASE: 'Payments may be released on ACH, Wire or RTP (SWIFT where the program offers it).',
  RELEASE_WITH_CONDITIONS: 'Payments may be released on ACH or Wire once the draw’s conditions are met.',
  HOLD: 'Payments only by joint check or escrow.',
  DENY: 'No payment may be released.',
};

/** An EIN with all but its last four digits masked: 12-3456789 → **-***6789. */
export function maskEin(ein: string | null): string {
  if (ein === null) return 'Not on file';
  const digits = ein.replace(/[^0-9]/g, '');
  return digits.length === 9 ? `**-***${digits.slice(5)}` : 'On file (masked)';
}

/**
 * A rule's sentence with its enum names in words and its arrows spelled out (the built-in
 * Helvetica has no →): "grade C → RELEASE_WITH_CONDITIONS" → "grade C gives Release with conditions".
 */
export function sentence(text: string): string {
  return text
    .replace(/\s*→\s*/g, ' gives ')
    .replace(
      /\b[A-Z][A-Z]+(?:_[A-Z]+)+\b|\b(?:PROVISIONAL|RELEASE|HOLD|DENY|WATCH|PROBATION|RESTRICTED|SUSPENDED)\b/g,
      (m) => words(m),
    );
}
