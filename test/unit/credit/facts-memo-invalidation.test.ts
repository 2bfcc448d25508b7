import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { allProjections } from '../../../projections/index.js';
import { registryProjection } from '../../../projections/registry.js';
import { generateDataset } from '../../../bench/lib/generate.js';
import { credit as creditProjection } from '../../../projections/credit.js';
import type { ProjectsState } from '../../../src/projects/facts.js';
import {
  decideBehavior,
  dimensionSignals,
  gatherSignals,
  observationsOf,
  scoreEntity,
  scoreSignals,
  signalContext,
  type EntityFacts,
} from '../../../src/credit/index.js';
import { entityFacts } from '../../../src/lender-api/entity-facts.js';
import { factsMemoOf, isFactsNeutral } from '../../../src/lender-api/facts-memo.js';
import { governance } from '../../../projections/governance.js';
import { observationsProjection } from '../../../projections/observations.js';
import { projectsProjection } from '../../../projections/projects.js';
import { ManualClock } from '../../../src/platform/clock.js';
import { readAll } from '../../../src/platform/event-store/port.js';
import { SqliteEventStore } from '../../../src/platform/event-store/sqlite.js';
import type { Service } from '../../../src/platform/http/service.js';
import type { SealedEvent } from '../../../src/platform/ledger/index.js';
import { ProjectionRuntime } from '../../../src/platform/projections/runtime.js';

/**
 * The facts memo forgets, on each fact event, only the entities that event touches (ISSUE 19).
 * Held here by replaying a generated ledger event by event and, after every event, scoring a
 * rotating window of entities twice — through the memo and afresh without it: the two must be
 * equal every time, and equal to the scoring function over the whole signal list, while the
 * workload really changes scores between checks and the memo really forgets entity by entity
 * rather than all at once.
 */
describe('facts memo: per-entity invalidation', function () {
  this.timeout(120_000);
  let dir: string;
  let events: SealedEvent[];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plumbline-facts-memo-'));
    await generateDataset({ dataDir: dir, events: 4000, seed: 'facts-memo-invalidation' });
    const store = SqliteEventStore.open(join(dir, 'ledger.db'));
    events = [];
    for await (const event of readAll(store)) events.push(event);
    await store.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * Folds the first `from` events, then takes the memo (as the first score after a node's start
   * does, on read models that already hold a history) and compares after every later event.
   */
  async function compareFrom(from: number) {
    const store = SqliteEventStore.open(join(dir, 'ledger.db'));
    const clock = new ManualClock(new Date(events[0]!.recorded_at));
    const runtime = new ProjectionRuntime(store, allProjections(), null, clock);
    const s = { runtime } as unknown as Service;
    await runtime.apply(events.slice(0, from));
    const memo = factsMemoOf(runtime);
    const last = new Map<string, string>();
    let compared = 0;
    let changed = 0;
    let window = 0;
    for (const event of events.slice(from)) {
      await runtime.apply([event]);
      const entities = Object.values(runtime.state(registryProjection).entities);
      if (entities.length === 0) continue;
      const now = new Date(event.recorded_at);
      // A window of 6 entities that moves by 2 each event: every entity is scored through the
      // memo, left for a few events, and checked again. After a scan, every entity: a scan forgets
      // only the entities whose findings it changed, and the window alone would rarely look at one
      // before the next event on the project forgot it anyway.
      const checked = event.type === 'ProjectScanned' ? entities.length : 6;
      for (let k = 0; k < checked; k += 1) {
        const entity = entities[(window + k) % entities.length]!;
        const facts = entityFacts(s, entity, now);
        const { memo: _memo, ...withoutMemo } = facts;
        const fresh = JSON.stringify(scoreEntity(withoutMemo, now));
        // `scoreEntity` assembles the score from each dimension's own (remembered) score; the
        // definition is the one function over the whole signal list.
        expect(fresh, `${entity.entity_id} at seq ${event.seq}`).to.equal(
          JSON.stringify(scoreSignals(gatherSignals(withoutMemo, now))),
        );
        const remembered = JSON.stringify(scoreEntity(facts, now));
        expect(remembered, `${entity.entity_id} after seq ${event.seq} (${event.type})`).to.equal(fresh);
        // The safety record's signals, each with its furnisher and in its place: a list that took a
        // site observation's signal in must be the very list a fresh derivation gives. (Not every
        // dimension's: a registry signal's evidence names the check's instant, which the memo keeps
        // from the day's first check; no report prints a signal's evidence.)
        expect(
          JSON.stringify(dimensionSignals(facts, now).safety_record),
          `${entity.entity_id}'s safety record signals after seq ${event.seq}`,
        ).to.equal(JSON.stringify(dimensionSignals(withoutMemo, now).safety_record));
        // The remembered observation list itself, order included (a list that took a site
        // observation in must be the very list a fresh read gives).
        expect(
          observationIds(facts, now),
          `${entity.entity_id}'s observations after seq ${event.seq}`,
        ).to.equal(observationIds(withoutMemo, now));
        compared += 1;
        if (last.has(entity.entity_id) && last.get(entity.entity_id) !== fresh) changed += 1;
        last.set(entity.entity_id, fresh);
      }
      window += 2;
    }
    await store.close();
    return { memo, compared, changed, checkedEvents: events.length - from };
  }

  it('answers from memory exactly what a fresh computation answers, after every event', async () => {
    const { memo, compared, changed, checkedEvents } = await compareFrom(0);
    expect(compared).to.be.greaterThan(10_000);
    // The workload moves scores between checks, so a memo that forgot too little would be caught.
    expect(changed).to.be.greaterThan(100);
    // And forgetting is per entity: most fact events forget a few entities, not everything.
    expect(memo.forgotten).to.be.greaterThan(1000);
    expect(memo.clears).to.be.lessThan(checkedEvents / 10);
    // And a site observation is taken into the remembered observation lists, not re-read: the
    // comparisons above hold those lists equal to a fresh read.
    expect(memo.takenIn).to.be.greaterThan(100);
  });

  it('answers the same when first taken on read models that already hold half the history (a node’s start)', async () => {
    // The memo indexes an entity's projects and findings when it first remembers the entity, not
    // every entity and finding of the ledger when it is taken (issue 19: ~0.1 s of the first score
    // after a start at 1M events): an entity remembered here must still be forgotten by an event
    // on a project it joined, or a finding moved from it, before the memo was taken.
    const { memo, compared, changed, checkedEvents } = await compareFrom(Math.floor(events.length / 2));
    expect(compared).to.be.greaterThan(5_000);
    expect(changed).to.be.greaterThan(50);
    expect(memo.forgotten).to.be.greaterThan(500);
    expect(memo.clears).to.be.lessThan(checkedEvents / 10);
  });

  it('keeps everything across an event it treats as neutral, and a scan changes only the findings it names, because no other read model the facts come from changes', async () => {
    // The ground the memo stands on when an event forgets nothing (the credit capability's own
    // events, and the governance results no fact read model folds: adequacy, simulations,
    // certifications, notarizations, refused pushes, accepted conditions, deliveries, rail scans):
    // folding each such event of the generated ledger leaves the projects, the observations, the
    // findings and the registry exactly as they were.
    const store = SqliteEventStore.open(join(dir, 'ledger.db'));
    const runtime = new ProjectionRuntime(store, allProjections(), null, new ManualClock(new Date(0)));
    // A compilation's two fields no credit rule reads are left out for it (the spec after this one
    // holds the rules blind to them).
    const factsOf = (type: string) =>
      JSON.stringify([
        type === 'DrawCompiled'
          ? blindToCompilation(runtime.state(projectsProjection))
          : runtime.state(projectsProjection),
        runtime.state(observationsProjection),
        runtime.state(governance).findings,
        runtime.state(governance).findings_by_entity,
        runtime.state(registryProjection),
      ]);
    const neutral = new Map<string, number>();
    // A scan's fold writes the findings its payload names and nothing else the facts come from
    // (the memo forgets only the entities those findings are or were attributed to, and only where
    // one changed beyond which scan last saw it).
    const othersOf = () =>
      JSON.stringify([
        runtime.state(projectsProjection),
        runtime.state(observationsProjection),
        runtime.state(registryProjection),
      ]);
    const findingsRead = () =>
      new Map(
        Object.values(runtime.state(governance).findings).map(({ last_scan_id: _, ...read }) => [
          read.id,
          JSON.stringify(read),
        ]),
      );
    let scans = 0;
    let previous: { type: string; text: string } | null = null;
    for (const event of events) {
      if (event.type === 'ProjectScanned') {
        previous = null;
        const before = { others: othersOf(), findings: findingsRead() };
        await runtime.apply([event]);
        expect(othersOf(), `ProjectScanned at seq ${event.seq}`).to.equal(before.others);
        const payload = JSON.stringify(event.data);
        for (const [id, read] of findingsRead())
          if (before.findings.get(id) !== read)
            expect(payload, `${id} changed by the scan at seq ${event.seq}`).to.include(`"${id}"`);
        scans += 1;
        continue;
      }
      if (!isFactsNeutral(event.type)) {
        await runtime.apply([event]);
        previous = null;
        continue;
      }
      // Each fold is checked on the first 50 events of its type and on every 4th after (the
      // generated ledger notarizes ~570 documents): a state serialized whole twice an event made
      // this spec ~25× slower inside the full parallel suite than alone (118 s against 4.8).
      const seen = neutral.get(event.type) ?? 0;
      neutral.set(event.type, seen + 1);
      if (seen >= 50 && seen % 4 !== 0) {
        await runtime.apply([event]);
        previous = null;
        continue;
      }
      // Consecutive checked events of one type: the state after one is the state before the next.
      const before = previous?.type === event.type ? previous.text : factsOf(event.type);
      await runtime.apply([event]);
      const after = factsOf(event.type);
      expect(after, `${event.type} at seq ${event.seq}`).to.equal(before);
      previous = { type: event.type, text: after };
    }
    await store.close();
    // The governance results the generator records (adequacy, simulations, rail scans and reports
    // are recorded by the service, not the generator: their ground is `GOVERNANCE_EVENTS_FOLDED`).
    expect([...neutral.keys()]).to.include.members([
      'DrawCompiled',
      'CertificationIssued',
      'DocumentNotarized',
      'PaymentInstructionDelivered',
      'PaymentPushBlocked',
    ]);
    expect(scans).to.be.greaterThan(20);
    for (const type of ['ProjectScanned', 'PaymentPushed', 'DrawRejected', 'FindingResolved'])
      expect(isFactsNeutral(type), type).to.equal(false);
  });

  it('scores and decides every entity the same whether or not its draws were compiled (the rules are blind to it)', async () => {
    // The ground for keeping the memo across a compilation: the credit rules never read a draw's
    // `compiled_seq`, nor tell COMPILED from SUBMITTED. Every 200 events of the generated ledger,
    // every entity's score and behavioral decision over the read models as they are equal those
    // over a copy whose draws were never compiled, and over one whose every open draw was.
    const store = SqliteEventStore.open(join(dir, 'ledger.db'));
    const clock = new ManualClock(new Date(events[0]!.recorded_at));
    const runtime = new ProjectionRuntime(store, allProjections(), null, clock);
    const s = { runtime } as unknown as Service;
    let compared = 0;
    /** Open draws (SUBMITTED or COMPILED) at the checkpoints: what the two copies differ in. */
    let compiledSeen = 0;
    for (let at = 0; at < events.length; at += 200) {
      await runtime.apply(events.slice(at, at + 200));
      const now = new Date(events[Math.min(at + 199, events.length - 1)]!.recorded_at);
      const projects = runtime.state(projectsProjection);
      compiledSeen += Object.values(projects.draws).filter(
        (d) => d.status !== 'FUNDED' && d.status !== 'REJECTED',
      ).length;
      const blind = blindToCompilation(projects);
      const everywhere = compiledEverywhere(projects);
      for (const entity of Object.values(runtime.state(registryProjection).entities)) {
        const { memo: _memo, ...facts } = entityFacts(s, entity, now);
        const credit = runtime.state(creditProjection);
        const seen = JSON.stringify([scoreEntity(facts, now), decideBehavior(credit, facts, now)]);
        const never = JSON.stringify([
          scoreEntity({ ...facts, projects: blind }, now),
          decideBehavior(credit, { ...facts, projects: blind }, now),
        ]);
        const always = JSON.stringify([
          scoreEntity({ ...facts, projects: everywhere }, now),
          decideBehavior(credit, { ...facts, projects: everywhere }, now),
        ]);
        expect(seen, `${entity.entity_id} at seq ${at + 200}`).to.equal(never);
        expect(seen, `${entity.entity_id} at seq ${at + 200}, every open draw compiled`).to.equal(always);
        compared += 1;
      }
    }
    await store.close();
    expect(compared).to.be.greaterThan(500);
    expect(compiledSeen).to.be.greaterThan(10);
  });
});

/** The projects read model as it would be had every open draw been compiled (at seq 1). */
function compiledEverywhere(projects: ProjectsState): ProjectsState {
  const draws = Object.fromEntries(
    Object.entries(projects.draws).map(([id, d]) => [
      id,
      d.status === 'SUBMITTED'
        ? { ...d, compiled_seq: 1, status: 'COMPILED' as const }
        : { ...d, compiled_seq: 1 },
    ]),
  );
  return { ...projects, draws };
}

/** The projects read model as it would be had no draw been compiled. */
function blindToCompilation(projects: ProjectsState): ProjectsState {
  const draws = Object.fromEntries(
    Object.entries(projects.draws).map(([id, d]) => [
      id,
      { ...d, compiled_seq: null, status: d.status === 'COMPILED' ? ('SUBMITTED' as const) : d.status },
    ]),
  );
  return { ...projects, draws };
}

function observationIds(facts: EntityFacts, now: Date): string {
  return observationsOf(signalContext(facts, now))
    .map((o) => `${o.id}@${o.observed_on}`)
    .join(',');
}
