/**
 * write (SPEC §12): durable command appends/s — `Ledger.append` of single-event commands taken
 * from the dataset, one writer and 50 concurrent callers — against raw better-sqlite3 single-row
 * transactions with the same schema and pragmas (bench/write-child.ts). Target ≥ 0.7×.
 * For context (no target), the whole command path over HTTP: `POST /api/observations` with
 * autocannon at 50 connections against the real service (auth, rate limit, zod, decide, append,
 * projections, signing).
 */
import { lastJson, runTs, startTs } from './lib/child.js';
import { copyOf, removeDir, type Dataset } from './lib/datasets.js';
import { load, type LoadResult } from './lib/load.js';
import { projectsOf } from './lib/sample.js';

export interface LedgerWrite {
  commands: number;
  concurrency: number;
  ledger_appends_per_second: number;
  raw_inserts_per_second: number;
  ratio: number;
}

export interface WriteMeasurement {
  single: LedgerWrite;
  concurrent: LedgerWrite;
  http: LoadResult;
}

export async function measureWrite(
  ds: Dataset,
  opts: {
    commands: number;
    rounds: number;
    http: { connections: number; warmupSeconds: number; seconds: number };
  },
): Promise<WriteMeasurement> {
  const child = (concurrency: number) =>
    runTs('bench/write-child.ts', [
      ds.dataDir,
      String(opts.commands),
      String(opts.rounds),
      String(concurrency),
    ]);
  const single = lastJson<LedgerWrite>(await child(1), 'write (1 writer)');
  const concurrent = lastJson<LedgerWrite>(await child(50), 'write (50 callers)');
  return { single, concurrent, http: await measureHttpWrite(ds, opts.http) };
}

async function measureHttpWrite(
  ds: Dataset,
  shape: { connections: number; warmupSeconds: number; seconds: number },
): Promise<LoadResult> {
  const key = ds.keys[0]!;
  const projects = projectsOf(ds, key.org_id, 20);
  const bodies = Array.from({ length: 1000 }, (_, i) =>
    JSON.stringify({
      project_id: projects[i % projects.length],
      kind: 'hours_worked',
      observed_on: `2026-0${1 + (i % 9)}-${String(1 + (i % 28)).padStart(2, '0')}`,
      hours: 100 + (i % 900),
    }),
  );
  const dataDir = copyOf(ds, 'write-http');
  const server = await startTs('bench/servers.ts', ['service', dataDir]);
  try {
    const result = await load({
      url: `http://127.0.0.1:${String(server.ready.port)}/api/observations`,
      headers: { authorization: `Bearer ${key.key}` },
      bodies,
      ...shape,
    });
    return result;
  } finally {
    await server.stop();
    removeDir(dataDir);
  }
}
