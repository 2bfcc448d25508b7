/**
 * The signers deciders (ARCHITECTURE §5): pure functions of the signers read model, the command
 * and its context. Invitation binds a capacity to a party; enrollment needs the one-time token
 * alone (before it expires) and a valid Ed25519 public key not already serving another signer of
 * the same org; revocation ends a signer's key for good.
 */
import { idFromUuid } from '../platform/ids.js';
import { ed25519KeyId, ed25519PublicKey } from '../platform/crypto/ed25519.js';
import { isUsJurisdiction } from '../projects/jurisdictions.js';
import { signersEvent, type SignersEvent } from './events.js';
import {
  ORG_CAPACITIES,
  getSigner,
  signerIdOfKey,
  type SignerCapacity,
  type SignerCommission,
  type SignersState,
} from './facts.js';

/** How long an invitation's enrollment token stays usable. */
export const INVITATION_TTL_DAYS = 7;

export interface Issue {
  path: (string | number)[];
  code: string;
  message: string;
}

export type SignersDecided =
  | { ok: true; events: SignersEvent[]; signer_id: string }
  | {
      ok: false;
      code: 'INVALID_REQUEST' | 'NOT_FOUND' | 'CONFLICT' | 'UNAUTHENTICATED';
      detail: string;
      errors?: Issue[];
    };

export interface SignersCtx {
  now: Date;
  eventId: string;
  /** Whether the registry knows the entity. */
  entityExists(entity_id: string): boolean;
}

export interface InviteSigner {
  org_id: string;
  name: string;
  capacity: SignerCapacity;
  entity_id: string | null;
  commission: SignerCommission | null;
  token_sha256: string;
}

const invalid = (detail: string, path: string, code: string): SignersDecided => ({
  ok: false,
  code: 'INVALID_REQUEST',
  detail,
  errors: [{ path: [path], code, message: detail }],
});

export function decideInviteSigner(_state: SignersState, cmd: InviteSigner, ctx: SignersCtx): SignersDecided {
  const forOrg = ORG_CAPACITIES.includes(cmd.capacity);
  if (forOrg && cmd.entity_id !== null)
    return invalid(
      `a ${cmd.capacity} signs for the lender org itself: entity_id must be null`,
      'entity_id',
      'not_allowed',
    );
  if (!forOrg && cmd.entity_id === null)
    return invalid(`a ${cmd.capacity} signs for an entity: entity_id is required`, 'entity_id', 'required');
  if (cmd.entity_id !== null && !ctx.entityExists(cmd.entity_id))
    return invalid(`unknown entity ${cmd.entity_id}`, 'entity_id', 'unknown_entity');
  if ((cmd.capacity === 'Notary') !== (cmd.commission !== null))
    return invalid('a commission is given for a Notary and only for a Notary', 'commission', 'commission');
  if (cmd.commission !== null && !isUsJurisdiction(cmd.commission.state))
    return invalid(
      `"${cmd.commission.state}" is not a US state or territory code`,
      'commission',
      'invalid_value',
    );
  const signer_id = idFromUuid('sgn_', ctx.eventId);
  const expires_at = new Date(ctx.now.getTime() + INVITATION_TTL_DAYS * 86_400_000).toISOString();
  return {
    ok: true,
    signer_id,
    events: [
      signersEvent('SignerInvited', ctx.eventId, signer_id, {
        signer_id,
        name: cmd.name,
        capacity: cmd.capacity,
        entity_id: cmd.entity_id,
        commission: cmd.commission,
        token_sha256: cmd.token_sha256,
        expires_at,
      }),
    ],
  };
}

/**
 * Enrollment with the token alone. Every token that is unknown, used, expired or revoked answers
 * the same 401, so the route tells an attacker nothing about which tokens exist.
 */
export function decideEnrollSigner(
  state: SignersState,
  cmd: { token_sha256: string; public_key: string },
  ctx: SignersCtx,
): SignersDecided {
  const signer_id = state.by_token[cmd.token_sha256];
  const signer = signer_id === undefined ? undefined : state.signers[signer_id];
  const refused: SignersDecided = {
    ok: false,
    code: 'UNAUTHENTICATED',
    detail: 'the enrollment token is unknown, used or expired',
  };
  if (!signer || signer.status !== 'INVITED') return refused;
  if (ctx.now.getTime() >= Date.parse(signer.invitation_expires_at)) return refused;
  if (ed25519PublicKey(cmd.public_key) === null)
    return invalid(
      'public_key must be a raw 32-byte Ed25519 public key in standard base64',
      'public_key',
      'invalid_key',
    );
  const key_id = ed25519KeyId(cmd.public_key);
  // Unique within the inviting org only: another org's signers with this key neither block the
  // enrollment nor answer differently (an org learns nothing of another's keys).
  if (signerIdOfKey(state, signer.org_id, key_id) !== undefined)
    return { ok: false, code: 'CONFLICT', detail: 'this public key is already enrolled for another signer' };
  return {
    ok: true,
    signer_id: signer.id,
    events: [
      signersEvent('SignerEnrolled', ctx.eventId, signer.id, {
        signer_id: signer.id,
        key_id,
        public_key: cmd.public_key,
      }),
    ],
  };
}

export function decideRevokeSigner(
  state: SignersState,
  cmd: { org_id: string; signer_id: string; reason: string },
  ctx: SignersCtx,
): SignersDecided {
  const signer = getSigner(state, cmd.org_id, cmd.signer_id);
  if (!signer) return { ok: false, code: 'NOT_FOUND', detail: `unknown signer ${cmd.signer_id}` };
  if (signer.status === 'REVOKED')
    return { ok: false, code: 'CONFLICT', detail: `${signer.id} was already revoked` };
  return {
    ok: true,
    signer_id: signer.id,
    events: [
      signersEvent('SignerRevoked', ctx.eventId, signer.id, { signer_id: signer.id, reason: cmd.reason }),
    ],
  };
}
