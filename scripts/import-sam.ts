/**
 * `npm run import-sam -- <file>` — imports a SAM.gov exclusions CSV or entity V2 extract (plain or
 * zipped) into the configured ledger (EVENTSTORE_URL, else DATA_DIR), with a progress bar on stderr and a summary on stdout.
 * Exit 0 imported (rejected rows are listed), 1 file rejected, 2 usage or configuration error.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import cliProgress from 'cli-progress';
import { registryProjection } from '../projections/registry.js';
import { systemClock } from '../src/platform/clock.js';
import { Ledger } from '../src/platform/ledger/ledger.js';
import { ProjectionRuntime } from '../src/platform/projections/runtime.js';
import { importSamFile, type ImportProgress, type ImportSummary } from '../src/registry/index.js';
import {
  config,
  EXIT_FAILED,
  EXIT_OK,
  EXIT_USAGE,
  openLedger,
  parseCli,
  readModelsForCli,
  rate,
} from './lib/cli.js';

const USAGE = `
Usage: npm run import-sam -- <file> [--json]

Imports a SAM.gov extract into the ledger (EVENTSTORE_URL, else DATA_DIR, default ./data): the exclusions public
extract (CSV) or the entity public extract V2 (.dat), plain or zipped. One event per new or
changed record; importing the same file again records nothing.
  --json   print the summary as JSON on stdout
Exit codes: 0 imported (rejected rows are listed), 1 file rejected (or appends suspended after an
integrity failure), 2 usage or configuration error.
`;
/** Rejected rows printed in the human summary (--json has up to 1,000). */
const SHOWN_REJECTIONS = 20;
const MIB = 2 ** 20;

function usageError(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE.trim()}\n`);
  process.exit(EXIT_USAGE);
}

function progressBar(enabled: boolean) {
  if (!enabled) return { update: (_p: ImportProgress) => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    {
      format: '{phase} |{bar}| {percentage}% | {rows} rows | {mib}/{total_mib} MiB | ETA {eta_formatted}',
      stream: process.stderr,
      noTTYOutput: true,
      notTTYSchedule: 2000,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(p: ImportProgress) {
      const payload = {
        phase: p.phase,
        rows: p.rows_read.toLocaleString('en-US'),
        mib: (p.bytes / MIB).toFixed(1),
        total_mib: (p.total_bytes / MIB).toFixed(1),
      };
      if (!started) bar.start(Math.max(p.total_bytes, 1), 0, payload);
      started = true;
      bar.update(p.bytes, payload);
    },
    stop: () => bar.stop(),
  };
}

function printSummary(s: ImportSummary, seconds: number): void {
  const n = (x: number) => x.toLocaleString('en-US').padStart(10);
  const kind = s.format === 'entity_v2' ? 'SAM entity extract V2' : 'SAM exclusions extract';
  const lines = [
    `Imported ${kind} ${s.file} (as of ${s.as_of}, sha256 ${s.file_sha256.slice(0, 16)}…)`,
    `  rows read        ${n(s.rows_read)}${s.declared_rows === null ? '' : `  (BOF declares ${s.declared_rows})`}`,
    `  imported         ${n(s.imported)}  new or changed records`,
    `  unchanged        ${n(s.unchanged)}`,
    `  rejected         ${n(s.rejected_count)}`,
    `  repaired         ${n(s.repaired.length)}${s.repaired.length ? `  lines ${s.repaired.map((r) => r.line).join(', ')}` : ''}`,
    `  events appended  ${n(s.events_appended)}`,
    `  took ${seconds.toFixed(2)} s (${rate(s.rows_read, seconds * 1000).toLocaleString('en-US')} rows/s)`,
  ];
  if (s.rejected_count > 0) {
    lines.push(
      `Rejected rows (first ${Math.min(SHOWN_REJECTIONS, s.rejected_count)} of ${s.rejected_count}):`,
    );
    for (const r of s.rejected.slice(0, SHOWN_REJECTIONS)) lines.push(`  line ${r.line}: ${r.reason}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

const cli = parseCli(USAGE, {});
if (cli.positionals.length !== 1) usageError('import-sam needs exactly one file');
const file = resolve(cli.positionals[0]!);
try {
  if (!statSync(file).isFile()) usageError(`not a file: ${file}`);
} catch {
  usageError(`no such file: ${file}`);
}
const cfg = config();
const opened = await openLedger(cfg, { json: cli.json, appends: true });
const { store } = opened;
const runtime = new ProjectionRuntime(
  store,
  [registryProjection],
  null,
  systemClock,
  readModelsForCli(opened),
);
await runtime.start();
const ledger = await Ledger.open(store, systemClock, {
  onAppended: (events) => runtime.apply(events),
  onConflict: () => runtime.catchUp(),
});
const bar = progressBar(!cli.json);
const started = performance.now();
const result = await importSamFile(file, {
  ledger,
  registryState: () => runtime.state(registryProjection),
  now: new Date(),
  onProgress: (p) => bar.update(p),
});
const seconds = (performance.now() - started) / 1000;
bar.stop();
await runtime.stop();
await opened.close();

if (!result.ok) {
  const { file: name, line, reason } = result.rejection;
  if (cli.json) process.stdout.write(`${JSON.stringify({ ok: false, ...result.rejection }, null, 2)}\n`);
  else process.stderr.write(`Rejected ${name}${line === null ? '' : ` (line ${line})`}: ${reason}\n`);
  process.exit(EXIT_FAILED);
}
if (cli.json) {
  const out = { ok: true, ...result.summary, seconds: Number(seconds.toFixed(3)) };
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
} else {
  printSummary(result.summary, seconds);
}
process.exit(EXIT_OK);
