import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { allProjections } from '../../../projections/index.js';
import { credit as creditProjection } from '../../../projections/credit.js';
import { ledgerIndex, type LedgerIndexState } from '../../../projections/ledger-index.js';
import { observationsProjection } from '../../../projections/observations.js';
import { projectsProjection } from '../../../projections/projects.js';
import { registryProjection } from '../../../projections/registry.js';
import { generateDataset } from '../../../bench/lib/generate.js';
import {
  creditReportIssued,
  inquiriesOf,
  registryVerified,
  scoreEntity,
  scoreHistory,
  verificationsOf,
} from '../../../src/credit/index.js';
import { sha256Hex } from '../../../src/platform/crypto/hash.js';
import type { EventInput } from '../../../src/platform/ledger/index.js';
import { sealGiven } from '../../support/decider.js';
import { entityFacts } from '../../../src/lender-api/entity-facts.js';
import { ManualClock } from '../../../src/platform/clock.js';
import { readAll } from '../../../src/platform/event-store/port.js';
import { SqliteEventStore } from '../../../src/platform/event-store/sqlite.js';
import type { Service } from '../../../src/platform/http/service.js';
import type { SealedEvent } from '../../../src/platform/ledger/index.js';
import {
  ProjectionRuntime,
  ReadModelFile,
  ReadModelFileBusy,
  storedCheckpointOf,
  valuesOf,
} from '../../../src/platform/projections/index.js';
import { Rng } from '../../../bench/lib/prng.js';
import { foldingOn } from '../../support/read-model.js';

/**
 * Read models on disk (ISSUE 19) are the same pure function of the ledger prefix as the heap fold.
 * A generated ledger (through the real deciders) is folded twice — in the heap, and onto a
 * read-model file with a cache of a few dozen records, so nearly every record is written, evicted
 * and read back — in random batches; at every flush the two must be the same JSON, key order
 * included, and answer the same scores. Then a node that stops without closing restarts from its
 * stored checkpoints, and a rebuild, each to the same states.
 */
describe('read models on a read-model file (property)', function () {
  this.timeout(240_000);
  let dir: string;
  let events: SealedEvent[];
  let creditIds: string[];
  /** Every org, project and entity an observation names: the owners of its id lists. */
  let observationOwners: { org: string[]; project: string[]; entity: string[] };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plumbline-read-model-file-'));
    await generateDataset({ dataDir: dir, events: 3000, seed: 'read-model-file' });
    const store = SqliteEventStore.open(join(dir, 'ledger.db'));
    events = [];
    for await (const event of readAll(store)) events.push(event);
    // Credit inquiries and registry checks (the generator records none): records of their own per
    // event, keyed by entity (issue 19), for real entities and ids that are prefixes of each other,
    // dated out of order now and then (the drop watch then falls back to the history).
    const entityIds = [...new Set(events.map((e) => (e.data as { entity_id?: unknown }).entity_id))]
      .filter((id): id is string => typeof id === 'string')
      .slice(0, 4);
    const ids = [...entityIds, 'ent_p', 'ent_p/q', 'ent_pq'];
    const rng = new Rng('read-model-file-credit');
    const credit: EventInput[] = [];
    for (let i = 0; i < 400; i += 1) {
      const entity_id = ids[Math.floor(rng.next() * ids.length)]!;
      const day = 1 + Math.floor(i / 8) + (rng.next() < 0.05 ? -5 : 0);
      const as_of = new Date(Date.UTC(2026, 0, day, 12)).toISOString();
      credit.push(
        rng.next() < 0.75
          ? creditReportIssued({
              entity_id,
              as_of,
              provenance_hash: sha256Hex(`report-${i}`),
              provenance: {
                sha256: sha256Hex(`report-${i}`),
                sha3_256: sha256Hex(`report-${i}/sha3`),
                blake2b_256: sha256Hex(`report-${i}/blake2b`),
              },
              credit: { composite_score: Math.floor(rng.next() * 1000) / 10, grade: 'B' },
            })
          : registryVerified(entity_id, {
              registration: 'active',
              exclusions: 'clear',
              exclusion_active_since: null,
              exclusion_terminated_on: null,
              checked_at: as_of,
              source: {
                kind: 'sam_extract',
                file: 'SAM_Exclusions_Public_Extract_20049.zip',
                as_of: '2026-01-01',
              },
            }),
      );
    }
    const last = events[events.length - 1]!;
    const sealed = sealGiven(
      credit.map((e) => ({ ...e, org_id: 'org_lender_a' })),
      { seq: last.seq, hash: last.hash },
    );
    // After the generated ledger: the random batches below still mix them with flushes and evictions.
    await store.append(sealed, last.seq);
    events.push(...sealed);
    creditIds = ids;
    const owners = { org: new Set<string>(), project: new Set<string>(), entity: new Set<string>() };
    for (const e of events) {
      if (e.type !== 'ObservationRecorded') continue;
      const data = e.data as { project_id: string | null; entity_id: string | null };
      owners.org.add(e.meta.org_id!);
      if (data.project_id !== null) owners.project.add(data.project_id);
      if (data.entity_id !== null) owners.entity.add(data.entity_id);
    }
    observationOwners = { org: [...owners.org], project: [...owners.project], entity: [...owners.entity] };
    await store.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Every projection's state as JSON (a disk collection reads as the object it stands for). */
  function snapshotOf(runtime: ProjectionRuntime): Record<string, string> {
    const out: Record<string, string> = {};
    for (const name of runtime.names()) {
      if (name === ledgerIndex.name) continue;
      out[name] = JSON.stringify(runtime.state(name));
    }
    return out;
  }

  /** The ledger index answers alike for every event hash and every recorded artifact hash. */
  function indexAnswers(runtime: ProjectionRuntime, upTo: number): string {
    const index = runtime.state<LedgerIndexState>(ledgerIndex);
    const answers: unknown[] = [index.count];
    for (const e of events) {
      if (e.seq > upTo) break;
      answers.push(index.eventSeq(e.hash));
      const artifacts = (e.data as { artifacts?: { hash: string }[] }).artifacts ?? [];
      for (const a of artifacts) answers.push(index.artifact(a.hash));
    }
    answers.push(index.eventSeq('f'.repeat(64)), index.artifact('not-a-hash'));
    return JSON.stringify(answers);
  }

  /** Each entity's inquiries, checks and score history, read by key range on the file. */
  function creditAnswers(runtime: ProjectionRuntime): string {
    const state = runtime.state(creditProjection);
    return JSON.stringify(
      creditIds.map((id) => [inquiriesOf(state, id), verificationsOf(state, id), scoreHistory(state, id)]),
    );
  }

  /**
   * Each org's, project's and entity's observation ids and each org's project and resolution ids
   * (append-only lists: on the file, rows of tails read by key range), and whether an owner is listed.
   */
  function observationAnswers(runtime: ProjectionRuntime): string {
    const s = runtime.state(observationsProjection);
    const p = runtime.state(projectsProjection);
    return JSON.stringify([
      observationOwners.org.map((id) => p.project_ids_by_org[id] ?? null),
      observationOwners.org.map((id) => p.resolution_ids_by_org[id] ?? null),
      observationOwners.org.map((id) => s.by_org[id] ?? null),
      observationOwners.project.map((id) => s.by_project[id] ?? null),
      observationOwners.entity.map((id) => s.by_entity[id] ?? null),
    ]);
  }

  function scoresOf(runtime: ProjectionRuntime, now: Date): string[] {
    const s = { runtime } as unknown as Service;
    return valuesOf(runtime.state(registryProjection).entities)
      .slice(0, 8)
      .map((entity) => {
        const { memo: _memo, ...facts } = entityFacts(s, entity, now);
        return JSON.stringify(scoreEntity(facts, now));
      });
  }

  it('folds to the same states as the heap after every flush, with a tiny cache', async () => {
    const store = SqliteEventStore.open(join(dir, 'ledger.db'));
    const clock = new ManualClock(new Date(events[0]!.recorded_at));
    const heap = new ProjectionRuntime(store, allProjections(), null, clock);
    const file = ReadModelFile.own(':memory:', { cacheRecords: 40 });
    const disk = new ProjectionRuntime(store, allProjections(), null, clock, { disk: file, flushDelayMs: 0 });
    const rng = new Rng('read-model-file-batches');
    const random = () => rng.next();
    let at = 0;
    let compared = 0;
    while (at < events.length) {
      const batch = events.slice(at, at + 1 + Math.floor(random() * 120));
      at += batch.length;
      await heap.apply(batch);
      await disk.apply(batch);
      expect(disk.position).to.equal(heap.position);
      expect(file.dirty, 'apply flushes').to.equal(false);
      expect(file.cachedRecords).to.be.at.most(60);
      if (random() < 0.25 || at === events.length) {
        expect(snapshotOf(disk), `states at seq ${disk.position}`).to.deep.equal(snapshotOf(heap));
        expect(indexAnswers(disk, disk.position)).to.equal(indexAnswers(heap, heap.position));
        expect(creditAnswers(disk)).to.equal(creditAnswers(heap));
        expect(observationAnswers(disk)).to.equal(observationAnswers(heap));
        const now = new Date(batch[batch.length - 1]!.recorded_at);
        expect(scoresOf(disk, now)).to.deep.equal(scoresOf(heap, now));
        compared += 1;
      }
    }
    expect(compared).to.be.greaterThan(5);
    // The workload really filled the read models.
    expect(Object.keys(heap.state(projectsProjection).draws).length).to.be.greaterThan(20);
    const credit = heap.state(creditProjection);
    expect(Object.keys(credit.inquiries).length).to.be.greaterThan(250);
    expect(Object.keys(credit.verifications).length).to.be.greaterThan(50);
    expect(inquiriesOf(credit, 'ent_p').length).to.be.greaterThan(10);
    const observed = heap.state(observationsProjection);
    expect(observationOwners.org.length).to.be.greaterThan(1);
    expect(observed.by_org[observationOwners.org[0]!]!.length).to.be.greaterThan(50);
    const projects = heap.state(projectsProjection);
    expect(observationOwners.org.map((id) => projects.project_ids_by_org[id]?.length ?? 0)).to.satisfy(
      (counts: number[]) => counts.every((n) => n > 0),
    );
    expect(Object.keys(projects.resolution_ids_by_org).length).to.be.greaterThan(0);
    file.close();
    await store.close();
  });

  it('restarts from its stored checkpoints after a stop without close, and rebuilds to the same states', async () => {
    const store = SqliteEventStore.open(join(dir, 'ledger.db'));
    const clock = new ManualClock(new Date(events[0]!.recorded_at));
    const heap = new ProjectionRuntime(store, allProjections(), null, clock);
    await heap.start();
    const path = join(dir, 'read-models.db');
    const half = events.slice(0, Math.floor(events.length / 2));

    const first = new ProjectionRuntime(store, allProjections(), null, clock, {
      disk: ReadModelFile.own(path, { cacheRecords: 50 }),
      flushDelayMs: 0,
    });
    await first.apply(half);
    expect(storedCheckpointOf(path)).to.equal(half.length);
    // The process goes on and never closes `first` (as a killed node would not): a new handle of
    // this process takes the file over, opens at the stored checkpoint and catches up.
    const file = ReadModelFile.own(path, { cacheRecords: 50 });
    // A catch-up flushes by records waiting as well as by events: a small budget makes it flush often.
    const second = new ProjectionRuntime(store, allProjections(), null, clock, {
      disk: file,
      flushRecords: 300,
    });
    expect(second.position).to.equal(half.length);
    await second.start();
    expect(second.position).to.equal(events.length);
    expect(snapshotOf(second)).to.deep.equal(snapshotOf(heap));
    expect(indexAnswers(second, events.length)).to.equal(indexAnswers(heap, events.length));
    expect(creditAnswers(second)).to.equal(creditAnswers(heap));
    expect(observationAnswers(second)).to.equal(observationAnswers(heap));

    const flushes = file.stats.flushes;
    let progress = 0;
    await second.rebuild((p) => (progress = p.position));
    expect(file.stats.flushes - flushes, 'a rebuild flushes as it goes').to.be.greaterThan(3);
    expect(progress).to.equal(events.length);
    expect(snapshotOf(second)).to.deep.equal(snapshotOf(heap));
    expect(indexAnswers(second, events.length)).to.equal(indexAnswers(heap, events.length));
    expect(creditAnswers(second)).to.equal(creditAnswers(heap));
    expect(observationAnswers(second)).to.equal(observationAnswers(heap));
    await second.stop();
    file.close();
    expect(existsSync(`${path}.owner`)).to.equal(false);
    await store.close();
  });

  it('insertIfAbsent: the first record of a key wins, stored or not, in insertion order', () => {
    const file = ReadModelFile.own(':memory:', { cacheRecords: 100 });
    const c = file.collection<number>('t.index');
    const fold = foldingOn(file);
    fold(() => {
      c.insertIfAbsent('a', 1);
      c.set('b', 2);
      c.insertIfAbsent('a', 9); // inserted before: kept
      c.insertIfAbsent('c', 3);
    });
    expect(c.get('a')).to.equal(1);
    expect(c.has('c')).to.equal(true);
    expect(c.entries()).to.deep.equal([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    file.flush([]);
    expect(file.pendingRecords).to.equal(0);
    // Not cached after the flush (written only), yet stored: a later insert of a stored key is
    // dropped by the flush, and the stored record answers meanwhile.
    expect(c.cache.has('a')).to.equal(false);
    fold(() => {
      c.insertIfAbsent('a', 7);
      c.insertIfAbsent('d', 4);
      c.delete('c');
      c.insertIfAbsent('c', 5); // deleted since the flush: this one is the first now
    });
    expect(file.pendingRecords).to.be.greaterThan(0);
    expect(c.get('a')).to.equal(1);
    file.flush([]);
    expect(c.get('a')).to.equal(1);
    expect(c.get('c')).to.equal(5);
    expect(c.entries()).to.deep.equal([
      ['a', 1],
      ['b', 2],
      ['d', 4],
      ['c', 5],
    ]);
    expect(() => c.insertIfAbsent('e', 1)).to.throw(TypeError, /read-only outside/);

    // A record a fold only reads is marked changed, but the flush does not write it again.
    const records = file.collection<{ n: number }>('t.records');
    fold(() => records.set('r', { n: 1 }));
    file.flush([]);
    const writes = file.stats.writes;
    fold(() => void records.get('r'));
    file.flush([]);
    expect(file.stats.writes).to.equal(writes);
    fold(() => (records.get('r')!.n += 1));
    file.flush([]);
    expect(file.stats.writes).to.equal(writes + 1);
    file.close();
  });

  it('keeps read models read-only outside the fold, and refuses a second live owner', async () => {
    const store = SqliteEventStore.open(join(dir, 'ledger.db'));
    const clock = new ManualClock(new Date(events[0]!.recorded_at));
    const file = ReadModelFile.own(':memory:');
    const runtime = new ProjectionRuntime(store, allProjections(), null, clock, { disk: file });
    await runtime.apply(events.slice(0, 200));
    const projects = runtime.state(projectsProjection).projects;
    expect(() => {
      projects['p-x'] = projects[Object.keys(projects)[0]!]!;
    }).to.throw(TypeError, /read-only outside/);
    file.close();
    await store.close();

    // A live process other than this one owns the file: refused, naming it.
    const path = join(dir, 'owned.db');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${path}.owner`, String(process.ppid));
    expect(() => ReadModelFile.own(path)).to.throw(ReadModelFileBusy, new RegExp(`pid ${process.ppid}`));
    // A dead owner's file is taken over.
    writeFileSync(`${path}.owner`, '999999999');
    ReadModelFile.own(path).close();
  });
});
