/**
 * Org and key administration over HTTP (issue 17), as pure deciders on the `keys` read model at the
 * head. Two callers with different reach:
 * - the platform operator (`platform:admin`): registers orgs, issues keys to any org, revokes any
 *   key; platform scopes go only to its own org's keys;
 * - a tenant's `admin` key: issues and revokes its own org's keys only, and only with scopes it
 *   holds itself (never a platform scope); another org's key answers exactly like an unknown one.
 * Expected refusals are ProblemErrors (SPEC §2): nothing is appended and the edge answers them.
 */
import type { KeysState } from '../../projections/keys.js';
import {
  grantsScope,
  isPlatformScope,
  type ApiKeyScope,
  type RandomBytes,
} from '../platform/crypto/api-key.js';
import { derivedEventId, idFromUuid } from '../platform/ids.js';
import type { EventInput } from '../platform/ledger/envelope.js';
import { ProblemError } from '../platform/http/problem.js';
import { orgStream, type OrganizationRegistered } from './events.js';
import { decideIssueKey, decideRevokeKey, KeyIssueRefused, type IssuedKey } from './keys.js';
import { valuesOf } from '../platform/projections/index.js';

/** Who asks: the key's org and scopes (from authentication). */
export interface KeyAdmin {
  org_id: string;
  scopes: readonly ApiKeyScope[];
  /** True for the platform operator's `platform:admin` routes. */
  platform: boolean;
}

export interface IssueCommand {
  org_id: string;
  scopes: ApiKeyScope[];
  mode: 'live' | 'test';
  label?: string | undefined;
  event_id: string;
  pepper: string;
  signingKey: string;
  randomBytes?: RandomBytes;
}

const unknownKey = (keyId: string) => new ProblemError('NOT_FOUND', `no key ${keyId}`);
const unknownOrg = (orgId: string) => new ProblemError('NOT_FOUND', `no organization ${orgId}`);

export function decideRegisterOrg(
  state: KeysState,
  name: string,
  eventId: string,
): { events: EventInput[]; result: OrganizationRegistered } {
  const trimmed = name.trim();
  if (state.org_by_name[trimmed.toLowerCase()] !== undefined)
    throw new ProblemError('CONFLICT', `an organization named "${trimmed}" is already registered`);
  const data: OrganizationRegistered = { org_id: idFromUuid('org_', eventId), name: trimmed };
  return { events: [{ stream: orgStream(data.org_id), type: 'OrganizationRegistered', data }], result: data };
}

/** The key's issuance, after the caller's reach is checked; event ids derive from `event_id`. */
export function decideIssueKeyAs(
  state: KeysState,
  admin: KeyAdmin,
  cmd: IssueCommand,
): { events: EventInput[]; result: IssuedKey } {
  const org = state.orgs[cmd.org_id];
  // A tenant names no org: it is always its own. The operator may name any registered org.
  if (!org || (!admin.platform && cmd.org_id !== admin.org_id)) throw unknownOrg(cmd.org_id);
  if (!admin.platform) {
    const beyond = cmd.scopes.filter((s) => isPlatformScope(s) || !grantsScope(admin.scopes, s));
    if (beyond.length > 0)
      throw new ProblemError('FORBIDDEN', `this key cannot grant ${beyond.join(', ')}: it does not hold it`, {
        scopes: beyond,
      });
  }
  const operator = state.operator_org_id === cmd.org_id;
  try {
    const decided = decideIssueKey(state, {
      org_name: org.name,
      scopes: cmd.scopes,
      mode: cmd.mode,
      ...(cmd.label !== undefined ? { label: cmd.label } : {}),
      ...(operator ? { platform_operator: true } : {}),
      event_id: cmd.event_id,
      pepper: cmd.pepper,
      signingKey: cmd.signingKey,
      ...(cmd.randomBytes ? { randomBytes: cmd.randomBytes } : {}),
    });
    return {
      events: decided.events.map((e, i) => ({
        ...e,
        id: i === 0 ? cmd.event_id : derivedEventId(`${cmd.event_id}|${i}`),
      })),
      result: decided.result,
    };
  } catch (error) {
    if (error instanceof KeyIssueRefused) throw new ProblemError('FORBIDDEN', error.message);
    throw error;
  }
}

export function decideRevokeKeyAs(
  state: KeysState,
  admin: KeyAdmin,
  keyId: string,
  reason: string | null,
): { events: EventInput[]; result: { key_id: string } } {
  const key = state.keys[keyId];
  if (!key || (!admin.platform && key.org_id !== admin.org_id)) throw unknownKey(keyId);
  const outcome = decideRevokeKey(state, keyId, reason);
  if (!outcome.ok) {
    if (outcome.reason === 'already_revoked')
      throw new ProblemError('CONFLICT', `key ${keyId} was already revoked at ${key.revoked_at}`);
    throw unknownKey(keyId);
  }
  return { events: outcome.events, result: { key_id: keyId } };
}

/** Keys as listed (no digest, no secret): the operator's view of one org or all, a tenant's own. */
export function listKeys(state: KeysState, admin: KeyAdmin, orgId?: string) {
  const scope = admin.platform ? orgId : admin.org_id;
  return valuesOf(state.keys)
    .filter((k) => scope === undefined || k.org_id === scope)
    .sort((a, b) => a.issued_at.localeCompare(b.issued_at) || a.key_id.localeCompare(b.key_id))
    .map((k) => ({
      key_id: k.key_id,
      org_id: k.org_id,
      scopes: k.scopes,
      mode: k.mode,
      label: k.label,
      issued_at: k.issued_at,
      revoked_at: k.revoked_at,
    }));
}

export function listOrgs(state: KeysState) {
  return valuesOf(state.orgs)
    .sort((a, b) => a.registered_at.localeCompare(b.registered_at) || a.org_id.localeCompare(b.org_id))
    .map((o) => ({ ...o, platform_operator: o.org_id === state.operator_org_id }));
}
