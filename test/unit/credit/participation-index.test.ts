import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { observationsProjection } from '../../../projections/observations.js';
import { projectsProjection } from '../../../projections/projects.js';
import { registryProjection } from '../../../projections/registry.js';
import { generateDataset } from '../../../bench/lib/generate.js';
import { observationsOf } from '../../../src/credit/dimensions/safety-record.js';
import { participationOf } from '../../../src/credit/participation.js';
import type { EntityFacts } from '../../../src/credit/inputs.js';
import { projectConcerns, type Concern } from '../../../src/lender-api/history.js';
import type { SignalContext } from '../../../src/credit/signals.js';
import { readAll } from '../../../src/platform/event-store/port.js';
import { SqliteEventStore } from '../../../src/platform/event-store/sqlite.js';
import type { ObservationsState, ProjectsState } from '../../../src/projects/facts.js';
import type { RegistryState } from '../../../src/registry/state.js';

/**
 * The credit bureau reads an entity's projects and observations through the projections' indexes
 * (`projects.by_entity`, `observations.by_entity` / `by_project`). Over a generated ledger with
 * every document and observation kind, the indexed answers equal a scan of everything.
 */
describe('credit participation and observations through the projection indexes', function () {
  this.timeout(30_000);
  let dir: string;
  let projects: ProjectsState;
  let observations: ObservationsState;
  let registry: RegistryState;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plumbline-participation-'));
    await generateDataset({ dataDir: dir, events: 6000, seed: 'participation-index' });
    const store = SqliteEventStore.open(join(dir, 'ledger.db'));
    projects = projectsProjection.init();
    observations = observationsProjection.init();
    registry = registryProjection.init();
    for await (const event of readAll(store)) {
      projects = projectsProjection.evolve(projects, event);
      observations = observationsProjection.evolve(observations, event);
      registry = registryProjection.evolve(registry, event);
    }
    await store.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the same projects and roles with the by_entity index as by scanning every project and document', () => {
    const entities = Object.keys(registry.entities);
    expect(entities.length).to.be.greaterThan(20);
    const { by_entity: _index, ...scanned } = projects;
    let withProjects = 0;
    for (const id of entities) {
      const indexed = participationOf(projects, id);
      expect(indexed, id).to.deep.equal(participationOf(scanned, id));
      if (indexed.length > 0) withProjects += 1;
    }
    expect(withProjects).to.be.greaterThan(10);
  });

  it('gives the lender history the same project events through the by_entity index as by scanning every project', () => {
    const { by_entity: _index, ...scanned } = projects;
    const sorted = (m: Map<number, Concern>) => [...m.values()].sort((a, b) => a.seq - b.seq);
    let named = 0;
    let parties = 0;
    for (const id of Object.keys(registry.entities)) {
      const indexed = sorted(projectConcerns(projects, id));
      expect(indexed, id).to.deep.equal(sorted(projectConcerns(scanned, id)));
      if (indexed.some((c) => c.role === 'named on a document')) named += 1;
      if (indexed.some((c) => c.role !== 'named on a document')) parties += 1;
    }
    expect(named, 'entities named on documents').to.be.greaterThan(5);
    expect(parties, 'entities that are parties to projects').to.be.greaterThan(5);
  });

  it('finds the same observations through by_entity and by_project as by filtering them all', () => {
    const today = '2021-06-30';
    let nonEmpty = 0;
    for (const id of Object.keys(registry.entities)) {
      const participation = participationOf(projects, id);
      const gc = participation.filter((p) => p.roles.includes('general_contractor')).map((p) => p.project);
      const ctx = {
        today,
        facts: { entity_id: id, projects, observations } as unknown as EntityFacts,
        participation,
        gc,
        findings: [],
      } as unknown as SignalContext;
      const gcIds = new Set(gc.map((p) => p.id));
      const expected = Object.values(observations.observations)
        .filter(
          (o) =>
            o.observed_on <= today &&
            (o.entity_id === id ||
              (o.entity_id === null && o.project_id !== null && gcIds.has(o.project_id))),
        )
        .sort((a, b) => a.id.localeCompare(b.id));
      const found = observationsOf(ctx);
      expect(
        found.map((o) => o.id),
        id,
      ).to.deep.equal(expected.map((o) => o.id));
      if (found.length > 0) nonEmpty += 1;
    }
    expect(nonEmpty).to.be.greaterThan(5);
  });
});
