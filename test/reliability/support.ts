/**
 * Shared pieces of the reliability specs: a realistic ledger to start from (the benchmark
 * generator: lenders, keys, firms, jobs, draws, documents, observations, scans — deterministic),
 * the service composed on an existing DATA_DIR, a child `src/main.ts`, and the attacker's
 * hand on the SQLite file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import { generateDataset, type GeneratedDataset } from '../../bench/lib/generate.js';
import { createApp, serviceOf } from '../../src/app.js';
import { compose, type Composed } from '../../src/compose.js';
import type { Clock } from '../../src/platform/clock.js';
import { SqliteEventStore } from '../../src/platform/event-store/sqlite.js';
import type { StoredRecord } from '../../src/platform/ledger/verify.js';
import { silentLogger } from '../../src/platform/log.js';
import type { RateLimitOnStoreError } from '../../src/platform/rate-limit/index.js';
import { entryArgs, REPO_ROOT } from '../support/cli.js';

export interface Ledgered {
  dataDir: string;
  dataset: GeneratedDataset;
  /** Bearer value of the first lender's key (every scope but admin). */
  bearer: string;
}

/** A fresh DATA_DIR holding a generated ledger of `events` events. */
export async function ledgerWith(events: number, seed: string): Promise<Ledgered> {
  const dataDir = mkdtempSync(join(tmpdir(), 'plumbline-reliability-'));
  const dataset = await generateDataset({ dataDir, events, seed });
  return { dataDir, dataset, bearer: `Bearer ${dataset.keys[0]!.key}` };
}

export interface OpenService {
  app: Express;
  composed: Composed;
  close(): Promise<void>;
}

/** The real composition on an existing DATA_DIR (its own secrets.json), as `main.ts` builds it. */
export async function openService(
  dataDir: string,
  opts: {
    clock?: Clock;
    redisUrl?: string;
    onStoreError?: RateLimitOnStoreError;
    /** LEDGER_INTEGRITY_OVERRIDE=1 */
    integrityOverride?: boolean;
    /** Verification passes of at least this many events on a thread of their own (compose's). */
    verifyOffloadFrom?: number;
  } = {},
): Promise<OpenService> {
  const composed = await compose({
    dataDir,
    clock: opts.clock ?? { now: () => new Date() },
    logger: silentLogger,
    publicBaseUrl: 'http://plumbline.test',
    ...(opts.redisUrl ? { redisUrl: opts.redisUrl } : {}),
    ...(opts.onStoreError ? { onStoreError: opts.onStoreError } : {}),
    ...(opts.integrityOverride ? { integrityOverride: true } : {}),
    ...(opts.verifyOffloadFrom !== undefined ? { verifyOffloadFrom: opts.verifyOffloadFrom } : {}),
  });
  const app = createApp(composed.deps);
  return { app, composed, close: () => composed.close() };
}

export { serviceOf };

/** Plays the attacker: opens the ledger file, drops the immutability triggers, runs `sql`. */
export function tamper(dataDir: string, sql: string): void {
  const raw = SqliteEventStore.open(join(dataDir, 'ledger.db'));
  try {
    raw.database.exec(
      'DROP TRIGGER IF EXISTS events_are_immutable; DROP TRIGGER IF EXISTS events_are_permanent;',
    );
    raw.database.exec(sql);
  } finally {
    void raw.close();
  }
}

/** Every stored row of the ledger in DATA_DIR (read through a connection of its own). */
export async function storedRows(dataDir: string): Promise<StoredRecord[]> {
  const store = SqliteEventStore.open(join(dataDir, 'ledger.db'));
  try {
    const rows: StoredRecord[] = [];
    for (;;) {
      const page = await store.readRecords(rows.length === 0 ? 1 : rows.at(-1)!.seq + 1, 5000);
      rows.push(...page);
      if (page.length < 5000) return rows;
    }
  } finally {
    await store.close();
  }
}

export interface Child {
  process: ChildProcess;
  port: number;
  output(): string;
}

/**
 * Starts the service's entry point in a child (`node dist/src/main.js` when dist/ is built and
 * current, else `node --import tsx src/main.ts`: {@link entryArgs}) on DATA_DIR (no demo) and waits
 * for `/readyz` 200.
 */
export async function startMain(
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
): Promise<Child> {
  const child = spawn(process.execPath, entryArgs('src/main.ts'), {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (c: Buffer): void => {
    output = (output + c.toString('utf8')).slice(-8000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const until = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the service exited (${child.exitCode ?? child.signalCode}) before ready:\n${output}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ready) return { process: child, port, output: () => output };
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`the service was not ready after 30 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Sends `signal` and waits for the child to be gone. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}
