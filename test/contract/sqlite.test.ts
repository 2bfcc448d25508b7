import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../src/platform/event-store/sqlite.js';
import { runEventStoreContract } from './event-store.contract.js';

const dirs: string[] = [];
let lastPath = '';
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

runEventStoreContract('SqliteEventStore', {
  makeStore() {
    const dir = mkdtempSync(join(tmpdir(), 'plumbline-contract-'));
    dirs.push(dir);
    lastPath = join(dir, 'ledger.db');
    return Promise.resolve(SqliteEventStore.open(lastPath, { pollIntervalMs: 20 }));
  },
  secondHandle() {
    return Promise.resolve(SqliteEventStore.open(lastPath, { pollIntervalMs: 20 }));
  },
});
