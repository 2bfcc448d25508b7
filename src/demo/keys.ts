/**
 * Demo key issuance with every event id fixed. `orgs/issue.ts` fixes only the first event's id, so
 * issuing to a new organization (OrganizationRegistered + ApiKeyIssued) gives the second event a
 * fresh UUIDv7 and the ledger hashes would differ run to run; here each event's id is derived from
 * the demo seed and its position.
 */
import { issueKey } from '../orgs/issue.js';
import type { IssuedKey } from '../orgs/keys.js';
import type { ApiKeyScope, RandomBytes } from '../platform/crypto/api-key.js';
import { derivedEventId } from '../platform/ids.js';
import type { Ledger } from '../platform/ledger/ledger.js';
import type { ProjectionRuntime } from '../platform/projections/runtime.js';
import type { ServerSecrets } from '../platform/secrets.js';

export interface DemoKeyRequest {
  org_name: string;
  scopes: ApiKeyScope[];
  label: string;
  /** Names the issuance; event ids derive from it. */
  name: string;
  /** Issue to the platform operator's org (creating it on first use). */
  platform_operator?: boolean;
  randomBytes: RandomBytes;
}

export async function issueDemoKey(
  ledger: Ledger,
  runtime: ProjectionRuntime,
  secrets: ServerSecrets,
  req: DemoKeyRequest,
): Promise<IssuedKey> {
  return issueKey(ledger, runtime, secrets, {
    org_name: req.org_name,
    scopes: req.scopes,
    label: req.label,
    ...(req.platform_operator === true ? { platform_operator: true } : {}),
    event_id: derivedEventId(`${req.name}|0`),
    randomBytes: req.randomBytes,
  });
}
