/**
 * First start of an empty ledger: seed the full demo dataset (unless DEMO=0) and hand back the
 * demo key to print. A ledger that already has events is never touched.
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
import { planDemo } from './dataset.js';
import { runDemo } from './run.js';

export { DEMO_SCOPES } from './run.js';

export async function seedOnFirstStart(
  deps: AppDeps,
  demoFlag: '0' | '1' | undefined,
  logger: Logger,
): Promise<IssuedKey | null> {
  if (demoFlag === '0' || deps.ledger.head.seq > 0) return null;
  logger.info('empty ledger: seeding the demo dataset');
  const started = performance.now();
  const plan = planDemo({ today: isoDate(deps.clock.now()) });
  const run = await runDemo(deps, plan, { randomBytes: (size) => new Uint8Array(randomBytes(size)) });
  logger.info('demo dataset seeded', {
    ms: Math.round(performance.now() - started),
    events: run.counts.events,
    entities: run.counts.entities,
    projects: run.counts.projects,
    draws: run.counts.draws,
    deferred_steps: run.counts.deferred_steps,
    head: run.head.hash,
  });
  return run.demo_key;
}
