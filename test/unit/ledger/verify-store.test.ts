import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { EventStore } from '../../../src/platform/event-store/port.js';
import { SqliteEventStore } from '../../../src/platform/event-store/sqlite.js';
import { verifyStore } from '../../../src/platform/ledger/verify-store.js';
import { leafHash } from '../../../src/platform/tlog/merkle.js';
import { eventLeafHash } from '../../../src/platform/tlog/tree.js';
import { chain } from '../../support/events.js';

const EVENTS = 120;

const TAMPERING: { name: string; sql: string }[] = [
  { name: 'nothing', sql: '' },
  {
    name: 'a content edit',
    sql: `UPDATE events SET content = replace(content, 'event', 'evnt') WHERE seq = 40`,
  },
  { name: 'a hash edit', sql: `UPDATE events SET hash = '${'e'.repeat(64)}' WHERE seq = 25` },
  { name: 'a deletion', sql: 'DELETE FROM events WHERE seq = 26' },
  {
    name: 'a prev_hash edit (the leaf no longer matches the tree either)',
    sql: `UPDATE events SET prev_hash = '${'a'.repeat(64)}' WHERE seq = 70`,
  },
];

/** The store with its row reads counted: pages walked row by row instead of packed. */
function counted(store: SqliteEventStore): { store: EventStore; rowReads: () => number } {
  let reads = 0;
  const seen = {
    head: () => store.head(),
    readRecords: (from: number, limit: number) => store.readRecords(from, limit),
    readPacked: (from: number, to: number) => store.readPacked(from, to),
    readRows: (from: number, limit: number) => {
      reads += 1;
      return store.readRows(from, limit);
    },
  };
  return { store: seen as unknown as EventStore, rowReads: () => reads };
}

/** The same store seen through `readRecords` only, as a store without raw rows (EventStoreDB). */
function recordsOnly(store: SqliteEventStore): EventStore {
  return {
    head: () => store.head(),
    readRecords: (from: number, limit: number) => store.readRecords(from, limit),
  } as unknown as EventStore;
}

describe('verifyStore over raw rows (the background verifier on SQLite)', function () {
  this.timeout(30_000);
  let dir: string;
  let path: string;
  let leaves: Buffer[];
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plumbline-verify-store-'));
    path = join(dir, 'ledger.db');
    const store = SqliteEventStore.open(path);
    await store.append(chain(EVENTS), 0);
    leaves = (await store.readRecords(1, EVENTS)).map((r) => eventLeafHash(r));
    await store.close();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const { name, sql } of TAMPERING)
    for (const forgedLeaf of [false, true])
      it(`answers as the record walk after ${name}${forgedLeaf ? ', with a forged tree leaf' : ''}`, async () => {
        const store = SqliteEventStore.open(path);
        try {
          if (sql) {
            store.database.exec('DROP TRIGGER events_are_immutable; DROP TRIGGER events_are_permanent;');
            store.database.exec(sql);
          }
          const treeLeaves = [...leaves];
          if (forgedLeaf) treeLeaves[89] = Buffer.alloc(32, 7);
          const tree = { leaf: (seq: number) => treeLeaves[seq - 1], hashLeaf: leafHash };
          for (const from of [undefined, { seq: 10, hash: (await store.readRecords(10, 1))[0]!.hash }]) {
            const opts = { tree, pageSize: 16, ...(from ? { from } : {}) };
            const packed = counted(store);
            const rows = await verifyStore(packed.store, opts);
            const records = await verifyStore(recordsOnly(store), opts);
            expect(rows).to.deep.equal(records);
            // Whole sound pages go packed: only the last, partial page is read row by row, and a
            // page with an issue (chain or tree) once more.
            if (sql === '' && !forgedLeaf) expect(packed.rowReads()).to.equal(1);
            else expect(packed.rowReads()).to.be.within(2, 3);
            expect(rows.ok).to.equal(sql === '' && !forgedLeaf);
            if (forgedLeaf) expect(rows.issues.map((i) => i.code)).to.include('tree_mismatch');
          }
        } finally {
          await store.close();
        }
      });
});
