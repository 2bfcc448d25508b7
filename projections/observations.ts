/**
 * The `observations` read model (ARCHITECTURE §6): DOMAIN §8 rail facts by id, indexed per org,
 * project and entity in recording order (records keyed `<owner>/<seq>`, ARCHITECTURE §5). Pure; updates the state it owns in place.
 */
import type { SealedEvent } from '../src/platform/ledger/index.js';
import { appendOwned } from '../src/platform/projections/read-model-file.js';
import type { Projection } from '../src/platform/projections/runtime.js';
import type { ObservationRecordedData } from '../src/projects/events.js';
import type { Observation, ObservationsState } from '../src/projects/facts.js';

export const observationsProjection: Projection<ObservationsState> = {
  name: 'observations',
  // 2: the per-owner id lists as records keyed `<owner>/<seq>` (`by_*_seq`), not arrays.
  version: 2,
  init: () => ({ observations: {}, by_org_seq: {}, by_project_seq: {}, by_entity_seq: {} }),
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
    // One new record per list (nothing read): an append costs the same however long the list is.
    appendOwned(state.by_org_seq, org_id, e.seq, observation_id);
    if (observation.project_id !== null)
      appendOwned(state.by_project_seq, observation.project_id, e.seq, observation_id);
    if (observation.entity_id !== null)
      appendOwned(state.by_entity_seq, observation.entity_id, e.seq, observation_id);
    return state;
  },
};
