import { expect } from 'chai';
import { observationsProjection } from '../../../projections/observations.js';
import {
  getChangeOrder,
  getDocument,
  getDraw,
  getProject,
  listDocuments,
  listDraws,
  listObservations,
  listProjects,
  ListQuery,
  projectFacts,
} from '../../../src/projects/index.js';
import { fold, sealGiven } from '../../support/decider.js';
import {
  changeOrderBody,
  drawBody,
  ENT,
  History,
  invoiceBody,
  observationBody,
  ORG_A,
  ORG_B,
  projectBody,
  waiverBody,
} from './fixtures.js';

/** Org A: five projects; the first has a change order, an invoice, a draw and a waiver. Org B: one project. */
function portfolio() {
  const h = new History();
  const a = [0, 1, 2, 3, 4].map((i) =>
    h.run(ORG_A, { type: 'RegisterProject', body: projectBody({ name: `A${i}` }) }),
  );
  const b = h.run(ORG_B, { type: 'RegisterProject', body: projectBody({ name: 'B0' }) });
  const p = a[0]!;
  const co = h.run(ORG_A, { type: 'RecordChangeOrder', project_id: p, body: changeOrderBody() });
  const inv = h.run(ORG_A, { type: 'RecordDocument', project_id: p, body: invoiceBody() });
  const draw = h.run(ORG_A, { type: 'SubmitDraw', project_id: p, body: drawBody({ invoices: [inv] }) });
  const waiver = h.run(ORG_A, { type: 'RecordDocument', project_id: p, body: waiverBody(draw) });
  return { h, s: h.state(), a, b, p, co, inv, draw, waiver };
}

describe('projects queries are org-scoped (ARCHITECTURE §4)', () => {
  it("answers undefined for another org's ids, as for unknown ones", () => {
    const { s, p, b, co, inv, draw } = portfolio();
    expect(getProject(s, ORG_A, p)?.name).to.equal('A0');
    expect(getProject(s, ORG_B, p)).to.equal(undefined);
    expect(getProject(s, ORG_A, b)).to.equal(undefined);
    expect(getChangeOrder(s, ORG_B, co)).to.equal(undefined);
    expect(getDocument(s, ORG_B, inv)).to.equal(undefined);
    expect(getDraw(s, ORG_B, draw)).to.equal(undefined);
    expect(getDraw(s, ORG_A, draw)?.invoices).to.deep.equal([inv]);
    expect(getProject(s, ORG_A, 'constructor')).to.equal(undefined);
  });

  it('lists only the caller org, in recording order, paging with an opaque cursor', () => {
    const { s, a } = portfolio();
    const first = listProjects(s, ORG_A, { limit: 2 });
    expect(first.data.map((x) => x.id)).to.deep.equal(a.slice(0, 2));
    expect(first.next_cursor).to.be.a('string');
    const second = listProjects(s, ORG_A, { limit: 2, cursor: first.next_cursor! });
    const third = listProjects(s, ORG_A, { limit: 2, cursor: second.next_cursor! });
    expect([...second.data, ...third.data].map((x) => x.id)).to.deep.equal(a.slice(2));
    expect(third.next_cursor).to.equal(null);
    expect(listProjects(s, ORG_B).data.map((x) => x.name)).to.deep.equal(['B0']);
  });

  it("lists a project's draws and documents (optionally by type) only for its own org", () => {
    const { s, p, draw, inv, waiver } = portfolio();
    expect(listDraws(s, ORG_A, p).data.map((d) => d.id)).to.deep.equal([draw]);
    expect(listDraws(s, ORG_B, p)).to.deep.equal({ data: [], next_cursor: null });
    expect(listDocuments(s, ORG_A, p).data.map((d) => d.id)).to.deep.equal([inv, waiver]);
    expect(listDocuments(s, ORG_A, p, {}, 'LIEN_WAIVER').data.map((d) => d.id)).to.deep.equal([waiver]);
  });

  it('bundles one project’s facts for engines', () => {
    const { s, p, co, draw } = portfolio();
    const facts = projectFacts(s, ORG_A, p)!;
    expect(facts.change_orders.map((c) => c.id)).to.deep.equal([co]);
    expect(facts.draws.map((d) => d.id)).to.deep.equal([draw]);
    expect(projectFacts(s, ORG_B, p)).to.equal(undefined);
  });

  it('filters observations by project and kind within the org', () => {
    const { h, p, b } = portfolio();
    h.run(ORG_A, {
      type: 'RecordObservation',
      body: observationBody({ kind: 'hours_worked', project_id: p, hours: 10 }),
    });
    h.run(ORG_A, {
      type: 'RecordObservation',
      body: observationBody({ kind: 'incident', project_id: p, recordable: true, lost_time: false }),
    });
    h.run(ORG_B, {
      type: 'RecordObservation',
      body: observationBody({ kind: 'hours_worked', project_id: b, hours: 99 }),
    });
    const obs = fold(observationsProjection, sealGiven(h.given));
    expect(listObservations(obs, ORG_A).data).to.have.length(2);
    expect(
      listObservations(obs, ORG_A, { kind: 'hours_worked' }).data.map(
        (o) => o.kind === 'hours_worked' && o.hours,
      ),
    ).to.deep.equal([10]);
    expect(listObservations(obs, ORG_A, { project_id: b }).data).to.deep.equal([]);
  });

  it('lists observations page by page as a filter of every org observation would, reading only what it lists', () => {
    const { h, a, p, b } = portfolio();
    const bodies = [
      { kind: 'hours_worked', project_id: p, hours: 10 },
      { kind: 'incident', project_id: p, recordable: true, lost_time: false },
      { kind: 'hours_worked', project_id: a[1], hours: 20 },
      { kind: 'incident', project_id: a[1], entity: ENT.sub, recordable: true, lost_time: true },
      { kind: 'hours_worked', project_id: p, entity: ENT.sub, hours: 30 },
      { kind: 'incident', project_id: a[2], entity: ENT.sub, recordable: false, lost_time: false },
    ];
    // Org B's observation on the same entity lands between org A's.
    bodies.forEach((body, n) => {
      h.run(ORG_A, { type: 'RecordObservation', body: observationBody(body) });
      if (n === 3)
        h.run(ORG_B, {
          type: 'RecordObservation',
          body: observationBody({ kind: 'hours_worked', project_id: b, entity: ENT.sub, hours: 99 }),
        });
    });
    const obs = fold(observationsProjection, sealGiven(h.given));
    type Filter = Parameters<typeof listObservations>[2];
    const reference = (filter: Filter) =>
      Object.values(obs.observations)
        .filter(
          (o) =>
            o.org_id === ORG_A &&
            (filter?.project_id === undefined || o.project_id === filter.project_id) &&
            (filter?.entity_id === undefined || o.entity_id === filter.entity_id) &&
            (filter?.kind === undefined || o.kind === filter.kind),
        )
        .map((o) => o.id);
    const paged = (filter: Filter, limit: number) => {
      const ids: string[] = [];
      let cursor: string | undefined;
      do {
        const page = listObservations(
          obs,
          ORG_A,
          filter,
          cursor === undefined ? { limit } : { limit, cursor },
        );
        ids.push(...page.data.map((o) => o.id));
        // Full pages: another org's observation on a shared entity takes no place in a page.
        if (page.next_cursor !== null) expect(page.data).to.have.length(limit);
        cursor = page.next_cursor ?? undefined;
      } while (cursor !== undefined);
      return ids;
    };
    const filters: Filter[] = [
      {},
      { project_id: p },
      { project_id: a[1]! },
      { project_id: b },
      { entity_id: ENT.sub },
      { kind: 'incident' },
      { project_id: p, kind: 'hours_worked' },
      { entity_id: ENT.sub, kind: 'incident' },
      { project_id: '__proto__' },
      { entity_id: 'constructor' },
    ];
    for (const filter of filters)
      for (const limit of [1, 2, 50])
        expect(paged(filter, limit), `${JSON.stringify(filter)} by ${limit}`).to.deep.equal(
          reference(filter),
        );
    expect(reference({ entity_id: ENT.sub })).to.have.length(3);

    // An unfiltered page reads its own records alone, however many the org has.
    let reads = 0;
    const counted = {
      ...obs,
      observations: new Proxy(obs.observations, {
        get: (target, key, receiver) => {
          reads += 1;
          return Reflect.get(target, key, receiver) as unknown;
        },
        getOwnPropertyDescriptor: (target, key) => {
          reads += 1;
          return Reflect.getOwnPropertyDescriptor(target, key);
        },
      }),
    };
    const first = listObservations(counted, ORG_A, {}, { limit: 2 });
    expect(first.data).to.have.length(2);
    expect(reads).to.be.at.most(4);
  });

  it('ListQuery coerces limit from the query string and refuses a cursor it did not issue', () => {
    expect(ListQuery.parse({ limit: '20' })).to.deep.equal({ limit: 20 });
    expect(ListQuery.parse({})).to.deep.equal({ limit: 50 });
    expect(ListQuery.safeParse({ limit: '0' }).success).to.equal(false);
    expect(ListQuery.safeParse({ cursor: 'not-ours' }).success).to.equal(false);
  });
});
