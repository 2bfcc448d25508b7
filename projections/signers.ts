/**
 * signers: invited and enrolled signers with their keys and revocations (docs/duties.md), what the
 * signature, waiver and notarization deciders and the payment gate read.
 */
import type { SealedEvent } from '../src/platform/ledger/envelope.js';
import type { Projection } from '../src/platform/projections/runtime.js';
import type { SignerEnrolledData, SignerInvitedData, SignerRevokedData } from '../src/signers/events.js';
import { initSignersState, orgKey, type SignersState } from '../src/signers/facts.js';

export const signersProjection: Projection<SignersState> = {
  name: 'signers',
  // 2: enrolled keys indexed per org (`by_org_key`, `<org_id>/<key_id>`), not across orgs (`by_key`).
  version: 2,
  init: initSignersState,
  evolve(state, event: SealedEvent) {
    switch (event.type) {
      case 'SignerInvited': {
        const org_id = event.meta.org_id;
        if (org_id === null) return state;
        const d = event.data as SignerInvitedData;
        state.signers[d.signer_id] = {
          id: d.signer_id,
          org_id,
          name: d.name,
          capacity: d.capacity,
          entity_id: d.entity_id,
          commission: d.commission === null ? null : { ...d.commission },
          status: 'INVITED',
          invited_at: event.recorded_at,
          invited_by: event.meta.actor,
          invitation_expires_at: d.expires_at,
          token_sha256: d.token_sha256,
          key: null,
          revoked_at: null,
          revoke_reason: null,
        };
        state.by_token[d.token_sha256] = d.signer_id;
        (state.by_org[org_id] ??= []).push(d.signer_id);
        return state;
      }
      case 'SignerEnrolled': {
        const d = event.data as SignerEnrolledData;
        const signer = state.signers[d.signer_id];
        if (!signer || signer.status !== 'INVITED') return state;
        signer.status = 'ENROLLED';
        signer.key = { key_id: d.key_id, public_key: d.public_key, enrolled_at: event.recorded_at };
        // The signer's own org (the event's meta may name none: the signer enrolls with no API key).
        state.by_org_key[orgKey(signer.org_id, d.key_id)] = d.signer_id;
        delete state.by_token[signer.token_sha256];
        return state;
      }
      case 'SignerRevoked': {
        const d = event.data as SignerRevokedData;
        const signer = state.signers[d.signer_id];
        if (!signer || signer.status === 'REVOKED') return state;
        signer.status = 'REVOKED';
        signer.revoked_at = event.recorded_at;
        signer.revoke_reason = d.reason;
        delete state.by_token[signer.token_sha256];
        return state;
      }
      default:
        return state;
    }
  },
};
