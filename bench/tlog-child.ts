/**
 * Child process for the transparency-log rows of `npm run bench`:
 *
 *   node --import tsx bench/tlog-child.ts append <commands> <rounds>
 *     Ledger.append of one event per command on a fresh SQLite ledger, without the tree and with it
 *     maintained in the append path (as compose wires it), alternating rounds; best of each.
 *   node --import tsx bench/tlog-child.ts proofs <leaves> <samples>
 *     a tile tree of <leaves> leaves stored in SQLite, then <samples> inclusion proofs of random
 *     leaves at the full size on the tree reopened from its stored tiles (a restarted service), each
 *     timed: a tile is read from SQLite and rehashed the first time a proof needs it.
 *   node --import tsx bench/tlog-child.ts ledger <DATA_DIR> <events>
 *     writes a ledger of <events> small events (for the tile-serving load).
 *   node --import tsx bench/tlog-child.ts receipt <commands> <rounds>
 *     one composed service (src/compose.ts, as the server runs it): recording commands answered as
 *     today (the append; the receipt is fetched later) against the same commands each answered
 *     with a full inline receipt — a checkpoint signed to cover the event, its inclusion proof, the
 *     receipt's JSON — alternating rounds on the same service; best of each.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compose } from '../src/compose.js';
import { systemClock } from '../src/platform/clock.js';
import { createLogger } from '../src/platform/log.js';
import { receiptFor } from '../src/platform/tlog/receipt.js';
import { SqliteEventStore } from '../src/platform/event-store/sqlite.js';
import { GENESIS_HASH, linkHash } from '../src/platform/ledger/envelope.js';
import { Ledger } from '../src/platform/ledger/ledger.js';
import { SqliteTileStorage } from '../src/platform/tlog/sqlite-tiles.js';
import { TileTree, type LeafEvent } from '../src/platform/tlog/tree.js';
import { quantile } from './lib/stats.js';

const [mode, a, b] = process.argv.slice(2);
const META = { org_id: null, actor: 'bench', request_id: 'req_bench' };

async function appendRound(commands: number, withTree: boolean): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'plumbline-bench-tlog-'));
  const store = SqliteEventStore.open(join(dir, 'ledger.db'));
  const tree = new TileTree(new SqliteTileStorage(store.database));
  const ledger = await Ledger.open(store, systemClock, withTree ? { onAppended: (e) => tree.append(e) } : {});
  const started = performance.now();
  for (let i = 0; i < commands; i += 1)
    await ledger.append(
      [{ stream: `bench-${i % 50}`, type: 'BenchNoted', data: { i, note: 'x'.repeat(200) } }],
      META,
    );
  const ms = performance.now() - started;
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return (commands * 1000) / ms;
}

if (mode === 'append') {
  const commands = Number(a);
  const rounds = Number(b);
  let without = 0;
  let withTree = 0;
  for (let r = 0; r < rounds; r += 1) {
    without = Math.max(without, await appendRound(commands, false));
    withTree = Math.max(withTree, await appendRound(commands, true));
  }
  process.stdout.write(
    `${JSON.stringify({ commands, without_per_second: Math.round(without), with_tree_per_second: Math.round(withTree), ratio: withTree / without })}\n`,
  );
} else if (mode === 'proofs') {
  const leaves = Number(a);
  const samples = Number(b);
  const dir = mkdtempSync(join(tmpdir(), 'plumbline-bench-proofs-'));
  const storage = new SqliteTileStorage(join(dir, 'tlog.db'));
  const build = performance.now();
  const tree = new TileTree(storage);
  let prev = GENESIS_HASH;
  const batch: LeafEvent[] = [];
  /** The leaves after the last full tile: tiles keep full tiles only, the service re-reads these. */
  let tail: LeafEvent[] = [];
  for (let seq = 1; seq <= leaves; seq += 1) {
    const content_hash = linkHash(seq, 'bench', 'content');
    const leaf = { seq, prev_hash: prev, content_hash };
    batch.push(leaf);
    if ((seq - 1) % 256 === 0) tail = [];
    tail.push(leaf);
    prev = linkHash(seq, prev, content_hash);
    if (batch.length === 10_000 || seq === leaves) tree.append(batch.splice(0));
  }
  const buildSeconds = (performance.now() - build) / 1000;
  // Proofs of random leaves on the tree as a restarted service opens it from the stored tiles: its
  // cache starts empty, so each level-0 tile is read back from SQLite and its interior levels
  // recomputed the first time a proof needs it (then kept, up to the tree's cache of tiles).
  const reopened = new TileTree(storage);
  if (tail.length < 256) reopened.append(tail);
  const size = reopened.size;
  if (size !== tree.size) throw new Error(`reopened tree has ${size} leaves, built ${tree.size}`);
  const times: number[] = [];
  let x = 0x9e3779b9;
  for (let i = 0; i < samples; i += 1) {
    x = (x * 1103515245 + 12345) >>> 0;
    const index = x % size;
    const t = performance.now();
    reopened.inclusionProof(index, size);
    times.push(performance.now() - t);
  }
  times.sort((p, q) => p - q);
  storage.close();
  rmSync(dir, { recursive: true, force: true });
  const at = (q: number) => Number(quantile(times, q).toFixed(3));
  process.stdout.write(
    `${JSON.stringify({ leaves: size, samples, build_seconds: Number(buildSeconds.toFixed(2)), p50_ms: at(0.5), p99_ms: at(0.99), max_ms: at(1) })}\n`,
  );
} else if (mode === 'ledger') {
  const store = SqliteEventStore.open(join(a!, 'ledger.db'));
  const ledger = await Ledger.open(store, systemClock);
  const events = Number(b);
  for (let i = 0; i < events; i += 500)
    await ledger.append(
      Array.from({ length: Math.min(500, events - i) }, (_, j) => ({
        stream: 'bench',
        type: 'BenchNoted',
        data: { i: i + j },
      })),
      META,
    );
  await store.close();
  process.stdout.write(`${JSON.stringify({ events })}\n`);
} else if (mode === 'receipt') {
  const commands = Number(a);
  const rounds = Number(b);
  const dir = mkdtempSync(join(tmpdir(), 'plumbline-bench-receipt-'));
  const service = await compose({
    dataDir: dir,
    clock: systemClock,
    logger: createLogger('warn'),
    publicBaseUrl: 'http://127.0.0.1',
  });
  const { ledger, tlog } = service.deps;
  let n = 0;
  let sink = 0;
  // One recording command: what every recording response commits.
  const record = () =>
    ledger.append(
      [{ stream: `bench-${n % 50}`, type: 'BenchNoted', data: { n: n++, note: 'x'.repeat(200) } }],
      META,
    );
  // Of an inline round: time spent signing (and storing) checkpoints, and building the receipts.
  let signMs = 0;
  let proofMs = 0;
  const round = async (inline: boolean): Promise<number> => {
    signMs = 0;
    proofMs = 0;
    const started = performance.now();
    for (let i = 0; i < commands; i += 1) {
      const { events } = await record();
      if (!inline) continue;
      // Signing per response: a checkpoint covering this event, then its proof against it.
      const t0 = performance.now();
      await tlog.publish();
      const t1 = performance.now();
      sink += JSON.stringify(await receiptFor(tlog, events[events.length - 1]!)).length;
      signMs += t1 - t0;
      proofMs += performance.now() - t1;
    }
    return (commands * 1000) / (performance.now() - started);
  };
  await round(false); // warm-up: JIT, the first tiles
  let without = 0;
  let inline = 0;
  let parts = { sign_us: 0, proof_us: 0 };
  for (let r = 0; r < rounds; r += 1) {
    without = Math.max(without, await round(false));
    const rate = await round(true);
    if (rate > inline) {
      inline = rate;
      parts = {
        sign_us: Math.round((signMs * 1000) / commands),
        proof_us: Math.round((proofMs * 1000) / commands),
      };
    }
  }
  await service.close();
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(
    `${JSON.stringify({
      commands,
      without_per_second: Math.round(without),
      inline_per_second: Math.round(inline),
      ratio: inline / without,
      receipt_us: Math.round(1e6 / inline - 1e6 / without),
      ...parts,
      sink,
    })}\n`,
  );
} else {
  process.stderr.write(
    'usage: tlog-child.ts append <commands> <rounds> | proofs <leaves> <samples> | ledger <dir> <n> | receipt <commands> <rounds>\n',
  );
  process.exit(2);
}
