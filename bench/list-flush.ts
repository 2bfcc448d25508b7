/**
 * What a live flush writes after one observation of a big org (issue 19, docs/benchmarks.md "An
 * org's id lists out of its record"): the observations projection folded onto a fresh read-model
 * file as the runtime folds it, N observations of `ORGS` orgs (40 projects, 80 entities) flushed
 * every `EVERY` observations (the fill: a replay's shape), then 30 observations each followed by a
 * flush (the live shape). Prints one JSON line per N: the fill's CPU-seconds, and per live flush the
 * JSON bytes and records written and the CPU of the fold and flush.
 *
 *   node --import tsx bench/list-flush.ts [N…]        (default 1000 10000 40000; env ORGS, EVERY)
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { observationsProjection } from '../projections/observations.js';
import type { SealedEvent } from '../src/platform/ledger/index.js';
import { plainStateOnDisk, ReadModelFile } from '../src/platform/projections/read-model-file.js';

const sizes = process.argv.slice(2).map(Number);
const orgs = Number(process.env.ORGS ?? 1);
const every = Number(process.env.EVERY ?? 50_000);
const hex = (n: number): string => n.toString(16).padStart(8, '0');
const event = (seq: number): SealedEvent =>
  ({
    seq,
    type: 'ObservationRecorded',
    recorded_at: new Date(Date.UTC(2026, 0, 1) + seq * 1000).toISOString(),
    meta: { org_id: `org_${seq % orgs}` },
    data: {
      observation_id: `OBS-${hex(seq)}-${hex(seq * 7)}-${hex(seq * 13)}-${hex(seq * 31)}`,
      kind: 'hours_worked',
      hours: 120,
      project_id: `prj_${seq % 40}`,
      entity_id: `ent_${seq % 80}`,
      observed_on: '2026-01-02',
    },
  }) as unknown as SealedEvent;

for (const n of sizes.length > 0 ? sizes : [1000, 10_000, 40_000]) {
  const path = join(tmpdir(), `plumbline-list-flush-${process.pid}.db`);
  const remove = (): void => {
    for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
  };
  remove();
  const file = ReadModelFile.own(path);
  const onDisk = plainStateOnDisk(file, 'observations', observationsProjection.init(), null);
  const state = onDisk.state;
  let seq = 0;
  const fold = (): void => {
    seq += 1;
    file.folding = true;
    observationsProjection.evolve(state, event(seq));
    file.folding = false;
  };
  const flush = (): void =>
    file.flush([
      {
        name: 'observations',
        version: observationsProjection.version,
        checkpoint: seq,
        aggregates: onDisk.aggregates(),
      },
    ]);
  const fill = process.cpuUsage();
  while (seq < n) {
    fold();
    if (seq % every === 0) flush();
  }
  flush();
  const filled = process.cpuUsage(fill);
  const runs = 30;
  const { bytes, writes } = file.stats;
  const live = process.cpuUsage();
  for (let i = 0; i < runs; i += 1) {
    fold();
    flush();
  }
  const cpu = process.cpuUsage(live);
  process.stdout.write(
    `${JSON.stringify({
      observations: n,
      fill_cpu_seconds: (filled.user + filled.system) / 1e6,
      bytes_per_flush: Math.round((file.stats.bytes - bytes) / runs),
      records_per_flush: (file.stats.writes - writes) / runs,
      fold_and_flush_cpu_us: Math.round((cpu.user + cpu.system) / runs),
    })}\n`,
  );
  file.close();
  remove();
}
