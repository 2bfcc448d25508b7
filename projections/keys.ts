/**
 * keys: organizations, API key digests, scopes and revocations — what authentication reads.
 */
import type {
  ApiKeyIssued,
  ApiKeyRevoked,
  OrganizationRegistered,
  PlatformOperatorDesignated,
} from '../src/orgs/events.js';
import type { SealedEvent } from '../src/platform/ledger/envelope.js';
import type { Projection } from '../src/platform/projections/runtime.js';

export interface OrgRecord {
  org_id: string;
  name: string;
  registered_at: string;
}

export interface KeyRecord extends ApiKeyIssued {
  issued_at: string;
  revoked_at: string | null;
}

export interface KeysState {
  orgs: Record<string, OrgRecord>;
  /** lower-cased org name → org id */
  org_by_name: Record<string, string>;
  keys: Record<string, KeyRecord>;
  /** key digest → key id */
  by_digest: Record<string, string>;
  /** The platform operator's org (the first designated), null until the first start made one. */
  operator_org_id: string | null;
}

export const keys: Projection<KeysState> = {
  name: 'keys',
  version: 2,
  init: () => ({ orgs: {}, org_by_name: {}, keys: {}, by_digest: {}, operator_org_id: null }),
  evolve(state, event: SealedEvent) {
    switch (event.type) {
      case 'OrganizationRegistered': {
        const data = event.data as OrganizationRegistered;
        state.orgs[data.org_id] = { org_id: data.org_id, name: data.name, registered_at: event.recorded_at };
        state.org_by_name[data.name.trim().toLowerCase()] = data.org_id;
        break;
      }
      case 'PlatformOperatorDesignated': {
        const data = event.data as PlatformOperatorDesignated;
        state.operator_org_id ??= data.org_id;
        break;
      }
      case 'ApiKeyIssued': {
        const data = event.data as ApiKeyIssued;
        state.keys[data.key_id] = { ...data, issued_at: event.recorded_at, revoked_at: null };
        state.by_digest[data.digest] = data.key_id;
        break;
      }
      case 'ApiKeyRevoked': {
        const data = event.data as ApiKeyRevoked;
        const key = state.keys[data.key_id];
        if (key && key.revoked_at === null) key.revoked_at = event.recorded_at;
        break;
      }
      default:
        break;
    }
    return state;
  },
};
