/**
 * `npm run bench` — SPEC §12's four measurements, each beside a baseline measured in the same run,
 * printed as a table and written to bench/results.json. Not a test: nothing here fails a build.
 *
 *   npm run bench                 full sizes: 100k and 1M-event ledgers (generated once, cached)
 *   npm run bench -- --quick      small sizes, a smoke run of every measurement
 *   npm run bench -- --only read,verify   a subset (read, write, rebuild, verify, tlog)
 *   npm run bench -- --sizes 50000,100000   other ledger sizes (small,large) than the mode's
 *   npm run bench -- --fresh      regenerate the cached datasets
 *   npm run bench -- --only read --trace   also what held the service's thread during `score`
 *                                          (its read-model flushes and event-loop gaps; info rows)
 *   npm run bench -- --profile    run every child under --cpu-prof (profiles in the cache dir)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { childFlags, REPO_ROOT } from './lib/child.js';
import { cacheRoot, dataset, type Dataset } from './lib/datasets.js';
import { printTable, targetsOf, type Results } from './lib/report.js';
import { measureRead, measureScoreOn, READ_ROUNDS } from './read.js';
import { measureReplay, measureStartup } from './rebuild.js';
import { measureVerify } from './verify.js';
import { measureWrite } from './write.js';
import { measureTlog } from './tlog.js';

const MEASUREMENTS = ['read', 'write', 'rebuild', 'verify', 'tlog'] as const;
type Measurement = (typeof MEASUREMENTS)[number];

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    fresh: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    trace: { type: 'boolean', default: false },
    sizes: { type: 'string' },
  },
});
const quick = values.quick;
const only = new Set<Measurement>(
  (values.only?.split(',').map((s) => s.trim()) ?? [...MEASUREMENTS]).filter((m): m is Measurement =>
    (MEASUREMENTS as readonly string[]).includes(m),
  ),
);
const given = values.sizes?.split(',').map(Number);
if (given && (given.length !== 2 || !given.every((n) => Number.isSafeInteger(n) && n > 0)))
  throw new Error(`--sizes takes two event counts, small,large (got ${values.sizes})`);
const sizes = given
  ? { small: given[0]!, large: given[1]! }
  : quick
    ? { small: 20_000, large: 50_000 }
    : { small: 100_000, large: 1_000_000 };
const load = quick
  ? { connections: 50, warmupSeconds: 1, seconds: 3 }
  : { connections: 50, warmupSeconds: 3, seconds: 10 };
if (values.profile) {
  const dir = join(cacheRoot(), 'profiles');
  mkdirSync(dir, { recursive: true });
  childFlags.push('--cpu-prof', `--cpu-prof-dir=${dir}`);
  process.stderr.write(`profiles go to ${dir}\n`);
}

const log = (message: string) =>
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
const started = performance.now();

async function ledger(events: number): Promise<Dataset> {
  log(`dataset: ${events.toLocaleString('en-US')} events`);
  let shown = 0;
  const ds = await dataset(events, {
    fresh: values.fresh,
    onProgress: (n) => {
      if (n - shown < events / 10) return;
      shown = n;
      log(`  generating… ${n.toLocaleString('en-US')}`);
    },
  });
  log(
    `  ${ds.generated ? `generated in ${ds.seconds}s` : 'cached'} at ${ds.dataDir} (head ${ds.head.hash.slice(0, 12)}…)`,
  );
  return ds;
}

const small = await ledger(sizes.small);
const large = await ledger(sizes.large);
const results: Results = {
  mode: quick ? 'quick' : 'full',
  started_at: new Date().toISOString(),
  machine: {
    cpus: cpus().length,
    model: cpus()[0]?.model ?? 'unknown',
    memory_gib: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    // Other work on the machine skews wall-clock figures; the load averages say how much there was.
    loadavg_at_start: loadavg().map((l) => Number(l.toFixed(2))),
  },
  datasets: Object.fromEntries(
    [small, large].map((d) => [
      d.events,
      { events: d.events, head: d.head, counts: d.counts, jobs: d.jobs, generated_in_s: d.seconds },
    ]),
  ),
  sizes,
};

if (only.has('read')) {
  log(`read: score vs bare Express vs node:http, ${load.connections} connections, ${load.seconds}s each`);
  results.read = await measureRead(small, load, { trace: values.trace, rounds: quick ? 1 : READ_ROUNDS });
  log(`read: score on the ${large.events.toLocaleString('en-US')}-event ledger (fresh start, no snapshots)`);
  results.read_large = { events: large.events, service: await measureScoreOn(large, load) };
}
if (only.has('write')) {
  log('write: Ledger.append vs raw better-sqlite3, then POST /api/observations over HTTP');
  results.write = await measureWrite(small, {
    commands: quick ? 2000 : 20_000,
    rounds: quick ? 1 : 3,
    http: load,
  });
}
if (only.has('rebuild')) {
  const replay = [];
  for (const ds of [small, large]) {
    log(`rebuild: replay ${ds.events.toLocaleString('en-US')} events (fresh heap, nothing persisted)`);
    replay.push(await measureReplay(ds));
  }
  const startup = [];
  for (const ds of [small, large]) {
    log(`rebuild: start-to-ready on ${ds.events.toLocaleString('en-US')} (first run, SIGTERM, second start)`);
    startup.push(await measureStartup(ds));
  }
  results.rebuild = {
    small: replay[0]!,
    large: replay[1]!,
    startup: { small: startup[0]!, large: startup[1]! },
  };
}
if (only.has('verify')) {
  log('verify: ledger:verify vs raw SHA-256');
  results.verify = {
    small: await measureVerify(small, quick ? 1 : 2),
    large: await measureVerify(large, quick ? 1 : 2),
  };
}
if (only.has('tlog')) {
  log('tlog: appends with/without the Merkle tree, inclusion proofs at 1M leaves, tile serving');
  results.tlog = await measureTlog(
    {
      commands: quick ? 1000 : 5000,
      rounds: quick ? 1 : 3,
      leaves: quick ? 100_000 : 1_000_000,
      samples: quick ? 2000 : 20_000,
      tileEvents: quick ? 20_000 : 100_000,
    },
    load,
  );
}
results.seconds = Math.round((performance.now() - started) / 1000);
results.machine.loadavg_at_end = loadavg().map((l) => Number(l.toFixed(2)));
results.targets = targetsOf(results);
const file = join(REPO_ROOT, 'bench', 'results.json');
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
printTable(results);
log(`done in ${results.seconds}s; wrote ${file}`);
