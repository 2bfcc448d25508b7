/**
 * First start of a ledger (issue 17): what gets written before the service answers.
 *
 * - Production (EVENTSTORE_URL set, or DEMO=0, or a ledger that already has events): nothing
 *   fictitious, ever. A ledger without a platform operator gets one; its first key is printed once
 *   — or, with OPERATOR_KEY_FILE, read from that file when it holds a key (so a deployment can
 *   provision it as a secret) or written there (0600) when the file does not exist yet.
 * - The embedded demo (`npm start` on an empty embedded ledger, DEMO unset or 1): the full demo
 *   dataset, resumably. Before its first event, DATA_DIR/demo-seed.json (0600) records the plan's
 *   date and a secret every key is derived from; every event id is derived from the seed and each
 *   request carries an Idempotency-Key. So a crash mid-seed is completed by the next start, which
 *   sends the same plan again: what is stored answers as a duplicate, the rest is written, and the
 *   keys come out the same — a half-seeded ledger never loses its key. Once complete, the demo
 *   and operator keys go to DATA_DIR/demo-key.txt (0600); the first start prints the demo key,
 *   later ones only say where it is.
 *
 * The dataset is anchored on the real date (so "expires in 20 days" is true on the day it is
 * seeded) and the keys come from a secure random secret: a server that `npm start` exposes must not
 * answer to a key anyone can recompute from the default seed.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppDeps } from '../app.js';
import type { IssuedKey } from '../orgs/keys.js';
import { bootstrapPlatformOperator, randomBytesReproducing } from '../orgs/operator.js';
import { writeFileAtomically } from '../platform/atomic-file.js';
import { isoDate } from '../platform/clock.js';
import { LedgerIntegrityFailure } from '../platform/ledger/errors.js';
import { ReadModelsDamaged } from '../platform/projections/read-model-damage.js';
import { parseApiKey, type RandomBytes } from '../platform/crypto/api-key.js';
import type { Logger } from '../platform/log.js';
import { planDemo } from './dataset.js';
import { runDemo } from './run.js';

export { DEMO_SCOPES } from './run.js';

export const DEMO_SEED_FILE = 'demo-seed.json';
export const DEMO_KEY_FILE = 'demo-key.txt';

export interface FirstStartKeys {
  /** The demo lender's key, when the demo was seeded (or its seed completed) now. */
  demo: IssuedKey | null;
  /** The platform operator's first key, when it was created now and is to be printed. */
  operator: IssuedKey | null;
  /** Where the demo key is kept, when this ledger is a demo ledger. */
  demoKeyFile?: string;
  /** Where the operator key was written (OPERATOR_KEY_FILE that did not exist yet). */
  operatorKeyFileWritten?: string;
}

export interface FirstStartOptions {
  /** True for the embedded SQLite ledger; EventStoreDB (production) never gets the demo. */
  embedded?: boolean;
  /** OPERATOR_KEY_FILE: the operator's first key is read from it, or written to it. */
  operatorKeyFile?: string | undefined;
  /** Told how far the demo seeding got (steps done of total), for a progress line. */
  onProgress?: (done: number, total: number) => void;
}

interface DemoSeedRecord {
  today: string;
  /** Hex; the demo's key material is derived from it (HMAC-SHA256 in counter mode). */
  secret: string;
  completed: boolean;
}

export async function seedOnFirstStart(
  deps: AppDeps,
  demoFlag: '0' | '1' | undefined,
  logger: Logger,
  opts: FirstStartOptions = {},
): Promise<FirstStartKeys> {
  const embedded = opts.embedded ?? true;
  const seedPath = join(deps.dataDir, DEMO_SEED_FILE);
  const keyPath = join(deps.dataDir, DEMO_KEY_FILE);
  const record = readSeedRecord(seedPath);
  if (!embedded && demoFlag === '1')
    logger.warn('DEMO=1 is ignored with EVENTSTORE_URL: a production ledger gets no fictitious data');
  const interrupted = record !== null && !record.completed && deps.ledger.head.seq > 0;
  const fresh = deps.ledger.head.seq === 0;
  if (embedded && demoFlag !== '0' && (fresh || interrupted)) {
    const seeded = await seedDemo(deps, seedPath, keyPath, record, logger, opts.onProgress);
    return {
      demo: seeded.demo_key,
      operator: seeded.operator_key,
      demoKeyFile: keyPath,
    };
  }
  if (record?.completed && existsSync(keyPath))
    logger.info(
      `demo ledger: the demo and operator keys are in ${keyPath} (mode 0600); they are not printed again`,
    );
  const operator = await bootstrapOperator(deps, opts.operatorKeyFile, logger);
  return {
    demo: null,
    operator: operator.print ? operator.key : null,
    ...(record?.completed ? { demoKeyFile: keyPath } : {}),
    ...(operator.written ? { operatorKeyFileWritten: operator.written } : {}),
  };
}

async function bootstrapOperator(
  deps: AppDeps,
  file: string | undefined,
  logger: Logger,
): Promise<{ key: IssuedKey | null; print: boolean; written: string | null }> {
  const supplied = file && existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
  let source: RandomBytes = secureRandom;
  if (supplied !== undefined) {
    const parsed = parseApiKey(supplied);
    if (parsed.status !== 'ok' || parsed.mode !== 'live')
      throw new Error(`OPERATOR_KEY_FILE ${file} does not hold a live Plumbline key (pl_live_…)`);
    source = randomBytesReproducing(supplied);
  }
  let key: IssuedKey | null;
  try {
    key = await bootstrapPlatformOperator(deps.ledger, deps.runtime, deps.secrets, { randomBytes: source });
  } catch (error) {
    // Appends are suspended (a recorded integrity failure, read models ahead of a truncated ledger,
    // or read models found damaged): the node still starts, serving reads and GET /api/ledger/verify,
    // so an operator can see what failed — the check for the operator waits for the next start.
    if (error instanceof ReadModelsDamaged) {
      logger.error('platform operator not checked: ledger appends are suspended', {
        reason: error.damage.code,
      });
      return { key: null, print: false, written: null };
    }
    if (!(error instanceof LedgerIntegrityFailure)) throw error;
    logger.error('platform operator not checked: ledger appends are suspended', {
      reason: error.reason,
      first_bad_seq: error.firstBadSeq,
    });
    return { key: null, print: false, written: null };
  }
  if (!key) return { key: null, print: false, written: null };
  logger.info('platform operator created', { org_id: key.org_id, key_id: key.key_id });
  if (supplied !== undefined) return { key, print: false, written: null };
  if (file) {
    writeFileAtomically(file, `${key.key}\n`, 0o600);
    return { key, print: false, written: file };
  }
  return { key, print: true, written: null };
}

async function seedDemo(
  deps: AppDeps,
  seedPath: string,
  keyPath: string,
  existing: DemoSeedRecord | null,
  logger: Logger,
  onProgress?: (done: number, total: number) => void,
): Promise<{ demo_key: IssuedKey; operator_key: IssuedKey }> {
  const resume = existing !== null && !existing.completed && deps.ledger.head.seq > 0;
  const record: DemoSeedRecord =
    existing && !existing.completed
      ? existing
      : { today: isoDate(deps.clock.now()), secret: randomBytes(32).toString('hex'), completed: false };
  // Written before the first event: a crash from here on is completed by the next start.
  writeFileAtomically(seedPath, `${JSON.stringify(record)}\n`, 0o600);
  logger.info(resume ? 'completing an interrupted demo seed' : 'empty ledger: seeding the demo dataset', {
    plan_date: record.today,
  });
  const started = performance.now();
  const plan = planDemo({ today: record.today });
  const run = await runDemo(deps, plan, {
    randomBytes: derivedBytes(record.secret),
    resume,
    ...(onProgress ? { onProgress } : {}),
  });
  const lines = [
    `# Plumbline demo keys (${record.today}); keep this file private (mode 0600).`,
    `demo key (${run.demo_key.org_name}, ${run.demo_key.scopes.join(' ')}): ${run.demo_key.key}`,
    `demo signing secret: ${run.demo_key.signing_secret}`,
    `operator key (${run.operator_key.org_name}, ${run.operator_key.scopes.join(' ')}): ${run.operator_key.key}`,
    `operator signing secret: ${run.operator_key.signing_secret}`,
  ];
  writeFileAtomically(keyPath, `${lines.join('\n')}\n`, 0o600);
  writeFileAtomically(seedPath, `${JSON.stringify({ ...record, completed: true })}\n`, 0o600);
  logger.info('demo dataset seeded', {
    ms: Math.round(performance.now() - started),
    events: run.counts.events,
    entities: run.counts.entities,
    projects: run.counts.projects,
    draws: run.counts.draws,
    deferred_steps: run.counts.deferred_steps,
    head: run.head.hash,
    keys_file: keyPath,
  });
  return { demo_key: run.demo_key, operator_key: run.operator_key };
}

function readSeedRecord(path: string): DemoSeedRecord | null {
  if (!existsSync(path)) return null;
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<DemoSeedRecord>;
  if (typeof parsed.today !== 'string' || typeof parsed.secret !== 'string')
    throw new Error(`${path} is not a demo seed record; move it away to start afresh`);
  return { today: parsed.today, secret: parsed.secret, completed: parsed.completed === true };
}

const secureRandom: RandomBytes = (size) => new Uint8Array(randomBytes(size));

/** HMAC-SHA256(secret, counter) blocks: the same bytes in the same order on every run. */
function derivedBytes(secretHex: string): RandomBytes {
  const secret = Buffer.from(secretHex, 'hex');
  let counter = 0;
  return (size) => {
    const out = Buffer.alloc(size);
    for (let filled = 0; filled < size; filled += 32) {
      const block = createHmac('sha256', secret).update(`demo-keys:${counter}`).digest();
      counter += 1;
      block.copy(out, filled, 0, Math.min(32, size - filled));
    }
    return new Uint8Array(out);
  };
}
