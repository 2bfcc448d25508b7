/**
 * Events of the `signers` capability (docs/duties.md): a lender invites a signer — a person
 * signing for a party in a capacity — and the signer enrolls an Ed25519 public key with the
 * invitation's one-time token; a lender can revoke a signer. Stream `signer-sgn_…`.
 * The enrollment token itself is never recorded: only its SHA-256.
 */
import type { EventInput } from '../platform/ledger/index.js';
import type { SignerCapacity, SignerCommission } from './facts.js';

export const SIGNERS_EVENT_SCHEMA = 1;

/** Attests that the org invited a signer for a party (an entity, or the org itself) in a capacity. */
export interface SignerInvitedData {
  signer_id: string;
  name: string;
  capacity: SignerCapacity;
  /** The entity the signer signs for; null = the inviting lender org itself (capacity Lender or Notary). */
  entity_id: string | null;
  /** A notary's commission (capacity Notary), else null. */
  commission: SignerCommission | null;
  /** SHA-256 (hex) of the one-time enrollment token. */
  token_sha256: string;
  expires_at: string;
}

/** Attests that the invited signer presented the token and enrolled this Ed25519 public key. */
export interface SignerEnrolledData {
  signer_id: string;
  key_id: string;
  /** Raw 32-byte Ed25519 public key, standard base64. */
  public_key: string;
}

/** Attests that the org revoked the signer and its key: its signatures no longer count. */
export interface SignerRevokedData {
  signer_id: string;
  reason: string;
}

export interface SignersEventMap {
  SignerInvited: SignerInvitedData;
  SignerEnrolled: SignerEnrolledData;
  SignerRevoked: SignerRevokedData;
}
export type SignersEventType = keyof SignersEventMap;
export type SignersEvent = {
  [T in SignersEventType]: EventInput<T, SignersEventMap[T]> & { id: string; schema: number };
}[SignersEventType];

export const signerStream = (signerId: string): string => `signer-${signerId}`;

export function signersEvent<T extends SignersEventType>(
  type: T,
  id: string,
  signerId: string,
  data: SignersEventMap[T],
): EventInput<T, SignersEventMap[T]> & { id: string; schema: number } {
  return { id, stream: signerStream(signerId), type, schema: SIGNERS_EVENT_SCHEMA, data };
}

export function isSignersEventType(type: string): type is SignersEventType {
  return type === 'SignerInvited' || type === 'SignerEnrolled' || type === 'SignerRevoked';
}
