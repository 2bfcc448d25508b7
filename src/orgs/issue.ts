/**
 * Issuing and revoking keys through the ledger: used by the `keys` CLI, the demo seed and tests.
 */
import { keys as keysProjection, type KeysState } from '../../projections/keys.js';
import type { ApiKeyMode, ApiKeyScope, RandomBytes } from '../platform/crypto/api-key.js';
import { derivedEventId, newEventId } from '../platform/ids.js';
import type { EventInput } from '../platform/ledger/envelope.js';
import type { Ledger } from '../platform/ledger/ledger.js';
import type { ProjectionRuntime } from '../platform/projections/runtime.js';
import type { ServerSecrets } from '../platform/secrets.js';
import { decideIssueKey, decideRevokeKey, targetOrg, type IssuedKey } from './keys.js';

export interface IssueKeyRequest {
  org_name: string;
  scopes: ApiKeyScope[];
  mode?: ApiKeyMode;
  label?: string;
  /** Issue to the platform operator's org (creating and designating it on first use). */
  platform_operator?: boolean;
  /** Fixed event id (deterministic demo seeds); a fresh UUIDv7 otherwise. */
  event_id?: string;
  randomBytes?: RandomBytes;
}

/**
 * The issuance decided on `state`, every event id derived from the issuance's id (so a seeded
 * issuance is reproducible). Throws KeyIssueRefused for what the rules refuse.
 */
export function decideIssuance(
  state: KeysState,
  secrets: ServerSecrets,
  req: IssueKeyRequest,
  eventId: string,
): { events: EventInput[]; result: IssuedKey } {
  const decided = decideIssueKey(state, {
    org_name: req.org_name,
    scopes: req.scopes,
    mode: req.mode ?? 'live',
    ...(req.label !== undefined ? { label: req.label } : {}),
    ...(req.platform_operator === true ? { platform_operator: true } : {}),
    event_id: eventId,
    pepper: secrets.keyPepper,
    signingKey: secrets.signingKey,
    ...(req.randomBytes ? { randomBytes: req.randomBytes } : {}),
  });
  return {
    events: decided.events.map((e, i) => ({
      ...e,
      id: i === 0 ? eventId : derivedEventId(`${eventId}|${i}`),
    })),
    result: decided.result,
  };
}

export async function issueKey(
  ledger: Ledger,
  runtime: ProjectionRuntime,
  secrets: ServerSecrets,
  req: IssueKeyRequest,
  actor = 'system',
): Promise<IssuedKey> {
  const eventId = req.event_id ?? newEventId();
  // The org's own id goes into the events' meta, so its key events are its own in the ledger API.
  const orgId = targetOrg(runtime.state(keysProjection), req, eventId).org_id;
  const committed = await ledger.commit(
    () => decideIssuance(runtime.state(keysProjection), secrets, req, eventId),
    { org_id: orgId, actor, request_id: `issue-key-${eventId}` },
  );
  return committed.result;
}

export async function revokeKey(
  ledger: Ledger,
  runtime: ProjectionRuntime,
  keyId: string,
  reason: string | null,
  actor = 'system',
): Promise<'revoked' | 'unknown_key' | 'already_revoked'> {
  const committed = await ledger.commit(
    () => {
      const outcome = decideRevokeKey(runtime.state(keysProjection), keyId, reason);
      return outcome.ok
        ? { events: outcome.events, result: 'revoked' as const }
        : { events: [], result: outcome.reason };
    },
    {
      org_id: runtime.state(keysProjection).keys[keyId]?.org_id ?? null,
      actor,
      request_id: `revoke-key-${keyId}`,
    },
  );
  return committed.result;
}
