/**
 * Issuing, revoking and resolving API keys (SPEC §1). Deciders are pure; the key and its signing
 * secret are returned once and never stored: the ledger holds the digest, and the signing secret
 * is derived from the server signing key and the key id whenever a response is signed.
 */
import { createHmac } from 'node:crypto';
import {
  generateApiKey,
  isPlatformScope,
  keyDigest,
  parseApiKey,
  type ApiKeyMode,
  type ApiKeyScope,
  type RandomBytes,
} from '../platform/crypto/api-key.js';
import type { EventInput } from '../platform/ledger/envelope.js';
import { idFromUuid } from '../platform/ids.js';
import type { KeyRecord, KeysState } from '../../projections/keys.js';
import {
  keyStream,
  orgStream,
  type ApiKeyIssued,
  type ApiKeyRevoked,
  type OrganizationRegistered,
  type PlatformOperatorDesignated,
} from './events.js';

/** The platform operator's org name (SPEC §1 "platform operator"); created at first start. */
export const PLATFORM_OPERATOR_ORG = 'Plumbline Platform Operator';

/** A key request the rules refuse (a platform scope for a tenant, an operator name a tenant holds). */
export class KeyIssueRefused extends Error {
  readonly type = 'key_issue_refused' as const;
  constructor(message: string) {
    super(message);
    this.name = 'KeyIssueRefused';
  }
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `plsig_` + base62 of HMAC-SHA256(server signing key, key id): 32 bytes the server can recompute. */
export function signingSecretFor(signingKey: string, keyId: string): string {
  let value = BigInt(`0x${createHmac('sha256', signingKey).update(`signing-secret:${keyId}`).digest('hex')}`);
  let out = '';
  while (value > 0n) {
    out = BASE62[Number(value % 62n)]! + out;
    value /= 62n;
  }
  return `plsig_${out.padStart(43, '0')}`;
}

export interface IssueKeyInput {
  org_name: string;
  scopes: ApiKeyScope[];
  mode: ApiKeyMode;
  label?: string;
  /** Issue to the platform operator's org, designating `org_name` as the operator if none is yet. */
  platform_operator?: boolean;
  /** The event id of the issuing event (org ids are minted from it). */
  event_id: string;
  pepper: string;
  signingKey: string;
  randomBytes?: RandomBytes;
}

export interface IssuedKey {
  org_id: string;
  org_name: string;
  key_id: string;
  key: string;
  signing_secret: string;
  scopes: ApiKeyScope[];
}

/**
 * The org a key request names: the operator's for `platform_operator`, else the org of that name;
 * `existing` is undefined when the org is new (its id is then minted from the event id).
 */
export function targetOrg(
  state: KeysState,
  req: { org_name: string; platform_operator?: boolean },
  eventId: string,
): { org_id: string; existing: string | undefined } {
  const existing =
    req.platform_operator === true
      ? (state.operator_org_id ?? undefined)
      : state.org_by_name[req.org_name.trim().toLowerCase()];
  return { org_id: existing ?? idFromUuid('org_', eventId), existing };
}

/**
 * Finds the org by name or registers it, then issues a key. Pure but for the random bytes it is
 * given. Platform scopes go only to the platform operator's org (throws KeyIssueRefused).
 */
export function decideIssueKey(
  state: KeysState,
  input: IssueKeyInput,
): { events: EventInput[]; result: IssuedKey } {
  const name = input.org_name.trim();
  const { org_id, existing } = targetOrg(state, input, input.event_id);
  const events: EventInput[] = [];
  if (!existing) {
    if (input.platform_operator === true && state.org_by_name[name.toLowerCase()] !== undefined)
      throw new KeyIssueRefused(`"${name}" is a tenant organization; the platform operator needs its own`);
    const data: OrganizationRegistered = { org_id, name };
    events.push({ stream: orgStream(org_id), type: 'OrganizationRegistered', data });
    if (input.platform_operator === true) {
      const designated: PlatformOperatorDesignated = { org_id };
      events.push({ stream: orgStream(org_id), type: 'PlatformOperatorDesignated', data: designated });
    }
  }
  const operator = input.platform_operator === true ? org_id : state.operator_org_id;
  const platform = input.scopes.filter(isPlatformScope);
  if (platform.length > 0 && org_id !== operator)
    throw new KeyIssueRefused(`${platform.join(', ')} is granted only to the platform operator's keys`);
  const generated = generateApiKey(input.mode, input.randomBytes);
  const issued: ApiKeyIssued = {
    key_id: generated.key_id,
    org_id,
    digest: keyDigest(input.pepper, generated.key),
    scopes: [...new Set(input.scopes)].sort(),
    mode: input.mode,
    label: input.label ?? null,
  };
  events.push({ stream: keyStream(issued.key_id), type: 'ApiKeyIssued', data: issued });
  return {
    events,
    result: {
      org_id,
      org_name: existing ? state.orgs[existing]!.name : name,
      key_id: issued.key_id,
      key: generated.key,
      signing_secret: signingSecretFor(input.signingKey, issued.key_id),
      scopes: issued.scopes,
    },
  };
}

export type RevokeOutcome =
  { ok: true; events: EventInput[] } | { ok: false; reason: 'unknown_key' | 'already_revoked' };

export function decideRevokeKey(state: KeysState, keyId: string, reason: string | null): RevokeOutcome {
  const key = state.keys[keyId];
  if (!key) return { ok: false, reason: 'unknown_key' };
  if (key.revoked_at !== null) return { ok: false, reason: 'already_revoked' };
  const data: ApiKeyRevoked = { key_id: keyId, org_id: key.org_id, reason };
  return { ok: true, events: [{ stream: keyStream(keyId), type: 'ApiKeyRevoked', data }] };
}

export interface AuthenticatedKey {
  key_id: string;
  org_id: string;
  scopes: readonly ApiKeyScope[];
  mode: ApiKeyMode;
}

/**
 * Resolves a presented key: format and checksum first (no lookup for a mistyped key), then by
 * digest. Every failure is the same `null`, so callers cannot tell malformed from revoked.
 */
export function resolveKey(state: KeysState, pepper: string, presented: string): AuthenticatedKey | null {
  const parsed = parseApiKey(presented);
  if (parsed.status !== 'ok') return null;
  return liveRecord(state, state.by_digest[keyDigest(pepper, parsed.key)]);
}

/** Presented keys whose digest is remembered at once (issue 19 item 3); oldest forgotten first. */
export const REMEMBERED_KEY_DIGESTS = 10_000;

/**
 * `resolveKey` for the edge, remembering the peppered digest of keys it has found so a busy key
 * costs one map lookup instead of an HMAC per request. Only digests of keys on record are kept (a
 * flood of made-up keys cannot fill it), and the record itself is read from `state()` on every call,
 * so a revocation takes effect on the next request exactly as without the cache.
 */
export function keyResolver(
  state: () => KeysState,
  pepper: string,
): (presented: string) => AuthenticatedKey | null {
  const digests = new Map<string, string>();
  return (presented) => {
    let digest = digests.get(presented);
    if (digest === undefined) {
      const parsed = parseApiKey(presented);
      if (parsed.status !== 'ok') return null;
      digest = keyDigest(pepper, parsed.key);
      if (state().by_digest[digest] === undefined) return null;
      if (digests.size >= REMEMBERED_KEY_DIGESTS) digests.delete(digests.keys().next().value!);
      digests.set(presented, digest);
    }
    return liveRecord(state(), state().by_digest[digest]);
  };
}

/** A live key by id (a signed link names the key that asked for it); null when unknown or revoked. */
export function liveKeyById(state: KeysState, keyId: string): AuthenticatedKey | null {
  return liveRecord(state, keyId);
}

/** The key `keyId` names as the edge sees it, or null when unknown or revoked. */
function liveRecord(state: KeysState, keyId: string | undefined): AuthenticatedKey | null {
  const record: KeyRecord | undefined =
    keyId !== undefined && Object.hasOwn(state.keys, keyId) ? state.keys[keyId] : undefined;
  if (!record || record.revoked_at !== null) return null;
  return { key_id: record.key_id, org_id: record.org_id, scopes: record.scopes, mode: record.mode };
}
