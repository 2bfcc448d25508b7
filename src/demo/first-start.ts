/**
 * First start of an empty ledger: seed the full demo dataset (unless DEMO=0) and hand back the
 * demo key to print, with the platform operator's key (the demo creates the operator). A ledger
 * that already has events is never seeded; a ledger without an operator (DEMO=0, or one from before
 * the operator existed) gets one, whose key is handed back once — never again on a later start.
 *
 * Unlike `npm run seed-demo`, the dataset is anchored on the real date (so "expires in 20 days"
 * is true on the day it is seeded) and the keys come from a secure random source: a server that
 * `npm start` exposes must not answer to a key anyone can recompute from the default seed.
 */
import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../app.js';
import type { IssuedKey } from '../orgs/keys.js';
import { isoDate } from '../platform/clock.js';
import type { Logger } from '../platform/log.js';
import { bootstrapPlatformOperator } from '../orgs/operator.js';
import { planDemo } from './dataset.js';
import { runDemo } from './run.js';

export { DEMO_SCOPES } from './run.js';

export interface FirstStartKeys {
  /** The demo lender's key, when the demo was seeded now. */
  demo: IssuedKey | null;
  /** The platform operator's first key, when the operator was created now. */
  operator: IssuedKey | null;
}

const secureRandom = (size: number) => new Uint8Array(randomBytes(size));

export async function seedOnFirstStart(
  deps: AppDeps,
  demoFlag: '0' | '1' | undefined,
  logger: Logger,
  /** Told how far the demo seeding got (steps done of total), for a progress line. */
  onProgress?: (done: number, total: number) => void,
): Promise<FirstStartKeys> {
  const seeded = await seedDemo(deps, demoFlag, logger, onProgress);
  const operator =
    seeded?.operator_key ??
    (await bootstrapPlatformOperator(deps.ledger, deps.runtime, deps.secrets, { randomBytes: secureRandom }));
  if (operator && !seeded) logger.info('platform operator created', { org_id: operator.org_id });
  return { demo: seeded?.demo_key ?? null, operator };
}

async function seedDemo(
  deps: AppDeps,
  demoFlag: '0' | '1' | undefined,
  logger: Logger,
  onProgress?: (done: number, total: number) => void,
): Promise<{ demo_key: IssuedKey; operator_key: IssuedKey } | null> {
  if (demoFlag === '0' || deps.ledger.head.seq > 0) return null;
  logger.info('empty ledger: seeding the demo dataset');
  const started = performance.now();
  const plan = planDemo({ today: isoDate(deps.clock.now()) });
  const run = await runDemo(deps, plan, { randomBytes: secureRandom, ...(onProgress ? { onProgress } : {}) });
  logger.info('demo dataset seeded', {
    ms: Math.round(performance.now() - started),
    events: run.counts.events,
    entities: run.counts.entities,
    projects: run.counts.projects,
    draws: run.counts.draws,
    deferred_steps: run.counts.deferred_steps,
    head: run.head.hash,
  });
  return { demo_key: run.demo_key, operator_key: run.operator_key };
}
