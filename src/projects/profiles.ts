/**
 * Governance profiles (DOMAIN §12). A project picks one at registration; it decides which gates a
 * payment push must pass, which payment rails may carry the money, who must sign a draw, and which
 * documents must be notarized before release.
 */

/** Profile names accepted by `POST /api/projects` (SPEC §5). */
export const PROFILE_NAMES = ['construction', 'treasury', 'insurance', 'government', 'supply_chain'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

/** The profile a project gets when registration names none (DOMAIN §12: "default construction"). */
export const DEFAULT_PROFILE: ProfileName = 'construction';

/** Payment rails a profile may use (DOMAIN §12, spelled as SPEC §6 `payment-push` spells them). */
export const PAYMENT_RAILS = ['ACH', 'Wire', 'RTP', 'SWIFT'] as const;
export type PaymentRail = (typeof PAYMENT_RAILS)[number];
/**
 * What a payment push may name: a profile's electronic rails, or ESCROW — a joint check / escrow
 * disbursement, the only way DOMAIN §6 lets a HOLD draw be paid; every profile carries it.
 */
export const PUSH_RAILS = [...PAYMENT_RAILS, 'ESCROW'] as const;
export type PushRail = (typeof PUSH_RAILS)[number];

/** Every signer role any profile's certification chain uses (DOMAIN §12). */
export const SIGNER_ROLES = [
  'Contractor',
  'Architect',
  'Lender',
  'Requestor',
  'Manager',
  'Treasury',
  'Adjuster',
  'Claims',
  'Underwriter',
  'PM',
  'Director',
  'Comptroller',
  'Buyer',
  'Trade Finance',
  'Bank',
] as const;
export type SignerRole = (typeof SIGNER_ROLES)[number];

/** The construction gates, named (DOMAIN §12 / SPEC §6 payment push gate). */
export const CONSTRUCTION_GATES = [
  'verdict_fundable',
  'signatures',
  'waivers_executed',
  'notarization',
  'in_balance',
  'no_critical_rail',
] as const;
export type GateName = (typeof CONSTRUCTION_GATES)[number];

/** Document types that exist in the ledger and that a profile may require notarized. */
export type NotarizableDocumentType = 'LIEN_WAIVER';

export interface Profile {
  readonly name: ProfileName;
  /** How many gates the payment push checks (DOMAIN §12 "gates" column). */
  readonly gate_count: number;
  /**
   * The gates by name. DOMAIN §12 names only construction's six; the other profiles publish a
   * count only, so their list is empty until the payments capability names them.
   */
  readonly gates: readonly GateName[];
  readonly payment_rails: readonly PaymentRail[];
  /** Roles that must each sign a draw, in signing order (DOMAIN §12 "certification chain"). */
  readonly certification_chain: readonly SignerRole[];
  /** Document types that must be notarized before payment (construction: lien waivers, SPEC §6). */
  readonly notarized_document_types: readonly NotarizableDocumentType[];
}

/** DOMAIN §12 construction row. */
export const CONSTRUCTION_PROFILE: Profile = {
  name: 'construction',
  gate_count: 6,
  gates: CONSTRUCTION_GATES,
  payment_rails: ['ACH', 'Wire', 'RTP'],
  certification_chain: ['Contractor', 'Architect', 'Lender'],
  notarized_document_types: ['LIEN_WAIVER'],
};

/** DOMAIN §12 treasury row. */
export const TREASURY_PROFILE: Profile = {
  name: 'treasury',
  gate_count: 5,
  gates: [],
  payment_rails: ['ACH', 'Wire', 'SWIFT', 'RTP'],
  certification_chain: ['Requestor', 'Manager', 'Treasury'],
  notarized_document_types: [],
};

/** DOMAIN §12 insurance row. */
export const INSURANCE_PROFILE: Profile = {
  name: 'insurance',
  gate_count: 4,
  gates: [],
  payment_rails: ['ACH', 'Wire'],
  certification_chain: ['Adjuster', 'Claims', 'Underwriter'],
  notarized_document_types: [],
};

/** DOMAIN §12 government row. */
export const GOVERNMENT_PROFILE: Profile = {
  name: 'government',
  gate_count: 6,
  gates: [],
  payment_rails: ['ACH', 'Wire'],
  certification_chain: ['PM', 'Director', 'Comptroller'],
  notarized_document_types: [],
};

/** DOMAIN §12 supply_chain row. */
export const SUPPLY_CHAIN_PROFILE: Profile = {
  name: 'supply_chain',
  gate_count: 5,
  gates: [],
  payment_rails: ['ACH', 'SWIFT'],
  certification_chain: ['Buyer', 'Trade Finance', 'Bank'],
  notarized_document_types: [],
};

/** The profile table, by name (DOMAIN §12). */
export const PROFILES: Readonly<Record<ProfileName, Profile>> = {
  construction: CONSTRUCTION_PROFILE,
  treasury: TREASURY_PROFILE,
  insurance: INSURANCE_PROFILE,
  government: GOVERNMENT_PROFILE,
  supply_chain: SUPPLY_CHAIN_PROFILE,
};

/** Whether `role` belongs to the certification chain of `profile` (signature referential check). */
export function isChainRole(profile: ProfileName, role: string): boolean {
  return (PROFILES[profile].certification_chain as readonly string[]).includes(role);
}
