/**
 * Probe (not part of `npm run bench`): where a replay's time goes — the store's page reads alone,
 * then each projection folded separately over the same pages, with its snapshot's size and
 * encode/decode times. `node --import tsx bench/probe-projections.ts <DATA_DIR> [limit]`
 */
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { allProjections } from '../projections/index.js';
import { SqliteEventStore } from '../src/platform/event-store/sqlite.js';
import type { SealedEvent } from '../src/platform/ledger/envelope.js';
import type { Projection } from '../src/platform/projections/runtime.js';
import { decodeState, encodeState } from '../src/platform/projections/runtime.js';

const [dataDir, limitArg] = process.argv.slice(2);
const store = SqliteEventStore.open(join(dataDir!, 'ledger.db'));
const limit = Number(limitArg ?? Number.MAX_SAFE_INTEGER);
const mib = (n: number) => (n / 2 ** 20).toFixed(0);

async function pages(fn: (page: SealedEvent[]) => void): Promise<number> {
  let from = 1;
  let n = 0;
  for (;;) {
    const page = await store.read(from, 5000);
    if (page.length === 0 || n >= limit) return n;
    fn(page);
    n += page.length;
    from = page[page.length - 1]!.seq + 1;
  }
}

let t = performance.now();
const n = await pages(() => undefined);
console.log(`store.read ${n} events ${(performance.now() - t).toFixed(0)} ms`);
for (const p of allProjections() as Projection<unknown>[]) {
  // The read is timed apart: evolve time = total − read.
  let state = p.init();
  let evolveMs = 0;
  await pages((page) => {
    const s = performance.now();
    for (const e of page) state = p.evolve(state, e);
    evolveMs += performance.now() - s;
  });
  t = performance.now();
  const bytes = encodeState(p, state);
  const encMs = performance.now() - t;
  t = performance.now();
  decodeState(p, bytes);
  const decMs = performance.now() - t;
  t = performance.now();
  const v8bytes = serialize(state);
  const v8encMs = performance.now() - t;
  t = performance.now();
  deserialize(v8bytes);
  const v8decMs = performance.now() - t;
  console.log(
    `${p.name.padEnd(14)} evolve ${evolveMs.toFixed(0).padStart(5)} ms  snapshot ${mib(bytes.length).padStart(4)} MiB  encode ${encMs.toFixed(0).padStart(5)} ms  decode ${decMs.toFixed(0).padStart(5)} ms | v8 ${mib(v8bytes.length)} MiB ${v8encMs.toFixed(0)}/${v8decMs.toFixed(0)} ms`,
  );
}
const m = process.memoryUsage();
console.log(`heap ${mib(m.heapUsed)} MiB rss ${mib(m.rss)} MiB`);
await store.close();
