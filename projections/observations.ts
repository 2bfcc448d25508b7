/**
 * The `observations` read model (ARCHITECTURE §6): DOMAIN §8 rail facts by id, indexed per org,
 * project and entity in recording order. Pure; updates the state it owns in place.
 */
import type { SealedEvent } from '../src/platform/ledger/index.js';
import { appendOnlyLists, appendTo } from '../src/platform/projections/read-model-file.js';
import type { Projection } from '../src/platform/projections/runtime.js';
import type { ObservationRecordedData } from '../src/projects/events.js';
import type { Observation, ObservationsState } from '../src/projects/facts.js';

export const observationsProjection: Projection<ObservationsState> = {
  name: 'observations',
  // 2: the per-owner id lists as append-only lists (a flush writes the new ids, not the list).
  version: 2,
  init: () => ({
    observations: {},
    by_org: appendOnlyLists(),
    by_project: appendOnlyLists(),
    by_entity: appendOnlyLists(),
  }),
  evolve(state, event) {
    const org_id = event.meta.org_id;
    if (event.type !== 'ObservationRecorded' || org_id === null) return state;
    const e = event as SealedEvent<'ObservationRecorded', ObservationRecordedData>;
    // The record is a fresh object; its nested payload values are shared with the event, never written.
    const { observation_id, ...fields } = e.data;
    const observation: Observation = {
      ...fields,
      org_id,
      recorded_at: e.recorded_at,
      recorded_seq: e.seq,
      id: observation_id,
    };
    state.observations[observation_id] = observation;
    // Nothing read: an append costs the same however long the list is.
    appendTo(state.by_org, org_id, observation_id);
    if (observation.project_id !== null) appendTo(state.by_project, observation.project_id, observation_id);
    if (observation.entity_id !== null) appendTo(state.by_entity, observation.entity_id, observation_id);
    return state;
  },
};
