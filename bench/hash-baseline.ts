/**
 * Child process: the verify baseline — one raw SHA-256 over each stored event's canonical bytes
 * (the bytes `ledger:verify` hashes), nothing else. Rows are read page by page first and only the
 * hashing is timed, so the figure is the hash's own speed on the same data.
 *
 *   node --import tsx bench/hash-baseline.ts <DATA_DIR>   → {"events", "seconds", "events_per_second", "bytes"}
 */
import * as crypto from 'node:crypto';
import { join } from 'node:path';
import { SqliteEventStore } from '../src/platform/event-store/sqlite.js';

/** node:crypto's one-shot `hash()` (Node ≥ 20.12) when present: the fastest plain SHA-256 here. */
const oneShot = (crypto as { hash?: (alg: string, data: string, enc: 'hex') => string }).hash;
const sha256 = oneShot
  ? (text: string) => oneShot('sha256', text, 'hex')
  : (text: string) => crypto.createHash('sha256').update(text).digest('hex');

const dataDir = process.argv[2]!;
const store = SqliteEventStore.open(join(dataDir, 'ledger.db'));
let events = 0;
let bytes = 0;
let ms = 0;
let sink = 0;
for (let next = 1; ;) {
  const page = await store.readRecords(next, 10_000);
  if (page.length === 0) break;
  const started = performance.now();
  for (const record of page) sink ^= sha256(record.content).charCodeAt(0);
  ms += performance.now() - started;
  for (const record of page) bytes += Buffer.byteLength(record.content);
  events += page.length;
  next = page[page.length - 1]!.seq + 1;
}
await store.close();
process.stdout.write(
  `${JSON.stringify({ events, bytes, seconds: ms / 1000, events_per_second: Math.round((events * 1000) / ms), sink })}\n`,
);
