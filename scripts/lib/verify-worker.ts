/**
 * One share of a parallel `ledger:verify` (scripts/lib/parallel-verify.ts): verifies seqs
 * [from, to] of the SQLite ledger through its own connection, starting from the stored hash of the
 * row just before `from` — so together the shares check every content hash, link hash, prev_hash
 * link and seq step exactly once, as one sequential pass does.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteEventStore } from '../../src/platform/event-store/sqlite.js';
import { GENESIS_HASH, type LedgerHead } from '../../src/platform/ledger/envelope.js';
import { verifyStore } from '../../src/platform/ledger/verify-store.js';

export interface VerifyShare {
  path: string;
  from: number;
  to: number;
  stopAtFirstIssue: boolean;
}

const share = workerData as VerifyShare;
const store = SqliteEventStore.open(share.path);
const before = store.database
  .prepare<[number], LedgerHead>('SELECT seq, hash FROM events WHERE seq < ? ORDER BY seq DESC LIMIT 1')
  .get(share.from);
const result = await verifyStore(store, {
  from: before ?? { seq: 0, hash: GENESIS_HASH },
  to: share.to,
  stopAtFirstIssue: share.stopAtFirstIssue,
  pageSize: 5000,
  onProgress: (p) => parentPort!.postMessage({ type: 'progress', checked: p.checked }),
});
await store.close();
parentPort!.postMessage({ type: 'done', result });
