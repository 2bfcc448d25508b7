/**
 * registry: governed entities with their name / EIN / UEI / CAGE indexes, SAM registrations by UEI,
 * SAM exclusion records with UEI / CAGE / normalized-name indexes, and the latest import of each
 * extract format. Pure fold; indexes are updated in place (the runtime owns the state).
 */
import type { SealedEvent } from '../src/platform/ledger/envelope.js';
import type { Projection } from '../src/platform/projections/runtime.js';
import {
  isRegistryEvent,
  type EntityRegistered,
  type SamExclusionRecorded,
  type SamExtractImported,
  type SamRegistrationRecorded,
} from '../src/registry/events.js';
import { nameKey } from '../src/registry/normalize.js';
import { emptyRegistryState, own, type RegistryState } from '../src/registry/state.js';

/** Adds `id` under `key` once, keeping insertion (ledger) order. */
function addTo(index: Record<string, string[]>, key: string | null, id: string): void {
  if (key === null || key === '') return;
  const ids = own(index, key);
  if (ids === undefined) index[key] = [id];
  else if (!ids.includes(id)) ids.push(id);
}

function removeFrom(index: Record<string, string[]>, key: string | null, id: string): void {
  if (key === null) return;
  const ids = own(index, key);
  if (ids === undefined) return;
  const kept = ids.filter((x) => x !== id);
  if (kept.length === 0) delete index[key];
  else index[key] = kept;
}

/** First holder wins: a later duplicate (decide refuses those) never steals an identifier. */
function claim(index: Record<string, string>, key: string | null, id: string): void {
  if (key !== null && own(index, key) === undefined) index[key] = id;
}

function entityRegistered(state: RegistryState, event: EntityRegistered): void {
  const d = event.data;
  state.entities[d.entity_id] = {
    ...d,
    org_id: event.meta.org_id,
    registered_at: event.recorded_at,
    seq: event.seq,
  };
  for (const name of [d.legal_name, ...d.aliases]) addTo(state.entity_names, nameKey(name), d.entity_id);
  claim(state.entity_by_ein, d.ein, d.entity_id);
  claim(state.entity_by_uei, d.uei, d.entity_id);
  claim(state.entity_by_cage, d.cage, d.entity_id);
}

function exclusionRecorded(state: RegistryState, event: SamExclusionRecorded): void {
  const { key, content_hash, record } = event.data;
  const previous = own(state.exclusions, key)?.record;
  if (previous) {
    removeFrom(state.exclusions_by_uei, previous.uei, key);
    removeFrom(state.exclusions_by_cage, previous.cage, key);
    removeFrom(state.exclusions_by_name, nameKey(previous.name), key);
  }
  state.exclusions[key] = { key, content_hash, record, seq: event.seq };
  addTo(state.exclusions_by_uei, record.uei, key);
  addTo(state.exclusions_by_cage, record.cage, key);
  addTo(state.exclusions_by_name, nameKey(record.name), key);
}

function registrationRecorded(state: RegistryState, event: SamRegistrationRecorded): void {
  const { key, content_hash, record } = event.data;
  const previous = own(state.registrations, record.uei)?.record;
  if (previous) removeFrom(state.registrations_by_cage, previous.cage, record.uei);
  state.registrations[record.uei] = { key, content_hash, record, seq: event.seq };
  addTo(state.registrations_by_cage, record.cage, record.uei);
}

function extractImported(state: RegistryState, event: SamExtractImported): void {
  const { format, file, file_sha256, as_of } = event.data;
  state.imports[format] = { file, file_sha256, as_of, seq: event.seq };
}

export const registryProjection: Projection<RegistryState> = {
  name: 'registry',
  // v2: names indexed by nameKey (spaces, invisible characters and look-alike letters ignored).
  // v3: Incorporated, Limited and P.C. dropped as designators too (the name keys change).
  version: 3,
  init: emptyRegistryState,
  evolve(state, event: SealedEvent) {
    if (!isRegistryEvent(event)) return state;
    switch (event.type) {
      case 'EntityRegistered':
        entityRegistered(state, event);
        break;
      case 'SamExclusionRecorded':
        exclusionRecorded(state, event);
        break;
      case 'SamRegistrationRecorded':
        registrationRecorded(state, event);
        break;
      case 'SamExtractImported':
        extractImported(state, event);
        break;
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
    return state;
  },
};
