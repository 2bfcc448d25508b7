/**
 * A worker of a parallel `ledger:verify` (scripts/lib/parallel-verify.ts): boots, waits for the
 * plan, then claims chunks of the SQLite ledger (scripts/lib/verify-chunks.ts) through its own
 * connection until none is left, reporting each as it is done — unless the main thread finished
 * the ledger first.
 */
import { parentPort } from 'node:worker_threads';
import { SqliteEventStore } from '../../src/platform/event-store/sqlite.js';
import {
  mapForReading,
  startClaiming,
  verifyClaimedChunks,
  type ChunkPlan,
  type ChunkResult,
} from './verify-chunks.js';

export interface VerifyAssignment {
  type: 'plan';
  path: string;
  plan: ChunkPlan;
  control: Int32Array;
  /** This worker's slot in the control block. */
  slot: number;
}

export type VerifyWorkerMessage = { type: 'chunk'; chunk: ChunkResult } | { type: 'done' };

const port = parentPort!;
// SQLite's first connection in a thread costs ~10 ms (the addon's per-thread set-up, SQLite's own
// initialization); paid here, while the main thread is still loading its modules, the ledger's own
// connection takes ~1 ms once the plan arrives (it took 7–15 ms of each parallel pass).
await SqliteEventStore.open(':memory:').close();
port.once('message', (assignment: VerifyAssignment) => {
  void (async () => {
    const { path, plan, control, slot } = assignment;
    if (!startClaiming(control, slot)) {
      port.postMessage({ type: 'done' } satisfies VerifyWorkerMessage);
      port.close();
      return;
    }
    const store = SqliteEventStore.open(path);
    mapForReading(store);
    await verifyClaimedChunks(store, plan, control, (chunk) => {
      // The leaves' buffer is the chunk's own (LeafRun): moved to the main thread, not copied.
      const moved = chunk.leaves ? [chunk.leaves.buffer as ArrayBuffer] : [];
      port.postMessage({ type: 'chunk', chunk } satisfies VerifyWorkerMessage, moved);
    });
    // Done before the connection is closed: closing unmaps the ledger file the walk mapped page by
    // page (13 ms on the 100k bench ledger, ~100 ms on the 1M one), and the pass waits for this.
    port.postMessage({ type: 'done' } satisfies VerifyWorkerMessage);
    await store.close();
    port.close();
  })();
});
