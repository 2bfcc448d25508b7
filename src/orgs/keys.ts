/**
 * Issuing, revoking and resolving API keys (SPEC §1). Deciders are pure; the key and its signing
 * secret are returned once and never stored: the ledger holds the digest, and the signing secret
 * is derived from the server signing key and the key id whenever a response is signed.
 */
import { createHmac } from 'node:crypto';
import {
  generateApiKey,
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
} from './events.js';

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

/** Finds the org by name or registers it, then issues a key. Pure but for the random bytes it is given. */
export function decideIssueKey(
  state: KeysState,
  input: IssueKeyInput,
): { events: EventInput[]; result: IssuedKey } {
  const name = input.org_name.trim();
  const existing = state.org_by_name[name.toLowerCase()];
  const events: EventInput[] = [];
  const org_id = existing ?? idFromUuid('org_', input.event_id);
  if (!existing) {
    const data: OrganizationRegistered = { org_id, name };
    events.push({ stream: orgStream(org_id), type: 'OrganizationRegistered', data });
  }
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
  const keyId = state.by_digest[keyDigest(pepper, parsed.key)];
  const record: KeyRecord | undefined = keyId === undefined ? undefined : state.keys[keyId];
  if (!record || record.revoked_at !== null) return null;
  return { key_id: record.key_id, org_id: record.org_id, scopes: record.scopes, mode: record.mode };
}
