/**
 * Request and response schemas of the key and org administration routes (issue 17): the platform
 * operator's `/api/admin/orgs` and `/api/admin/keys`, and a tenant admin's own `/api/keys`.
 * Strict objects: an unknown field is a 400, never ignored.
 */
import { z } from 'zod';
import { API_KEY_SCOPES } from '../platform/crypto/api-key.js';
import { freeText, nameText } from '../platform/http/validate.js';

const Scope = z.enum(API_KEY_SCOPES);
/** An org's name, a key's label, a revocation's reason: kept in the ledger, so no control characters. */
export const OrgName = nameText(200);
export const Label = nameText(100);
export const RevocationReason = freeText(500);
export const ORG_ID = /^org_[a-z2-7]{16}$/;
export const KEY_ID = /^key_[A-Za-z0-9]{1,64}$/;

export const CreateOrgBody = z.strictObject({
  name: OrgName,
});

/** A tenant admin's key request: for its own org, scopes it holds itself. */
export const CreateOwnKeyBody = z.strictObject({
  scopes: z.array(Scope).min(1).max(API_KEY_SCOPES.length),
  mode: z.enum(['live', 'test']).default('live'),
  label: Label.optional(),
});

/** The platform operator's key request: for any org, named by id. */
export const CreateKeyBody = CreateOwnKeyBody.extend({
  org_id: z.string().regex(ORG_ID, 'an organization id, org_…'),
});

export const RevokeKeyBody = z.strictObject({
  reason: RevocationReason.optional(),
});

/** The key a revocation names, in its path: a malformed id is a 400, never looked up or echoed. */
export const KeyParams = z.strictObject({
  id: z.string().regex(KEY_ID, 'a key id (key_…)'),
});

export const KeyListQuery = z.strictObject({
  org_id: z.string().regex(ORG_ID, 'an organization id, org_…').optional(),
});

/** A tenant lists its own org's keys only: no parameter (`org_id` included) is taken. */
export const OwnKeyListQuery = z.strictObject({});

export const OrgSchema = z.strictObject({
  org_id: z.string(),
  name: z.string(),
  registered_at: z.string(),
  platform_operator: z.boolean(),
});

/** A key as listed: never its digest or secret. */
export const KeySummarySchema = z.strictObject({
  key_id: z.string(),
  org_id: z.string(),
  scopes: z.array(Scope),
  mode: z.enum(['live', 'test']),
  label: z.string().nullable(),
  issued_at: z.string(),
  revoked_at: z.string().nullable(),
});

/** The one answer that carries the key and its signing secret: they are not shown again. */
export const IssuedKeySchema = z.strictObject({
  key_id: z.string(),
  org_id: z.string(),
  org_name: z.string(),
  scopes: z.array(Scope),
  mode: z.enum(['live', 'test']),
  label: z.string().nullable(),
  key: z.string(),
  signing_secret: z.string(),
  seq: z.number().int(),
});

export const OrgListSchema = z.strictObject({ data: z.array(OrgSchema) });
export const KeyListSchema = z.strictObject({ data: z.array(KeySummarySchema) });
export const RevokedKeySchema = z.strictObject({
  key_id: z.string(),
  revoked_at: z.string(),
  seq: z.number().int(),
});
export const CreatedOrgSchema = OrgSchema.extend({ seq: z.number().int() });
