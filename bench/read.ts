/**
 * read (SPEC §12): the lender `score` action, warm, over loopback with autocannon at 50
 * connections, against a bare Express JSON route and a bare `node:http` JSON server measured in
 * the same run. Each server runs in its own process (bench/servers.ts); the baselines parse the
 * same request bodies and answer with a real score response, so all three put the same bytes on
 * the wire. Targets: ≥ 0.8× bare Express, p99 < 25 ms.
 *
 * `score` is not a pure read: every call records a CreditReportIssued inquiry (SPEC §4), so each
 * request is also a durable append (acknowledged after its WAL sync; group commit). The service runs on a copy of the dataset.
 *
 * `score`, `usage` and bare Express are loaded in alternated rounds (bench/lib/rounds.ts), all
 * three servers up throughout and one loaded at a time: each ratio is the median of the rounds'
 * own ratios, and the rows show the median round. Measured once each, 40 s apart, a host's drift
 * moved a ratio more than any change did (one host: `score` 0.16–0.44× in three runs of one tree).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTs, type RunningChild } from './lib/child.js';
import { copyOf, removeDir, type Dataset } from './lib/datasets.js';
import { load, type LoadResult } from './lib/load.js';
import { median, medianRound, roundOrder } from './lib/rounds.js';
import { entitiesToScore } from './lib/sample.js';
import { readTrace, type ThreadTrace } from './lib/thread-trace.js';

export interface ReadMeasurement {
  entities: number;
  response_bytes: number;
  service: LoadResult;
  /** `?action=usage`: auth, rate-limit headers, signing — no scoring, no append. */
  service_usage: LoadResult;
  /**
   * `score` again, while a second client records observations on the lender's projects at one
   * tenth of the read-only score rate (ISSUE 19: the facts memo forgets per entity, so reads stay
   * fast under writes), and that writer's own result.
   */
  service_under_writes: LoadResult;
  writes: LoadResult;
  bare_express: LoadResult;
  bare_http: LoadResult;
  /** Medians of the rounds' own ratios (`score` and `usage` against the same round's Express). */
  ratio_vs_express: number;
  p99_ratio_vs_express: number;
  usage_ratio_vs_express: number;
  ratio_vs_http: number;
  /** Every round (measured in the order `roundOrder` gives it). */
  rounds: Round[];
  /** With `--trace`: what held the service's thread during the read-only `score` load. */
  service_trace?: ThreadTrace;
}

export interface LoadShape {
  connections: number;
  warmupSeconds: number;
  seconds: number;
}

/** Rounds of `score`, `usage` and bare Express (one in a quick run). */
export const READ_ROUNDS = 3;

const ROUND_SERVERS = ['express', 'score', 'usage'] as const;
type RoundServer = (typeof ROUND_SERVERS)[number];
type Round = Record<RoundServer, LoadResult>;

const PATH = '/api/lender-credit?action=score';

async function measureServer(
  server: RunningChild,
  key: string,
  bodies: string[],
  shape: LoadShape & { overallRate?: number },
  path = PATH,
): Promise<LoadResult> {
  const result = await load({
    url: `http://127.0.0.1:${String(server.ready.port)}${path}`,
    headers: { 'x-plumbline-api-key': key },
    bodies,
    ...shape,
  });
  return result;
}

/** Observation bodies on the key's own projects (hours worked today), for the write load. */
async function observationBodies(server: RunningChild, key: string): Promise<string[]> {
  const res = await fetch(`http://127.0.0.1:${String(server.ready.port)}/api/projects?limit=20`, {
    headers: { 'x-plumbline-api-key': key },
  });
  const list = (await res.json()) as { data?: { id: string }[] };
  const projects = (list.data ?? []).map((p) => p.id);
  if (res.status !== 200 || projects.length === 0)
    throw new Error(`the bench key lists no projects (${String(res.status)})`);
  const today = new Date().toISOString().slice(0, 10);
  return projects.map((project_id) =>
    JSON.stringify({ project_id, kind: 'hours_worked', hours: 8, observed_on: today }),
  );
}

/** Score flat out while `writes` bodies are posted to /api/observations at `rate` per second. */
async function scoreUnderWrites(
  server: RunningChild,
  key: string,
  bodies: string[],
  shape: LoadShape,
  rate: number,
): Promise<{ reads: LoadResult; writes: LoadResult }> {
  const writeBodies = await observationBodies(server, key);
  const writeShape = { ...shape, connections: 2, overallRate: Math.max(1, Math.round(rate)) };
  const [reads, writes] = await Promise.all([
    measureServer(server, key, bodies, shape),
    measureServer(server, key, writeBodies, writeShape, '/api/observations'),
  ]);
  return { reads, writes };
}

/** Starts the real service on a copy of the dataset, checks one score answers 200, runs `fn`. */
async function withService<T>(
  ds: Dataset,
  bodies: string[],
  fn: (service: RunningChild, key: string, sample: string) => Promise<T>,
  env: Record<string, string> = {},
): Promise<T> {
  const key = ds.keys[0]!.key;
  const dataDir = copyOf(ds, 'read');
  try {
    const service = await startTs('bench/servers.ts', ['service', dataDir], env);
    try {
      const res = await fetch(`http://127.0.0.1:${String(service.ready.port)}${PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-plumbline-api-key': key },
        body: bodies[0]!,
      });
      const sample = await res.text();
      if (res.status !== 200) throw new Error(`score answered ${res.status}: ${sample}`);
      return await fn(service, key, sample);
    } finally {
      await service.stop();
    }
  } finally {
    removeDir(dataDir);
  }
}

export async function measureRead(
  ds: Dataset,
  shape: LoadShape,
  opts: { trace?: boolean; rounds?: number } = {},
): Promise<ReadMeasurement> {
  const names = entitiesToScore(ds, 40);
  const bodies = names.map((entity) => JSON.stringify({ entity }));
  const scratch = mkdtempSync(join(tmpdir(), 'plumbline-bench-read-'));
  const traceFile = join(scratch, 'thread.trace');
  const bodyFile = join(scratch, 'score.json');
  const roundCount = Math.max(1, opts.rounds ?? READ_ROUNDS);
  try {
    const measured = await withService(
      ds,
      bodies,
      async (service, key, sample) => {
        // Bare Express answers with the service's own score response, and stays up beside it.
        writeFileSync(bodyFile, sample);
        const express = await startTs('bench/servers.ts', ['bare-express', bodyFile]);
        try {
          let serviceTrace: ThreadTrace | undefined;
          const measure: Record<RoundServer, () => Promise<LoadResult>> = {
            express: () => measureServer(express, key, bodies, shape),
            score: async () => {
              // The measured window: the load's warm-up (the first scores' derivations, the JIT) is left out.
              const from = Date.now() + shape.warmupSeconds * 1000;
              const result = await measureServer(service, key, bodies, shape);
              if (opts.trace && !serviceTrace) serviceTrace = readTrace(traceFile, from, Date.now());
              // What a score load leaves behind (its last read-model flush and WAL sync, a major GC)
              // is let finish before the next load: `usage` measured right after `score` ran at
              // 2,425–4,782 req/s against 4,670–5,173 right after bare Express, in two runs on one host.
              await sleep(shape.warmupSeconds * 1000);
              return result;
            },
            // The same stack on an action that computes and appends nothing: the service's HTTP floor.
            usage: () => measureServer(service, key, ['{}'], shape, '/api/lender-credit?action=usage'),
          };
          const rounds: Round[] = [];
          for (let r = 0; r < roundCount; r += 1) {
            const round: Partial<Round> = {};
            for (const name of roundOrder(ROUND_SERVERS, r)) round[name] = await measure[name]();
            rounds.push(round as Round);
          }
          const medianScore = medianRound(rounds.map((r) => r.score));
          return {
            key,
            sample,
            rounds,
            service: medianScore,
            serviceTrace,
            underWrites: await scoreUnderWrites(
              service,
              key,
              bodies,
              shape,
              medianScore.requests_per_second / 10,
            ),
          };
        } finally {
          await express.stop();
        }
      },
      opts.trace ? { BENCH_TRACE: traceFile } : {},
    );
    const { rounds, sample, key, service, serviceTrace, underWrites } = measured;
    const http = await startTs('bench/servers.ts', ['bare-http', bodyFile]);
    let bareHttp: LoadResult;
    try {
      bareHttp = await measureServer(http, key, bodies, shape);
    } finally {
      await http.stop();
    }
    const ratioOf = (f: (r: Round) => number) => median(rounds.map(f));
    return {
      entities: names.length,
      response_bytes: Buffer.byteLength(sample),
      service,
      service_usage: medianRound(rounds.map((r) => r.usage)),
      service_under_writes: underWrites.reads,
      writes: underWrites.writes,
      bare_express: medianRound(rounds.map((r) => r.express)),
      bare_http: bareHttp,
      ratio_vs_express: ratioOf((r) => r.score.requests_per_second / r.express.requests_per_second),
      p99_ratio_vs_express: ratioOf((r) => r.score.p99_ms / Math.max(r.express.p99_ms, 1)),
      usage_ratio_vs_express: ratioOf((r) => r.usage.requests_per_second / r.express.requests_per_second),
      ratio_vs_http: service.requests_per_second / bareHttp.requests_per_second,
      rounds,
      ...(serviceTrace ? { service_trace: serviceTrace } : {}),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * `score` alone on a larger ledger (for information: the baselines do not depend on the ledger, so
 * the ratio is against the bare Express figure of the same run). The service starts on a copy with
 * no snapshots, as a fresh node would: it replays, saves, begins its background verification pass
 * and is then loaded like the smaller one. Answers other than 200 are counted, not hidden (a
 * generated 1M ledger has a few legal names shared by two firms: 409 with candidates).
 */
export async function measureScoreOn(ds: Dataset, shape: LoadShape): Promise<LoadResult> {
  const bodies = entitiesToScore(ds, 40).map((entity) => JSON.stringify({ entity }));
  return withService(ds, bodies, (service, key) => measureServer(service, key, bodies, shape));
}
