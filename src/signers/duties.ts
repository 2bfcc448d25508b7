/**
 * Checking signed duties on the server (docs/duties.md): the signing documents come from
 * src/sdk/duties.ts — one definition for the signer and the verifier — and Ed25519 verification
 * from src/platform/crypto/ed25519.ts. Which party a chain role signs for lives here too.
 */
import { signingDigestHex, verifyDocumentSignature } from '../platform/crypto/ed25519.js';
import type { Draw, LienWaiver, Project } from '../projects/facts.js';
import { PROFILES, type SignerRole } from '../projects/profiles.js';
import {
  drawSigningDocument,
  notarialActDocument,
  waiverSigningDocument,
  type NotarialActTerms,
} from '../sdk/duties.js';
import { activeKeyOf, type Signer } from './facts.js';

export { drawSigningDocument, notarialActDocument, waiverSigningDocument, type NotarialActTerms };

/** SHA-256 (hex) of the draw's application as computed: what its signers sign. */
export const drawApplicationSha256 = (draw: Draw): string => signingDigestHex(drawSigningDocument(draw));
export const waiverSha256 = (waiver: LienWaiver): string => signingDigestHex(waiverSigningDocument(waiver));

/** Whether the signer's active key signed this document. */
export function signedBy(
  signer: Signer | undefined,
  document: Record<string, unknown>,
  signature: string,
): boolean {
  const key = activeKeyOf(signer);
  return key !== null && verifyDocumentSignature(key.public_key, document, signature);
}

/**
 * The party a certification-chain role signs for: the chain's first role for the project's
 * general contractor (construction: Contractor), the second for its architect (Architect), the
 * third for the lender org (Lender). Profiles without an architect party on the project read the
 * second role as the architect too, so a project without one cannot get that role signed.
 */
export type RoleParty =
  { kind: 'entity'; entity_id: string | null; party: string } | { kind: 'lender'; org_id: string };

export function partyOfRole(project: Project, role: SignerRole): RoleParty | null {
  const index = PROFILES[project.profile].certification_chain.indexOf(role);
  if (index === 0)
    return { kind: 'entity', entity_id: project.general_contractor, party: 'the general contractor' };
  if (index === 1) return { kind: 'entity', entity_id: project.architect, party: 'the architect' };
  if (index === 2) return { kind: 'lender', org_id: project.org_id };
  return null;
}

/** Why the signer may not sign the role on the project's draws, or null when it may. */
export function roleMismatch(signer: Signer, project: Project, role: SignerRole): string | null {
  if (signer.capacity !== role) return `${signer.id} was enrolled as ${signer.capacity}, not ${role}`;
  const party = partyOfRole(project, role);
  if (party === null) return `${role} is not in the ${project.profile} chain`;
  if (party.kind === 'lender')
    return signer.entity_id === null && signer.org_id === party.org_id
      ? null
      : `${role} must be signed by a signer of the lender org`;
  return party.entity_id !== null && signer.entity_id === party.entity_id
    ? null
    : `${role} must be signed by a signer of ${party.party} (${party.entity_id ?? 'none on the project'})`;
}
