import { expect } from 'chai';
import { observationsProjection } from '../../../projections/observations.js';
import { projectsProjection } from '../../../projections/projects.js';
import { idFromUuid } from '../../../src/platform/ids.js';
import type { SealedEvent } from '../../../src/platform/ledger/index.js';
import { ReadModelFile } from '../../../src/platform/projections/index.js';
import { plainStateOnDisk } from '../../../src/platform/projections/read-model-file.js';
import type { ObservationsState } from '../../../src/projects/facts.js';
import {
  decide,
  OBSERVATION_KINDS,
  ObservationResponse,
  RecordObservationBody,
} from '../../../src/projects/index.js';
import { deciderSpec, fold, sealGiven } from '../../support/decider.js';
import { ctx, ENT, ORG_A, ORG_B, observationBody, projectHistory, uuid } from './fixtures.js';

const spec = deciderSpec(projectsProjection, decide);

/** One valid body per DOMAIN §8 kind (without the shared fields). */
const KIND_SAMPLES: Record<string, Record<string, unknown>> = {
  certified_payroll: {
    period_from: '2026-03-01',
    period_to: '2026-03-07',
    headcount: 42,
    prevailing_wage_ok: true,
  },
  milestone: { name: 'Foundation complete', completed_on: '2026-03-12' },
  osha_citation: { activity_nr: '1712345', type: 'S', penalty: 1_563_400, abate_by: '2026-04-01' },
  incident: { recordable: true, lost_time: false },
  hours_worked: { hours: 12_500 },
  emissions_report: { tco2e: 310.5, budget_tco2e: 300 },
  environmental_inspection: { passed: false, violations: 2 },
  material_delivery: { material: 'Rebar #5', needed_by: '2026-03-20', quantity: 18, critical: true, line: 2 },
  equipment_log: {
    asset: 'Crane TC-2',
    hours: 260,
    utilization_pct: 28,
    last_maintenance_on: '2026-02-01',
    interval_hours: 200,
  },
  weather_forecast: { date: '2026-03-18', precip_mm: 22, wind_kph: 45, heat_index_c: 12 },
  thermal_scan: { temp_c: 3.5, concrete_pour: true },
  cost_index: { material: 'steel', index: 118.2, baseline: 100 },
};

describe('recording an observation (SPEC §5 POST /api/observations, DOMAIN §8)', () => {
  it('has a sample for exactly the DOMAIN §8 kinds', () => {
    expect(Object.keys(KIND_SAMPLES).sort()).to.deep.equal([...OBSERVATION_KINDS].sort());
  });

  for (const kind of OBSERVATION_KINDS) {
    it(`records a ${kind} that projects to the published Observation shape`, () => {
      const { h, project } = projectHistory();
      const body = observationBody({ kind, project_id: project, entity: ENT.gc, ...KIND_SAMPLES[kind] });
      const events = spec
        .given(h.given)
        .when({ type: 'RecordObservation', body }, ctx(ORG_A, 9))
        .thenAccepted();
      const state = fold(
        observationsProjection,
        sealGiven([...h.given, ...events.map((e) => ({ ...e, org_id: ORG_A }))]),
      );
      const id = idFromUuid('OBS-', uuid(9, 5));
      const obs = state.observations[id];
      expect(ObservationResponse.safeParse(obs).success, JSON.stringify(obs)).to.equal(true);
      expect(obs).to.include({
        kind,
        project_id: project,
        entity_id: ENT.gc,
        observed_on: '2026-03-10',
        org_id: ORG_A,
      });
      expect(state.by_project[project]).to.deep.equal([id]);
      expect(state.by_entity[ENT.gc]).to.deep.equal([id]);
      expect(state.by_org[ORG_A]).to.deep.equal([id]);
    });
  }

  it('fills the optional extras with null / false', () => {
    const body = observationBody({
      kind: 'material_delivery',
      material: 'Glass',
      needed_by: '2026-04-01',
      quantity: 3,
    });
    const [event] = spec.given([]).when({ type: 'RecordObservation', body }, ctx(ORG_A, 9)).thenAccepted();
    expect(event?.data).to.include({
      delivered_on: null,
      critical: false,
      line: null,
      project_id: null,
      entity_id: null,
    });
    expect(event?.stream).to.equal(`org-${ORG_A}`);
  });

  it("files the event on the project's stream, else (the platform operator's) on the entity's", () => {
    const { h, project } = projectHistory();
    const withProject = observationBody({
      kind: 'incident',
      project_id: project,
      entity: ENT.gc,
      recordable: true,
      lost_time: true,
    });
    const [a] = spec
      .given(h.given)
      .when({ type: 'RecordObservation', body: withProject }, ctx(ORG_A, 9))
      .thenAccepted();
    expect(a?.stream).to.equal(`project-${project}`);
    const entityOnly = observationBody({
      kind: 'incident',
      entity: ENT.gc,
      recordable: true,
      lost_time: true,
    });
    const [b] = spec
      .given(h.given)
      .when({ type: 'RecordObservation', body: entityOnly }, { ...ctx(ORG_B, 9), platform_operator: true })
      .thenAccepted();
    expect(b?.stream).to.equal(`entity-${ENT.gc}`);
  });

  it('refuses a tenant a fact about an entity outside any project (FORBIDDEN), even its own GC', () => {
    const { h } = projectHistory();
    const entityOnly = observationBody({
      kind: 'incident',
      entity: ENT.gc,
      recordable: true,
      lost_time: true,
    });
    spec
      .given(h.given)
      .when({ type: 'RecordObservation', body: entityOnly }, ctx(ORG_A, 9))
      .thenRejects('FORBIDDEN');
  });

  it('is NOT_FOUND, alike, for an entity unknown to the registry or taking no part in the project', () => {
    const { h, project } = projectHistory();
    for (const entity of [ENT.stranger, ENT.vendor]) {
      const body = observationBody({ kind: 'hours_worked', project_id: project, entity, hours: 10 });
      spec.given(h.given).when({ type: 'RecordObservation', body }, ctx(ORG_A, 9)).thenRejects('NOT_FOUND');
    }
  });

  it("is NOT_FOUND for another org's project", () => {
    const { h, project } = projectHistory();
    const body = observationBody({ kind: 'hours_worked', project_id: project, hours: 10 });
    spec.given(h.given).when({ type: 'RecordObservation', body }, ctx(ORG_B, 9)).thenRejects('NOT_FOUND');
  });

  it('is NOT_FOUND for an entity the registry does not know, even from the platform operator', () => {
    const body = observationBody({ kind: 'hours_worked', entity: ENT.stranger, hours: 10 });
    spec
      .given([])
      .when({ type: 'RecordObservation', body }, { ...ctx(ORG_A, 9), platform_operator: true })
      .thenRejects('NOT_FOUND');
  });

  it('is refused for a milestone the project does not have, or without a project', () => {
    const { h, project } = projectHistory();
    const unknown = observationBody({
      kind: 'milestone',
      project_id: project,
      name: 'Topping out',
      completed_on: '2026-06-01',
    });
    spec
      .given(h.given)
      .when({ type: 'RecordObservation', body: unknown }, ctx(ORG_A, 9))
      .thenRejects('INVALID_REQUEST', ['name'], 'unknown_milestone');
    const orphan = observationBody({
      kind: 'milestone',
      name: 'Foundation complete',
      completed_on: '2026-06-01',
    });
    spec
      .given(h.given)
      .when({ type: 'RecordObservation', body: orphan }, ctx(ORG_A, 9))
      .thenRejects('INVALID_REQUEST', ['project_id']);
  });

  it('is refused when observed after today (a forecast is dated the day it was taken); today itself is fine', () => {
    const { h, project } = projectHistory();
    const on = (observed_on: string) =>
      observationBody({ kind: 'hours_worked', project_id: project, hours: 10, observed_on });
    // NOW is 2026-03-15.
    spec
      .given(h.given)
      .when({ type: 'RecordObservation', body: on('2026-03-16') }, ctx(ORG_A, 9))
      .thenRejects('INVALID_REQUEST', ['observed_on'], 'out_of_range');
    spec
      .given(h.given)
      .when({ type: 'RecordObservation', body: on('2099-01-01') }, ctx(ORG_A, 9))
      .thenRejects('INVALID_REQUEST', ['observed_on'], 'out_of_range');
    spec
      .given(h.given)
      .when({ type: 'RecordObservation', body: on('2026-03-15') }, ctx(ORG_A, 9))
      .thenAccepted();
  });

  it('is refused when a milestone is reached after today, naming completed_on; today itself is fine', () => {
    // Reached ahead (on its due day, say), a milestone never slipped whenever it was really reached:
    // SCHEDULE_SLIPPAGE and the GC's schedule_performance read it as on time.
    const { h, project } = projectHistory();
    const reached = (completed_on: string) =>
      observationBody({ kind: 'milestone', project_id: project, name: 'Foundation complete', completed_on });
    // NOW is 2026-03-15; the milestone is due 2026-04-30.
    spec
      .given(h.given)
      .when({ type: 'RecordObservation', body: reached('2026-03-16') }, ctx(ORG_A, 9))
      .thenRejects('INVALID_REQUEST', ['completed_on'], 'out_of_range');
    spec
      .given(h.given)
      .when({ type: 'RecordObservation', body: reached('2026-03-15') }, ctx(ORG_A, 9))
      .thenAccepted();
  });

  it('is refused when a citation is abated after today, naming abated_on; today itself is fine', () => {
    // Abated ahead, a willful citation stopped being CRITICAL and an abatement past its deadline
    // stopped counting as open (safety rail, the GC's safety_record) from the day it was recorded.
    const { h, project } = projectHistory();
    const abated = (abated_on: string) =>
      observationBody({
        kind: 'osha_citation',
        project_id: project,
        entity: ENT.gc,
        ...KIND_SAMPLES.osha_citation,
        type: 'W',
        abate_by: '2026-03-01',
        abated_on,
      });
    // NOW is 2026-03-15.
    spec
      .given(h.given)
      .when({ type: 'RecordObservation', body: abated('2026-03-16') }, ctx(ORG_A, 9))
      .thenRejects('INVALID_REQUEST', ['abated_on'], 'out_of_range');
    spec
      .given(h.given)
      .when({ type: 'RecordObservation', body: abated('2026-03-15') }, ctx(ORG_A, 9))
      .thenAccepted();
  });

  it('is refused when a delivery arrives after today, naming delivered_on; today itself is fine', () => {
    // Delivered ahead, a critical delivery already past its need-by day stopped being reported late
    // (PROCUREMENT_LATE_CRITICAL) before anything arrived.
    const { h, project } = projectHistory();
    const delivered = (delivered_on: string) =>
      observationBody({
        kind: 'material_delivery',
        project_id: project,
        ...KIND_SAMPLES.material_delivery,
        needed_by: '2026-03-01',
        delivered_on,
      });
    // NOW is 2026-03-15.
    spec
      .given(h.given)
      .when({ type: 'RecordObservation', body: delivered('2026-03-16') }, ctx(ORG_A, 9))
      .thenRejects('INVALID_REQUEST', ['delivered_on'], 'out_of_range');
    spec
      .given(h.given)
      .when({ type: 'RecordObservation', body: delivered('2026-03-15') }, ctx(ORG_A, 9))
      .thenAccepted();
  });

  it('is refused when a certified payroll covers days after today, naming period_to; today itself is fine', () => {
    // A payroll certified through next quarter covered weeks not yet worked (or paid), so
    // WORKFORCE_PAYROLL_MISSING stayed quiet until they passed, whatever was really filed.
    const { h, project } = projectHistory();
    const through = (period_to: string) =>
      observationBody({
        kind: 'certified_payroll',
        project_id: project,
        entity: ENT.gc,
        ...KIND_SAMPLES.certified_payroll,
        period_from: '2026-03-09',
        period_to,
      });
    // NOW is 2026-03-15.
    spec
      .given(h.given)
      .when({ type: 'RecordObservation', body: through('2026-03-16') }, ctx(ORG_A, 9))
      .thenRejects('INVALID_REQUEST', ['period_to'], 'out_of_range');
    spec
      .given(h.given)
      .when({ type: 'RecordObservation', body: through('2026-03-15') }, ctx(ORG_A, 9))
      .thenAccepted();
  });

  it('is refused when equipment was last serviced after today, naming last_maintenance_on; today itself is fine', () => {
    // A service not yet done is no service: the EQUIPMENT rail cited it as the day the hours since
    // service count from ("260 hours since service on 2027-06-01").
    const { h, project } = projectHistory();
    const serviced = (last_maintenance_on: string) =>
      observationBody({
        kind: 'equipment_log',
        project_id: project,
        ...KIND_SAMPLES.equipment_log,
        last_maintenance_on,
      });
    // NOW is 2026-03-15.
    spec
      .given(h.given)
      .when({ type: 'RecordObservation', body: serviced('2026-03-16') }, ctx(ORG_A, 9))
      .thenRejects('INVALID_REQUEST', ['last_maintenance_on'], 'out_of_range');
    spec
      .given(h.given)
      .when({ type: 'RecordObservation', body: serviced('2026-03-15') }, ctx(ORG_A, 9))
      .thenAccepted();
  });

  it('is refused for a delivery against an SOV line the project does not have', () => {
    const { h, project } = projectHistory();
    const body = observationBody({
      kind: 'material_delivery',
      project_id: project,
      material: 'x',
      needed_by: '2026-04-01',
      quantity: 1,
      line: 8,
    });
    spec
      .given(h.given)
      .when({ type: 'RecordObservation', body }, ctx(ORG_A, 9))
      .thenRejects('INVALID_REQUEST', ['line'], 'unknown_sov_line');
  });

  it("completes the project's milestone in the projects read model", () => {
    const { h, project } = projectHistory();
    h.run(ORG_A, {
      type: 'RecordObservation',
      body: observationBody({ kind: 'milestone', project_id: project, ...KIND_SAMPLES.milestone }),
    });
    const p = h.state().projects[project]!;
    expect(p.milestones).to.deep.equal([
      { name: 'Foundation complete', due_on: '2026-04-30', completed_on: '2026-03-12' },
    ]);
    expect(p.last_fact_seq).to.equal(2);
  });

  it('contract: refuses unknown kinds, unknown fields and out-of-range readings', () => {
    expect(RecordObservationBody.safeParse({ kind: 'tide', observed_on: '2026-03-10' }).success).to.equal(
      false,
    );
    const ok = { kind: 'thermal_scan', observed_on: '2026-03-10', temp_c: 4 };
    expect(RecordObservationBody.safeParse(ok).success).to.equal(true);
    expect(RecordObservationBody.safeParse({ ...ok, temp_f: 39 }).success).to.equal(false);
    expect(RecordObservationBody.safeParse({ ...ok, temp_c: 300 }).success).to.equal(false);
    const equip = {
      kind: 'equipment_log',
      observed_on: '2026-03-10',
      ...KIND_SAMPLES.equipment_log,
      utilization_pct: 140,
    };
    expect(RecordObservationBody.safeParse(equip).error?.issues.map((i) => i.path.join('.'))).to.deep.equal([
      'utilization_pct',
    ]);
  });
  it('contract: hours worked are bounded per report (TRIR divides by them; 1e308 zeroed every rate)', () => {
    const hours = (h: number) =>
      RecordObservationBody.safeParse({ kind: 'hours_worked', observed_on: '2026-03-10', hours: h });
    expect(hours(1_000_000).success).to.equal(true);
    const refused = hours(1e308).error?.issues ?? [];
    expect(refused.map((i) => [i.path.join('.'), i.message])).to.deep.equal([
      ['hours', 'at most 1,000,000 hours per report'],
    ]);
    expect(hours(1_000_000.5).success).to.equal(false);
  });
  it('read model on the file: an observation’s flush writes the same bytes however many its org has', () => {
    // Issue 19: the org's, project's and entity's id lists are records per id, not arrays in a
    // record that every flush after an observation rewrote whole (~1.7 MB for a 1M-event org).
    const file = ReadModelFile.own(':memory:');
    const on = plainStateOnDisk<ObservationsState>(file, 'observations', observationsProjection.init(), null);
    let seq = 1000; // four digits throughout: the records' bytes then do not grow with the seq
    const observe = (): void => {
      seq += 1;
      const event = {
        seq,
        type: 'ObservationRecorded',
        recorded_at: '2026-03-10T12:00:00.000Z',
        meta: { org_id: ORG_A },
        data: {
          observation_id: `OBS-${String(seq).padStart(8, '0')}`,
          kind: 'hours_worked',
          hours: 100,
          observed_on: '2026-03-10',
          project_id: `prj_${seq % 3}`,
          entity_id: ENT.gc,
        },
      } as unknown as SealedEvent;
      file.folding = true;
      try {
        observationsProjection.evolve(on.state, event);
      } finally {
        file.folding = false;
      }
      file.flush([]);
    };
    const flushed = (): number => {
      const before = file.stats.bytes;
      observe();
      return file.stats.bytes - before;
    };
    const first = flushed();
    for (let i = 0; i < 600; i += 1) observe();
    expect(flushed()).to.equal(first);
    expect(on.state.by_org[ORG_A]).to.have.length(602);
    expect(on.state.by_entity[ENT.gc]!.at(-1)).to.equal(`OBS-${String(seq).padStart(8, '0')}`);
    expect(on.state.by_project['prj_1']).to.have.length(200);
    expect(on.state.by_org[ORG_B]).to.equal(undefined);
    expect(Object.keys(on.state.by_org)).to.deep.equal([ORG_A]);
    file.close();
  });
});
