/**
 * Demo key issuance with every event id fixed. `orgs/issue.ts` fixes only the first event's id, so
 * issuing to a new organization (OrganizationRegistered + ApiKeyIssued) gives the second event a
 * fresh UUIDv7 and the ledger hashes would differ run to run; here each event's id is derived from
 * the demo seed and its position.
 */
import { keys as keysProjection } from '../../projections/keys.js';
import { decideIssueKey, type IssuedKey } from '../orgs/keys.js';
import type { ApiKeyScope, RandomBytes } from '../platform/crypto/api-key.js';
import { derivedEventId, idFromUuid } from '../platform/ids.js';
import type { Ledger } from '../platform/ledger/ledger.js';
import type { ProjectionRuntime } from '../platform/projections/runtime.js';
import type { ServerSecrets } from '../platform/secrets.js';

export interface DemoKeyRequest {
  org_name: string;
  scopes: ApiKeyScope[];
  label: string;
  /** Names the issuance; event ids derive from it. */
  name: string;
  randomBytes: RandomBytes;
}

export async function issueDemoKey(
  ledger: Ledger,
  runtime: ProjectionRuntime,
  secrets: ServerSecrets,
  req: DemoKeyRequest,
): Promise<IssuedKey> {
  const eventId = derivedEventId(`${req.name}|0`);
  const state = () => runtime.state(keysProjection);
  const orgId = state().org_by_name[req.org_name.trim().toLowerCase()] ?? idFromUuid('org_', eventId);
  const committed = await ledger.commit(
    () => {
      const decided = decideIssueKey(state(), {
        org_name: req.org_name,
        scopes: req.scopes,
        mode: 'live',
        label: req.label,
        event_id: eventId,
        pepper: secrets.keyPepper,
        signingKey: secrets.signingKey,
        randomBytes: req.randomBytes,
      });
      return {
        events: decided.events.map((e, i) => ({ ...e, id: derivedEventId(`${req.name}|${i}`) })),
        result: decided.result,
      };
    },
    { org_id: orgId, actor: 'system', request_id: `issue-key-${eventId}` },
  );
  return committed.result;
}
