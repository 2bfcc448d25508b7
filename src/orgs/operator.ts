/**
 * The platform operator (OWASP API5): its own org, created at the first start of a ledger that has
 * none, the only org that may hold `registry:admin` (global registry imports, facts about entities
 * outside any project). Its first key is returned once for the start banner to print; a ledger
 * that already has an operator bootstraps nothing, so the key is never shown again (more keys come
 * from `npm run keys -- create --operator`).
 */
import { keys as keysProjection } from '../../projections/keys.js';
import type { ApiKeyScope, RandomBytes } from '../platform/crypto/api-key.js';
import { idFromUuid, newEventId } from '../platform/ids.js';
import type { Ledger } from '../platform/ledger/ledger.js';
import type { ProjectionRuntime } from '../platform/projections/runtime.js';
import type { ServerSecrets } from '../platform/secrets.js';
import { decideIssuance } from './issue.js';
import { PLATFORM_OPERATOR_ORG, type IssuedKey } from './keys.js';

/**
 * What the operator's keys hold: the registry, entity-level facts, reads of what it furnished, and
 * org and key administration (`platform:admin`).
 */
export const OPERATOR_SCOPES: ApiKeyScope[] = [
  'governance:read',
  'governance:write',
  'ledger:read',
  'registry:admin',
  'platform:admin',
];

/**
 * Creates the platform operator and its first key unless the ledger has one; null otherwise.
 * Decided inside the commit, so two nodes starting at once bootstrap one operator, not two.
 */
export async function bootstrapPlatformOperator(
  ledger: Ledger,
  runtime: ProjectionRuntime,
  secrets: ServerSecrets,
  opts: { randomBytes?: RandomBytes; event_id?: string } = {},
): Promise<IssuedKey | null> {
  const eventId = opts.event_id ?? newEventId();
  const committed = await ledger.commit(
    () => {
      const state = runtime.state(keysProjection);
      if (state.operator_org_id !== null) return { events: [], result: null };
      return decideIssuance(
        state,
        secrets,
        {
          org_name: PLATFORM_OPERATOR_ORG,
          scopes: OPERATOR_SCOPES,
          label: 'operator-bootstrap',
          platform_operator: true,
          ...(opts.randomBytes ? { randomBytes: opts.randomBytes } : {}),
        },
        eventId,
      );
    },
    // The operator's own org (minted from the event id), never null: a key digest is no platform-wide fact.
    { org_id: idFromUuid('org_', eventId), actor: 'system', request_id: `operator-bootstrap-${eventId}` },
  );
  return committed.result;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A byte source that makes `generateApiKey` mint exactly `key` (its random part is one base62
 * character per byte below 248): how an operator key provisioned in OPERATOR_KEY_FILE is issued
 * through the same decider as a generated one. The signing-secret bytes it asks for after are unused.
 */
export function randomBytesReproducing(key: string): RandomBytes {
  const random = key.slice('pl_live_'.length, 'pl_live_'.length + 30);
  let first = true;
  return (size) => {
    if (first && size === random.length) {
      first = false;
      return new Uint8Array([...random].map((c) => BASE62.indexOf(c)));
    }
    return new Uint8Array(size);
  };
}
