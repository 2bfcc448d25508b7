/**
 * A signer: a person who signs duties (draw certifications, lien waivers, notarial acts) for a
 * party, with an enrolled Ed25519 key. The party is a registry entity (the GC, the architect, a
 * subcontractor claiming a waiver) or, with `entity_id` null, the lender org that invited it.
 */
import { PROFILES, SIGNER_ROLES } from '../projects/profiles.js';

/** What a signer signs as: a certification-chain role, a lien claimant, or a notary public. */
export const SIGNER_CAPACITIES = [...SIGNER_ROLES, 'Claimant', 'Notary'] as const;
export type SignerCapacity = (typeof SIGNER_CAPACITIES)[number];

/**
 * Capacities that sign for the lender org itself (no entity): each profile's third chain role
 * (construction Lender, treasury Treasury, insurance Underwriter, government Comptroller,
 * supply_chain Bank — see `partyOfRole`) and the notary.
 */
export const ORG_CAPACITIES: readonly SignerCapacity[] = [
  ...new Set(Object.values(PROFILES).flatMap((p) => p.certification_chain.slice(2, 3))),
  'Notary',
];

export interface SignerCommission {
  /** The notary's commission number, as the commissioning state issued it. */
  number: string;
  /** The commissioning state (US state or territory code). */
  state: string;
  /** The last day the commission is valid. */
  expires_on: string;
}

export type SignerStatus = 'INVITED' | 'ENROLLED' | 'REVOKED';

export interface Signer {
  /** `sgn_…` */
  id: string;
  org_id: string;
  name: string;
  capacity: SignerCapacity;
  entity_id: string | null;
  commission: SignerCommission | null;
  status: SignerStatus;
  invited_at: string;
  /** The API key that invited the signer. */
  invited_by: string;
  invitation_expires_at: string;
  token_sha256: string;
  /** The enrolled key, null before enrollment. */
  key: { key_id: string; public_key: string; enrolled_at: string } | null;
  revoked_at: string | null;
  revoke_reason: string | null;
}

export interface SignersState {
  signers: Record<string, Signer>;
  /** Token SHA-256 → signer id (invitations). */
  by_token: Record<string, string>;
  /**
   * `<org_id>/<key_id>` → signer id ({@link orgKey}): within an org one public key serves one
   * signer (revoked ones included). Unique per org, not across orgs: a person who signs for two
   * lenders with one key enrolls with each, and one org's keys never block nor show in another's.
   */
  by_org_key: Record<string, string>;
  by_org: Record<string, string[]>;
}

export const initSignersState = (): SignersState => ({
  signers: {},
  by_token: {},
  by_org_key: {},
  by_org: {},
});

/** The `by_org_key` key of an org's enrolled key. */
export const orgKey = (org_id: string, key_id: string): string => `${org_id}/${key_id}`;

/** The id of the org's signer the key is enrolled for (revoked or not), or undefined. */
export function signerIdOfKey(state: SignersState, org_id: string, key_id: string): string | undefined {
  const key = orgKey(org_id, key_id);
  return Object.hasOwn(state.by_org_key, key) ? state.by_org_key[key] : undefined;
}

/** The org's signer, or undefined (another org's answers as unknown). */
export function getSigner(state: SignersState, org_id: string, signer_id: string): Signer | undefined {
  return signerOfOrg(state.signers, org_id, signer_id);
}

/**
 * The org's signer among signers by id (what the payment gate holds), or undefined: another org's
 * signer — which may hold the very same key (keys are unique per org) — answers as unknown.
 */
export function signerOfOrg(
  signers: Readonly<Record<string, Signer>>,
  org_id: string,
  signer_id: string,
): Signer | undefined {
  const signer = signers[signer_id];
  return signer !== undefined && signer.org_id === org_id ? signer : undefined;
}

/** A signer whose key may sign: enrolled and not revoked. */
export function activeKeyOf(signer: Signer | undefined): { key_id: string; public_key: string } | null {
  return signer !== undefined && signer.status === 'ENROLLED' && signer.key !== null ? signer.key : null;
}

/** The response view: everything but the token hash. */
export function signerView(signer: Signer): Omit<Signer, 'token_sha256'> {
  const { token_sha256: _hidden, ...view } = signer;
  return view;
}
