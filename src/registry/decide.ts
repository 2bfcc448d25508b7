/**
 * RegisterEntity → EntityRegistered (pure). An EIN, UEI or CAGE already held by another entity is
 * a duplicate registration: a typed CONFLICT rejection (SPEC §2, 409), nothing is recorded.
 */
import type { EventInput } from '../platform/ledger/envelope.js';
import { idFromUuid } from '../platform/ids.js';
import type { EntityRole, RegisterEntityBody } from './contract.js';
import { entityStream, type EntityRegisteredData } from './events.js';
import { canonicalCode, canonicalEin, nameKey } from './normalize.js';
import { own, type RegistryState } from './state.js';

export const ENTITY_ID_PREFIX = 'ent_';

export interface RegisterEntity {
  /** The body, already parsed by `RegisterEntityBody`. */
  body: RegisterEntityBody;
  /** The registering organization. */
  org_id: string;
  /** The event id (UUIDv5 from an Idempotency-Key, else v7); the entity id derives from it. */
  event_id: string;
}

export type IdentifierField = 'ein' | 'uei' | 'cage';

export interface RegisterEntityRejection {
  code: 'CONFLICT';
  detail: string;
  conflicts: { field: IdentifierField; value: string; entity_id: string }[];
}

export type RegisterEntityDecision =
  | { ok: true; entity_id: string; events: [EventInput<'EntityRegistered', EntityRegisteredData>] }
  | { ok: false; rejection: RegisterEntityRejection };

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/** Aliases that add a name: trimmed, none equal (after normalization) to the legal name or each other. */
function distinctAliases(legalName: string, aliases: readonly string[]): string[] {
  const seen = new Set([nameKey(legalName)]);
  const out: string[] = [];
  for (const alias of aliases) {
    const key = nameKey(alias);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(alias.trim());
  }
  return out;
}

function entityData(command: RegisterEntity, entityId: string): EntityRegisteredData {
  const { body } = command;
  const legalName = body.legal_name.trim();
  return {
    entity_id: entityId,
    legal_name: legalName,
    aliases: distinctAliases(legalName, body.aliases ?? []),
    ein: body.ein === undefined ? null : (canonicalEin(body.ein) ?? null),
    uei: canonicalCode(body.uei),
    cage: canonicalCode(body.cage),
    roles: unique<EntityRole>(body.roles),
    business_types: unique((body.business_types ?? []).map((code) => code.trim().toUpperCase())),
    state: body.state ?? null,
  };
}

function conflictsOf(state: RegistryState, data: EntityRegisteredData): RegisterEntityRejection['conflicts'] {
  const checks: [IdentifierField, string | null, Record<string, string>][] = [
    ['ein', data.ein, state.entity_by_ein],
    ['uei', data.uei, state.entity_by_uei],
    ['cage', data.cage, state.entity_by_cage],
  ];
  const out: RegisterEntityRejection['conflicts'] = [];
  for (const [field, value, index] of checks) {
    if (value === null) continue;
    const holder = own(index, value);
    // The entity this very command registered (an idempotent retry) is not a duplicate of itself.
    if (holder !== undefined && holder !== data.entity_id) out.push({ field, value, entity_id: holder });
  }
  return out;
}

export function decideRegisterEntity(state: RegistryState, command: RegisterEntity): RegisterEntityDecision {
  const entityId = idFromUuid(ENTITY_ID_PREFIX, command.event_id);
  const data = entityData(command, entityId);
  const conflicts = conflictsOf(state, data);
  if (conflicts.length > 0) {
    const held = conflicts.map((c) => `${c.field.toUpperCase()} ${c.value} (${c.entity_id})`).join(', ');
    return {
      ok: false,
      rejection: { code: 'CONFLICT', detail: `already registered: ${held}`, conflicts },
    };
  }
  return {
    ok: true,
    entity_id: entityId,
    events: [{ id: command.event_id, stream: entityStream(entityId), type: 'EntityRegistered', data }],
  };
}
