/**
 * `npm run ledger:verify` — streams the whole ledger through the chain verifier over the stored
 * bytes (across worker threads on a large ledger), then checks the chain still reaches the
 * read models' checkpoints (DATA_DIR/read-models.db): read models can only be stored at a seq
 * the ledger held, so a head below one means events were cut off the end. Exit 0 when the chain
 * verifies, 1 naming the first bad seq, 2 on usage errors.
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import type { VerifyIssue } from '../src/platform/ledger/verify.js';
import { VerifyWorkers } from './lib/verify-workers.js';

/**
 * From this many events the walk is split across threads. The worker is booted at the start either
 * way (below), so its boot costs the same whether it walks or is let go: on the 100k bench ledger a
 * run cost 1.6–1.8 CPU-s by default (worker booted, then released) and on two threads alike, 1.3–1.6
 * with `--workers 1`. With the second core taken (this shared box, load 8–11; Linux gives each
 * session a fair share, so a second thread adds none) two threads measured as fast as one at 100k
 * (10 alternating rounds); with the core free, faster (the last session, load ~1: 0.35× the
 * baseline on two threads, 0.22× on one). At 20k a walk is ~0.2 s, much of it JIT warm-up that
 * each thread pays for itself: under load two threads were no faster there (6 rounds even, then 3
 * of 4 slower), so a small ledger stays on one.
 */
const PARALLEL_FROM = 50_000;

/** Threads asked for: --workers N, else one per core up to 4 (used only on a large ledger). */
function threadsAsked(): number {
  const { values } = parseArgs({ options: { workers: { type: 'string' } }, strict: false });
  // Decimal digits only (read before ./lib/args.js loads: workers boot first).
  const asked = /^[0-9]{1,15}$/.test(String(values.workers)) ? Number(values.workers) : Number.NaN;
  return values.workers === undefined ? Math.min(4, availableParallelism()) : asked;
}

// A worker boots in about 0.2 s (it loads TypeScript), as long as this thread takes to load the
// modules below, so workers boot first and are ready when the walk starts; a ledger too small to
// share ends them unused. A bad --workers value boots none and is refused below.
const asked = threadsAsked();
const workers = VerifyWorkers.boot(Number.isInteger(asked) ? asked - 1 : 0);

const { verifyStore } = await import('../src/platform/ledger/verify-store.js');
const { config, EXIT_FAILED, EXIT_OK, EXIT_USAGE, openLedger, parseCli, progressBar, rate } =
  await import('./lib/cli.js');
const { verifyInParallel } = await import('./lib/parallel-verify.js');
const { mapForReading } = await import('./lib/verify-chunks.js');
const { checkpointsToCheck, checkpointOfNote } = await import('./lib/tlog-cli.js');
const { TreeOfLeaves, verifyTree } = await import('../src/platform/tlog/verify-tree.js');
const { storedCheckpointOf } = await import('../src/platform/projections/read-model-file.js');
const { isCorruption } = await import('../src/platform/projections/read-model-recovery.js');

const USAGE = `
Usage: npm run ledger:verify -- [--json] [--workers N] [--checkpoint <file> [--key <verifier key>]]

Verifies every event of the ledger (EVENTSTORE_URL, else DATA_DIR, default ./data): content hashes
over the stored canonical bytes (EventStoreDB keeps no raw bytes: rebuilt from the stored fields), link hashes, prev_hash links and seq continuity, and that the head is not below
a read model's stored checkpoint (truncation). Stops at the first bad seq. Then the transparency
log: the stored Merkle tiles must be the tree of the ledger's events, and the last checkpoint the
service signed, and any saved one, must have the root of that tree at its size (a checkpoint
larger than the ledger means events were cut off after it was signed).
  --checkpoint F  also check a checkpoint saved earlier (GET /tlog/checkpoint), e.g. by an auditor
  --key K         the log's verifier key to check F's signature with (default: the key in DATA_DIR's
                  secrets — which an insider holding the file may hold too; pin the published key)
  --json        print the result as JSON on stdout
  --workers N   verify on N threads, the main one and N−1 workers (default: one per core, up to 4,
                on ledgers of ${PARALLEL_FROM.toLocaleString('en-US')}+ events; otherwise 1)
Exit codes: 0 verified, 1 tampered (names the seq) or a ledger file SQLite cannot read, 2 usage or
configuration error (no ledger in DATA_DIR included: none is created).
`;
const cli = parseCli(USAGE, {
  workers: { type: 'string' },
  checkpoint: { type: 'string' },
  key: { type: 'string' },
});
if (!Number.isInteger(asked) || asked < 1) {
  process.stderr.write(`--workers must be a positive integer\n${USAGE}`);
  process.exit(EXIT_USAGE);
}
const cfg = config();
if (cli.values.key !== undefined && cli.values.checkpoint === undefined) {
  process.stderr.write(`--key checks the signature of --checkpoint's file: give --checkpoint too\n${USAGE}`);
  process.exit(EXIT_USAGE);
}
// The ledger first: without --key the checkpoint's key comes from DATA_DIR's secrets, which a
// DATA_DIR without a ledger must not have created for it.
const opened = await openLedger(cfg, { mustExist: true, damagedExit: EXIT_FAILED, json: cli.json });
const checkpoints = checkpointsToCheck(cfg, cli.values.checkpoint, cli.values.key, USAGE);
const { store, sqlite, tiles } = opened;
// The threaded walk reads the SQLite file itself; EventStoreDB is read through the port, page by page.
if (sqlite) mapForReading(sqlite);
const bar = progressBar('verify', !cli.json);
const head = await store.head();
const parallel =
  sqlite !== null && workers.size > 0 && (cli.values.workers !== undefined || head.seq >= PARALLEL_FROM);
if (!parallel) workers.release();
bar.start(head.seq);
const started = performance.now();
// SQLite is walked in chunks over raw rows, each row read once for the chain and for its Merkle
// leaf hash (the tree grows here as chunks come in); on one thread below PARALLEL_FROM. EventStoreDB
// is read through the port.
const leaves = new TreeOfLeaves();
const verified = sqlite
  ? await verifyInParallel(sqlite, head.seq, parallel ? workers : VerifyWorkers.boot(0), {
      stopAtFirstIssue: true,
      onProgress: (n) => bar.update(n),
      onLeaves: (index, run, tileRoots) => leaves.add(index, run, tileRoots),
    })
  : {
      ...(await verifyStore(store, { stopAtFirstIssue: true, onProgress: (p) => bar.update(p.checked) })),
      chunks: -1,
    };
bar.stop();
const signed = storedCheckpoint();
// The tree from the walk's leaf hashes; read from the ledger again only when the walk did not
// give them all (EventStoreDB, or a chain that already failed: the tree's own issues still count).
const tree =
  verified.ok && leaves.has(verified.chunks)
    ? leaves.verify(tiles, [...checkpoints, ...signed])
    : await verifyTree(store, tiles, [...checkpoints, ...signed]);
const ms = performance.now() - started;
const snapshotCheckpoint = readModelCheckpoint();
const { chunks: _chunks, ...chain } = verified;
const result = { ...chain, issues: [...verified.issues, ...truncation(head.seq), ...tree.issues] };
result.ok = result.issues.length === 0;
await opened.close();

/**
 * The read models' stored checkpoint, for the truncation check. A file SQLite cannot read is said
 * so (the service sets it aside and rebuilds it at its next start) and the chain is verified all
 * the same: it crashed this CLI with SQLITE_CORRUPT before a word about the ledger.
 */
function readModelCheckpoint(): number {
  try {
    return storedCheckpointOf(opened.readModelPath);
  } catch (error) {
    if (!isCorruption(error)) throw error;
    process.stderr.write(
      `warning: the read models at ${opened.readModelPath} are damaged (${(error as Error).message}); the head is not checked against their checkpoint (the service rebuilds them at its next start)\n`,
    );
    return 0;
  }
}

/** The last checkpoint the service signed (kept beside the tiles). */
function storedCheckpoint() {
  const note = tiles.getMeta('checkpoint');
  const c = note ? checkpointOfNote(note) : null;
  return c ? [{ label: 'the last checkpoint the service signed', checkpoint: c }] : [];
}

/** The chain ends below a read model's checkpoint: the events after the head were removed. */
function truncation(headSeq: number): VerifyIssue[] {
  const checkpoint = snapshotCheckpoint;
  if (checkpoint <= headSeq) return [];
  return [
    {
      code: 'seq_gap',
      seq: headSeq + 1,
      expected: `head ≥ ${checkpoint} (read-model checkpoint)`,
      actual: `head ${headSeq} (truncated)`,
    },
  ];
}

const first = result.issues[0];
const summary = {
  ok: result.ok,
  head: head.seq,
  checked: result.checked,
  verified_through: result.verified_through,
  workers: parallel ? workers.size + 1 : 1,
  events_per_second: rate(result.checked, ms),
  seconds: Number((ms / 1000).toFixed(3)),
  first_bad_seq: first?.seq ?? null,
  tree: { size: tree.size, root: tree.root.toString('base64') },
  issues: result.issues,
};
if (cli.json) {
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
} else if (first) {
  process.stdout.write(
    `TAMPERED at seq ${first.seq}: ${first.code} (expected ${first.expected}, found ${first.actual}); verified through seq ${result.verified_through}\n`,
  );
} else {
  process.stdout.write(
    `OK: ${result.checked.toLocaleString('en-US')} events verified through seq ${result.verified_through} in ${summary.seconds}s (${summary.events_per_second.toLocaleString('en-US')} events/s); Merkle tree of size ${tree.size}, root ${summary.tree.root}, matches its tiles and ${checkpoints.length + signed.length} signed checkpoint(s)\n`,
  );
}
process.exit(result.ok ? EXIT_OK : EXIT_FAILED);
