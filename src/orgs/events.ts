/**
 * Events of organizations and their API keys. Key material never enters the ledger: only its
 * HMAC digest under the server pepper.
 */
import type { ApiKeyMode, ApiKeyScope } from '../platform/crypto/api-key.js';

/** A lender organization exists under this id and name. */
export interface OrganizationRegistered {
  org_id: string;
  name: string;
}

/**
 * The organization is the platform operator: it alone may hold platform scopes (`registry:admin`).
 * Appended once, when the first start bootstraps the operator; a later designation is ignored.
 */
export interface PlatformOperatorDesignated {
  org_id: string;
}

/** A key was issued to an organization with these scopes; `digest` = HMAC-SHA256(pepper, key). */
export interface ApiKeyIssued {
  key_id: string;
  org_id: string;
  digest: string;
  scopes: ApiKeyScope[];
  mode: ApiKeyMode;
  label: string | null;
}

/** A key stopped being accepted from this moment on. */
export interface ApiKeyRevoked {
  key_id: string;
  org_id: string;
  reason: string | null;
}

export type OrgEvent =
  | { type: 'OrganizationRegistered'; data: OrganizationRegistered }
  | { type: 'PlatformOperatorDesignated'; data: PlatformOperatorDesignated }
  | { type: 'ApiKeyIssued'; data: ApiKeyIssued }
  | { type: 'ApiKeyRevoked'; data: ApiKeyRevoked };

export const orgStream = (orgId: string): string => `org-${orgId}`;
export const keyStream = (keyId: string): string => `key-${keyId}`;
