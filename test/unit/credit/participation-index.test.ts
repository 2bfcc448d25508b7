import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { governance as governanceProjection } from '../../../projections/governance.js';
import { observationsProjection } from '../../../projections/observations.js';
import { projectsProjection } from '../../../projections/projects.js';
import { registryProjection } from '../../../projections/registry.js';
import { generateDataset } from '../../../bench/lib/generate.js';
import { observationsOf } from '../../../src/credit/dimensions/safety-record.js';
import { participationOf } from '../../../src/credit/participation.js';
import { documentsOf } from '../../../src/credit/signals.js';
import { gatherSignals } from '../../../src/credit/gather.js';
import { scoreEntity } from '../../../src/credit/score.js';
import type { EntityFacts, RegistryStatus } from '../../../src/credit/inputs.js';
import type { GovernanceState } from '../../../projections/governance.js';
import { projectConcerns, type Concern } from '../../../src/lender-api/history.js';
import { counterpartiesIn } from '../../../src/lender-api/credit-actions.js';
import type { SignalContext } from '../../../src/credit/signals.js';
import { readAll } from '../../../src/platform/event-store/port.js';
import { SqliteEventStore } from '../../../src/platform/event-store/sqlite.js';
import {
  DOCUMENT_TYPES,
  type Document,
  type ObservationsState,
  type ProjectsState,
} from '../../../src/projects/facts.js';
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
  let findings: GovernanceState;
  /** The last event's day: the ledger's "today". */
  let lastDay: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plumbline-participation-'));
    await generateDataset({ dataDir: dir, events: 6000, seed: 'participation-index' });
    const store = SqliteEventStore.open(join(dir, 'ledger.db'));
    projects = projectsProjection.init();
    observations = observationsProjection.init();
    registry = registryProjection.init();
    findings = governanceProjection.init();
    lastDay = '';
    for await (const event of readAll(store)) {
      projects = projectsProjection.evolve(projects, event);
      observations = observationsProjection.evolve(observations, event);
      registry = registryProjection.evolve(registry, event);
      findings = governanceProjection.evolve(findings, event);
      lastDay = event.recorded_at.slice(0, 10);
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

  /** The document ids naming `entity` in their own role, by scanning every document. */
  function ownDocumentIds(state: ProjectsState, entity: string): Set<string> {
    const mine = (d: Document): boolean =>
      (d.type === 'LIEN_WAIVER' && d.claimant === entity) ||
      ((d.type === 'INVOICE' || d.type === 'BILL_OF_SALE') && d.vendor === entity) ||
      (d.type === 'INSURANCE_CERTIFICATE' && d.insured === entity) ||
      (d.type === 'INSPECTION_REPORT' && d.inspector === entity);
    return new Set(
      Object.values(state.documents)
        .filter(mine)
        .map((d) => d.id),
    );
  }

  function factsOf(state: ProjectsState, entity_id: string): EntityFacts {
    const registryStatus: RegistryStatus = {
      registration: 'active',
      exclusions: 'clear',
      exclusion_active_since: null,
      exclusion_terminated_on: null,
      checked_at: `${lastDay}T00:00:00.000Z`,
      source: { kind: 'sam_extract', as_of: lastDay },
    };
    return {
      entity_id,
      projects: state,
      observations,
      findings: (findings.findings_by_entity[entity_id] ?? []).map((id) => findings.findings[id]!),
      registry: registryStatus,
    };
  }

  /** The state as a hand-built one without the documents' indexes (so readers filter). */
  function withoutDocumentIndexes(state: ProjectsState): ProjectsState {
    const { documents_by_entity: _own, ...rest } = state;
    const by_project = Object.fromEntries(
      Object.entries(state.by_project).map(([id, { document_ids_by_type: _types, ...index }]) => [id, index]),
    );
    return { ...rest, by_project };
  }

  it("lists a project's documents of one type through document_ids_by_type as by filtering them all", () => {
    const plain = withoutDocumentIndexes(projects);
    const seen = new Set<string>();
    for (const id of Object.keys(projects.projects))
      for (const type of DOCUMENT_TYPES) {
        const typed = documentsOf(projects, id, type);
        expect(typed, `${id} ${type}`).to.deep.equal(documentsOf(plain, id).filter((d) => d.type === type));
        expect(documentsOf(plain, id, type), `${id} ${type}`).to.deep.equal(typed);
        if (typed.length > 0) seen.add(type);
      }
    // Every type the generator records (it makes no bills of sale), the three the GC rules read among them.
    expect([...seen].sort()).to.deep.equal(DOCUMENT_TYPES.filter((t) => t !== 'BILL_OF_SALE').sort());
  });

  it("gives each participation the entity's own documents there, through documents_by_entity as by scanning", () => {
    const { documents_by_entity: _own, ...withoutOwn } = projects;
    const { by_entity: _index, ...scanned } = withoutOwn;
    let withDocuments = 0;
    for (const id of Object.keys(registry.entities)) {
      const indexed = participationOf(projects, id);
      expect(indexed, id).to.deep.equal(participationOf(withoutOwn, id));
      expect(indexed, id).to.deep.equal(participationOf(scanned, id));
      const own = ownDocumentIds(projects, id);
      const listed = indexed.flatMap((p) => p.documents.map((d) => d.id));
      expect(new Set(listed), id).to.deep.equal(own);
      for (const p of indexed)
        for (const d of p.documents) expect(d.project_id, `${id} ${d.id}`).to.equal(p.project.id);
      if (listed.length > 0) withDocuments += 1;
    }
    expect(withDocuments).to.be.greaterThan(20);
  });

  it("scores every entity the same through the documents' indexes as by scanning each project's documents", () => {
    const withoutOwn = withoutDocumentIndexes(projects);
    const days = [lastDay, `${lastDay.slice(0, 4)}-01-15`];
    const codes = new Set<string>();
    for (const day of days) {
      const now = new Date(`${day}T12:00:00.000Z`);
      for (const id of Object.keys(registry.entities)) {
        const indexed = gatherSignals(factsOf(projects, id), now);
        expect(indexed, `${id} ${day}`).to.deep.equal(gatherSignals(factsOf(withoutOwn, id), now));
        expect(scoreEntity(factsOf(projects, id), now), `${id} ${day}`).to.deep.equal(
          scoreEntity(factsOf(withoutOwn, id), now),
        );
        const gcAnywhere = participationOf(projects, id).some((p) => p.roles.includes('general_contractor'));
        if (!gcAnywhere) for (const s of indexed) codes.add(s.code);
      }
    }
    // The signals that read documents, met by entities that are GC of nothing (so the own-documents
    // path is what produced them).
    for (const code of ['PI01', 'PI02', 'DA03']) expect([...codes], code).to.include(code);
  });

  it("reads, of a GC's projects, only its own documents, date-downs, inspections and the invoices its draws bill", () => {
    const now = new Date(`${lastDay}T12:00:00.000Z`);
    let spared = 0;
    for (const id of Object.keys(registry.entities)) {
      const gcOf = new Set(
        participationOf(projects, id)
          .filter((p) => p.roles.includes('general_contractor'))
          .map((p) => p.project.id),
      );
      if (gcOf.size === 0) continue;
      const read = new Set<string>();
      const documents = new Proxy(projects.documents, {
        get(target, key, receiver) {
          if (typeof key === 'string' && Object.hasOwn(target, key)) read.add(key);
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
      scoreEntity(factsOf({ ...projects, documents }, id), now);
      const own = ownDocumentIds(projects, id);
      const billed = new Set(
        [...gcOf].flatMap((p) =>
          (projects.by_project[p]?.draw_ids ?? []).flatMap((d) => projects.draws[d]!.invoices),
        ),
      );
      const allowed = (docId: string): boolean => {
        const doc = projects.documents[docId]!;
        if (own.has(docId)) return true;
        if (!gcOf.has(doc.project_id)) return false;
        return doc.type === 'TITLE_DATE_DOWN' || doc.type === 'INSPECTION_REPORT' || billed.has(docId);
      };
      expect(
        [...read].filter((docId) => !allowed(docId)),
        `${id} read documents no rule of its asks for`,
      ).to.deep.equal([]);
      const ofItsProjects = [...gcOf].reduce(
        (n, p) => n + (projects.by_project[p]?.document_ids.length ?? 0),
        0,
      );
      if (ofItsProjects > read.size) spared += 1;
    }
    expect(spared, 'GCs whose projects hold documents no rule of theirs reads').to.be.greaterThan(5);
  });

  it('reads only its own documents to score an entity that is GC of none of its projects', () => {
    const now = new Date(`${lastDay}T12:00:00.000Z`);
    let checked = 0;
    for (const id of Object.keys(registry.entities)) {
      const participation = participationOf(projects, id);
      if (participation.length === 0 || participation.some((p) => p.roles.includes('general_contractor')))
        continue;
      const read = new Set<string>();
      const documents = new Proxy(projects.documents, {
        get(target, key, receiver) {
          if (typeof key === 'string' && Object.hasOwn(target, key)) read.add(key);
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
      const watched: ProjectsState = { ...projects, documents };
      scoreEntity(factsOf(watched, id), now);
      const own = ownDocumentIds(projects, id);
      const others = [...read].filter((docId) => !own.has(docId));
      expect(others, `${id} read other parties' documents`).to.deep.equal([]);
      const ofItsProjects = participation.reduce(
        (n, p) => n + (projects.by_project[p.project.id]?.document_ids.length ?? 0),
        0,
      );
      if (ofItsProjects > own.size) checked += 1;
    }
    // Entities whose projects hold documents of others (the reads this spares).
    expect(checked).to.be.greaterThan(20);
  });

  it('gives the lender history the same project events through the indexes as by scanning, reading only the documents naming the entity', () => {
    const { by_entity: _index, ...scanned } = projects;
    const sorted = (m: Map<number, Concern>) => [...m.values()].sort((a, b) => a.seq - b.seq);
    let named = 0;
    let parties = 0;
    for (const id of Object.keys(registry.entities)) {
      const read = new Set<string>();
      const documents = new Proxy(projects.documents, {
        get(target, key, receiver) {
          if (typeof key === 'string' && Object.hasOwn(target, key)) read.add(key);
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
      const indexed = sorted(projectConcerns({ ...projects, documents }, id));
      expect(indexed, id).to.deep.equal(sorted(projectConcerns(scanned, id)));
      expect(indexed, id).to.deep.equal(sorted(projectConcerns(withoutDocumentIndexes(projects), id)));
      // Through `documents_by_entity`: the documents naming it, none of the others on its projects.
      const own = ownDocumentIds(projects, id);
      expect(
        [...read].filter((docId) => !own.has(docId)),
        id,
      ).to.deep.equal([]);
      if (indexed.some((c) => c.role === 'named on a document')) named += 1;
      if (indexed.some((c) => c.role !== 'named on a document')) parties += 1;
    }
    expect(named, 'entities named on documents').to.be.greaterThan(5);
    expect(parties, 'entities that are parties to projects').to.be.greaterThan(5);
  });

  it("finds an org's counterparties through document_parties_by_type as through its documents, reading none", () => {
    const orgs = Object.keys(projects.project_ids_by_org);
    expect(orgs.length).to.be.greaterThan(1);
    // Generated parties all sign as project parties too: an invoice from a vendor that is not one,
    // recorded on the first org's first project, makes the document path count.
    const org = orgs[0]!;
    const projectId = projects.project_ids_by_org[org]![0]!;
    const invoice = Object.values(projects.documents).find((d) => d.type === 'INVOICE')!;
    const withVendor = projectsProjection.evolve(structuredClone(projects), {
      seq: 10_000_000,
      id: 'evt_counterparty',
      stream: `project-${projectId}`,
      type: 'DocumentRecorded',
      schema: 1,
      data: {
        ...invoice,
        id: undefined,
        document_id: 'doc_only_on_documents',
        project_id: projectId,
        vendor: 'ent_only_on_documents',
      },
      meta: { org_id: org, actor: 'test', request_id: 'test' },
      recorded_at: `${lastDay}T12:00:00.000Z`,
      prev_hash: '',
      content_hash: '',
      hash: '',
    });
    for (const [state, name] of [
      [projects, 'generated'],
      [withVendor, 'with a vendor named only on an invoice'],
    ] as const)
      for (const each of orgs) {
        let reads = 0;
        const documents = new Proxy(state.documents, {
          get(target, key, receiver) {
            if (typeof key === 'string' && Object.hasOwn(target, key)) reads += 1;
            return Reflect.get(target, key, receiver) as unknown;
          },
        });
        const indexed = counterpartiesIn({ ...state, documents }, each);
        expect([...indexed].sort(), `${name} ${each}`).to.deep.equal(
          [...counterpartiesIn(withoutDocumentIndexes(state), each)].sort(),
        );
        expect(reads, `${name} ${each}: documents read`).to.equal(0);
        expect(indexed.has('ent_only_on_documents'), `${name} ${each}`).to.equal(
          state === withVendor && each === org,
        );
      }
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
