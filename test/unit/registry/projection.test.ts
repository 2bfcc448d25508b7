import { expect } from 'chai';
import { registryProjection } from '../../../projections/registry.js';
import type { EventInput } from '../../../src/platform/ledger/index.js';
import {
  decideRegisterEntity,
  exclusionKey,
  recordContentHash,
  RegisterEntityBody,
  type SamExclusionRecord,
} from '../../../src/registry/index.js';
import { testId } from '../../support/events.js';
import { foldRegistry, sealAll } from './support.js';

const SOURCE = { kind: 'sam_extract', file: 'f.csv', line: 2 };

function excluded(name: string, uei: string | null, cage: string | null): SamExclusionRecord {
  return {
    classification: 'Firm',
    name,
    person: null,
    uei,
    duns: null,
    cage,
    npi: null,
    sam_number: 'S4MRTEST1',
    program: 'Reciprocal',
    agency: 'GSA',
    ct_code: null,
    type: 'Voluntary Exclusion',
    active_on: '2025-01-01',
    terminates_on: 'Indefinite',
    address: { lines: [], city: null, state_province: null, country: null, zip: null },
    cross_reference: null,
    additional_comments: null,
    record_status: null,
    created_on: null,
  };
}

function recordedExclusion(key: string, record: SamExclusionRecord, previous: string | null): EventInput {
  const data = {
    key,
    content_hash: recordContentHash(record),
    previous_hash: previous,
    record,
    source: SOURCE,
  };
  return { stream: `registry-${key}`, type: 'SamExclusionRecorded', data };
}

function entity(n: number, body: unknown): EventInput {
  const command = { body: RegisterEntityBody.parse(body), org_id: 'org_lender1', event_id: testId(n, 5) };
  const decision = decideRegisterEntity(foldRegistry([]), command);
  if (!decision.ok) throw new Error(decision.rejection.detail);
  return decision.events[0];
}

describe('registry projection', () => {
  const first = excluded('Acme Builders Inc', 'ACMEBLDRS001', '1ABC2');
  const key = exclusionKey(first);
  const amended = { ...first, name: 'Acme Holdings LLC', uei: 'ACMEBLDRS009', cage: null };
  const events = sealAll([
    entity(1, {
      legal_name: 'Keystone Framing LLC',
      aliases: ['KFL'],
      ein: '98-7654321',
      uei: 'KEYST0NE0001',
      roles: ['owner'],
    }),
    recordedExclusion(key, first, null),
    recordedExclusion(key, amended, recordContentHash(first)),
    { stream: 'test-stream', type: 'SomethingElseHappened', data: {} },
  ]);

  it('indexes an entity by normalized legal name and alias, EIN and UEI, with who registered it and when', () => {
    const state = foldRegistry(events.slice(0, 1));
    const [id] = Object.keys(state.entities);
    expect(state.entity_names).to.deep.equal({ keystoneframing: [id], kfl: [id] });
    expect(state.entity_by_ein).to.deep.equal({ '98-7654321': id });
    expect(state.entity_by_uei).to.deep.equal({ KEYST0NE0001: id });
    expect(state.entities[id!]).to.include({
      org_id: 'org_lender1',
      seq: 1,
      registered_at: events[0]!.recorded_at,
    });
  });

  it('moves an amended exclusion record between index entries instead of keeping stale ones', () => {
    const state = foldRegistry(events);
    expect(state.exclusions[key]?.record.name).to.equal('Acme Holdings LLC');
    expect(state.exclusions[key]?.content_hash).to.equal(recordContentHash(amended));
    expect(state.exclusions_by_uei).to.deep.equal({ ACMEBLDRS009: [key] });
    expect(state.exclusions_by_cage).to.deep.equal({});
    expect(state.exclusions_by_name).to.deep.equal({ acmeholdings: [key] });
  });

  it('ignores events that are not registry events', () => {
    expect(JSON.stringify(foldRegistry(events))).to.equal(JSON.stringify(foldRegistry(events.slice(0, 3))));
  });

  it('is plain JSON: a snapshot round trip, and a replay, give identical state', () => {
    const state = foldRegistry(events);
    expect(JSON.parse(JSON.stringify(state))).to.deep.equal(state);
    expect(JSON.stringify(foldRegistry(events))).to.equal(JSON.stringify(state));
    expect(registryProjection.name).to.equal('registry');
  });
});
