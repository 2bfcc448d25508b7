import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { allProjections } from '../../../projections/index.js';
import { projectsProjection } from '../../../projections/projects.js';
import { registryProjection } from '../../../projections/registry.js';
import { generateDataset } from '../../../bench/lib/generate.js';
import {
  behaviorFactsWithDrops,
  dimensionSignals,
  observationsOf,
  scoreEntity,
  signalContext,
  type CreditScore,
} from '../../../src/credit/index.js';
import { entityFacts } from '../../../src/lender-api/entity-facts.js';
import { factsMemoOf } from '../../../src/lender-api/facts-memo.js';
import { ManualClock } from '../../../src/platform/clock.js';
import { readAll } from '../../../src/platform/event-store/port.js';
import { SqliteEventStore } from '../../../src/platform/event-store/sqlite.js';
import type { Service } from '../../../src/platform/http/service.js';
import { seal, type SealedEvent } from '../../../src/platform/ledger/index.js';
import { ProjectionRuntime } from '../../../src/platform/projections/runtime.js';
import { projectStream, type ObservationRecordedData } from '../../../src/projects/index.js';

/**
 * A site observation is a fact of one entity (ISSUE 19 per-entity invalidation, DOMAIN §5
 * safety_record): the one it names or, naming nobody, its project's GC. So it forgets that entity's
 * derivations that read observations (and only those) and keeps every other party's; a milestone,
 * which completes the project's schedule, still forgets every party whole. Held on a generated ledger's project with a GC and a subcontractor:
 * what is kept is the very object remembered before, what is forgotten is recomputed, and both
 * equal a fresh computation after every event.
 */
describe('facts memo: an observation forgets only the entity it is a fact of', function () {
  this.timeout(120_000);
  let dir: string;
  let store: SqliteEventStore;
  let runtime: ProjectionRuntime;
  let head: SealedEvent;
  let now: Date;
  let gc: string;
  let sub: string;
  let project: string;
  let milestone: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plumbline-facts-memo-obs-'));
    await generateDataset({ dataDir: dir, events: 3000, seed: 'facts-memo-observations' });
    store = SqliteEventStore.open(join(dir, 'ledger.db'));
    const events: SealedEvent[] = [];
    for await (const event of readAll(store)) events.push(event);
    head = events.at(-1)!;
    now = new Date(head.recorded_at);
    runtime = new ProjectionRuntime(store, allProjections(), null, new ManualClock(now));
    await runtime.apply(events);
    const entities = runtime.state(registryProjection).entities;
    const found = Object.values(runtime.state(projectsProjection).projects).find(
      (p) =>
        p.general_contractor !== null &&
        entities[p.general_contractor] !== undefined &&
        p.milestones.length > 0 &&
        p.sov.some(
          (l) => l.subcontractor && l.subcontractor !== p.general_contractor && entities[l.subcontractor],
        ),
    );
    if (!found)
      throw new Error('the generated ledger has no project with a GC, a subcontractor and milestones');
    project = found.id;
    gc = found.general_contractor!;
    sub = found.sov.find(
      (l) => l.subcontractor && l.subcontractor !== gc && entities[l.subcontractor],
    )!.subcontractor!;
    milestone = found.milestones[0]!.name;
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const s = (): Service => ({ runtime }) as unknown as Service;
  const factsOf = (id: string) => entityFacts(s(), runtime.state(registryProjection).entities[id]!, now);
  const scoreOf = (id: string): CreditScore => scoreEntity(factsOf(id), now);
  /** Score and behavioral basis through the memo equal a computation without it. */
  const expectFresh = (id: string): void => {
    const { memo: _memo, ...fresh } = factsOf(id);
    expect(JSON.stringify(scoreOf(id)), id).to.equal(JSON.stringify(scoreEntity(fresh, now)));
    // The safety record's signals, each with its furnisher and in its place.
    expect(JSON.stringify(dimensionSignals(factsOf(id), now).safety_record), id).to.equal(
      JSON.stringify(dimensionSignals(fresh, now).safety_record),
    );
    expect(JSON.stringify(behaviorFactsWithDrops(factsOf(id), [], now)), id).to.equal(
      JSON.stringify(behaviorFactsWithDrops(fresh, [], now)),
    );
  };

  let n = 0;
  async function observe(fields: Record<string, unknown>, entity_id: string | null): Promise<void> {
    n += 1;
    const data = {
      observation_id: `OBS-${'a'.repeat(15)}${'bcdefgh'[n]!}`,
      project_id: project,
      entity_id,
      observed_on: now.toISOString().slice(0, 10),
      ...fields,
    } as ObservationRecordedData;
    const org_id = runtime.state(projectsProjection).projects[project]!.org_id;
    const { event } = seal(
      {
        id: `00000000-0000-4000-8000-00000000000${String(n)}`,
        stream: projectStream(project),
        type: 'ObservationRecorded',
        schema: 1,
        data,
        meta: { org_id, actor: 'test', request_id: `req_${String(n)}` },
        recorded_at: now.toISOString(),
      },
      head,
    );
    head = event;
    await runtime.apply([event]);
  }

  it('an unattributed incident forgets the GC only; one naming the sub forgets the sub only', async () => {
    const memo = factsMemoOf(runtime);
    const gcBefore = scoreOf(gc);
    const subBefore = scoreOf(sub);
    expect(scoreOf(gc)).to.equal(gcBefore); // remembered: the same object

    const takenIn = memo.takenIn;
    await observe({ kind: 'incident', recordable: true, lost_time: false }, null);
    expect(
      memo.takenIn - takenIn,
      'the GC’s remembered observation list and safety record’s signals took the incident in',
    ).to.equal(2);
    expect(scoreOf(sub), 'the sub is not the controlling employer: kept').to.equal(subBefore);
    const computed = memo.computed;
    const gcAfter = scoreOf(gc);
    expect(gcAfter, 'the GC recomputed').to.not.equal(gcBefore);
    // Only what reads observations: the safety record's score and the composite — not the context
    // (participation, findings) nor the other five dimensions' signals or scores; and neither the
    // GC's observations nor its safety record's signals are derived again: the remembered list
    // takes the incident in (`withObservationRecorded`), and the signals its signal
    // (`withSafetySignalsRecorded`).
    expect(memo.computed - computed, 'derivations computed again').to.equal(2);
    expect(gcAfter.dimensions.safety_record.signals).to.equal(gcBefore.dimensions.safety_record.signals + 1);
    expectFresh(gc);
    expectFresh(sub);

    const observed = memo.observed;
    const forgotten = memo.forgotten;
    await observe({ kind: 'incident', recordable: true, lost_time: true }, sub);
    expect(memo.observed).to.equal(observed + 1);
    expect(memo.forgotten, 'no entity forgotten whole').to.equal(forgotten);
    expect(scoreOf(gc), 'an incident naming the sub is not the GC’s fact: kept').to.equal(gcAfter);
    const subAfter = scoreOf(sub);
    expect(subAfter).to.not.equal(subBefore);
    expect(subAfter.dimensions.safety_record.signals).to.equal(
      subBefore.dimensions.safety_record.signals + 1,
    );
    expectFresh(gc);
    expectFresh(sub);
  });

  it('an observation dated after today is not yet a fact: the remembered list leaves it out, as a fresh read does', async () => {
    const memo = factsMemoOf(runtime);
    const ids = (facts: ReturnType<typeof factsOf> | Omit<ReturnType<typeof factsOf>, 'memo'>): string[] =>
      observationsOf(signalContext(facts, now)).map((o) => o.id);
    const before = ids(factsOf(gc)); // remembered
    const takenIn = memo.takenIn;
    const tomorrow = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
    await observe({ kind: 'incident', recordable: true, lost_time: false, observed_on: tomorrow }, null);
    expect(memo.takenIn, 'the remembered list was kept').to.equal(takenIn + 1);
    const { memo: _memo, ...fresh } = factsOf(gc);
    expect(ids(factsOf(gc)))
      .to.deep.equal(ids(fresh))
      .and.to.deep.equal(before);
    expectFresh(gc);
  });

  it('a serious citation naming the sub changes its behavioral basis too (a SERIOUS_CITATION trigger)', async () => {
    const triggers = (id: string): string[] =>
      behaviorFactsWithDrops(factsOf(id), [], now).triggers.map((t) => t.kind);
    const before = triggers(sub).filter((k) => k === 'SERIOUS_CITATION').length;
    const today = now.toISOString().slice(0, 10);
    await observe(
      {
        kind: 'osha_citation',
        activity_nr: '1234567',
        type: 'S',
        penalty: 500_000,
        abate_by: today,
        abated_on: null,
      },
      sub,
    );
    // A citation may restate another: the sub's observations are read afresh, with the safety
    // record's signals and score, and the composite.
    const memo = factsMemoOf(runtime);
    const computed = memo.computed;
    scoreOf(sub);
    expect(memo.computed - computed, 'derivations computed again').to.equal(4);
    expect(triggers(sub).filter((k) => k === 'SERIOUS_CITATION')).to.have.length(before + 1);
    expectFresh(sub);
    expectFresh(gc);
  });

  it('a milestone completes the project’s schedule and forgets every party', async () => {
    const memo = factsMemoOf(runtime);
    const gcBefore = scoreOf(gc);
    const subBefore = scoreOf(sub);
    await observe({ kind: 'milestone', name: milestone, completed_on: now.toISOString().slice(0, 10) }, null);
    const computed = memo.computed;
    expect(scoreOf(gc)).to.not.equal(gcBefore);
    expect(
      memo.computed - computed,
      'the context, the observations, six dimensions’ signals and scores, and the composite',
    ).to.equal(15);
    expect(scoreOf(sub)).to.not.equal(subBefore);
    expectFresh(gc);
    expectFresh(sub);
  });
});
