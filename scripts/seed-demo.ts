/**
 * `npm run seed-demo` — seeds the deterministic demo dataset into the ledger of DATA_DIR through
 * the real service (src/demo), and prints what was recorded, the demo key and the ledger head.
 */
import { compose } from '../src/compose.js';
import { DEFAULT_PROJECTS, DEFAULT_SEED, DEMO_TODAY, planDemo, type DemoPlan } from '../src/demo/dataset.js';
import { runDemo, type DemoRun } from '../src/demo/run.js';
import { DEFAULT_PHASES, PHASES, type Phase } from '../src/demo/steps.js';
import { ManualClock } from '../src/platform/clock.js';
import { createLogger } from '../src/platform/log.js';
import { ReadModelFileBusy } from '../src/platform/projections/index.js';
import { LogKeyChanged } from '../src/platform/tlog/log.js';
import {
  config,
  decimalInteger,
  EXIT_FAILED,
  EXIT_OK,
  EXIT_USAGE,
  ledgerOpenProblem,
  parseCli,
  progressBar,
  rate,
} from './lib/cli.js';

const USAGE = `
Usage: npm run seed-demo -- [--projects N] [--seed S] [--today YYYY-MM-DD] [--phases list] [--json]

Seeds the deterministic demo dataset into the ledger in DATA_DIR (default ./data): three lenders,
59 entities, N projects (default ${DEFAULT_PROJECTS}: all five profiles, deliberate problems for every
governance rule) with their pay applications, documents, rail observations, the lenders' reviews,
payments and credit inquiries, and SAM extracts — sent through the real HTTP API on a private
loopback port, the ledger clock following the dataset's timeline (months in seconds).
  --projects N     projects to seed (default ${DEFAULT_PROJECTS}; beyond ${DEFAULT_PROJECTS}, clean generated jobs)
  --seed S         any string (default ${DEFAULT_SEED}); amounts, identifiers, people and keys derive from it
  --today DATE     the demo's "now"; every date is relative to it (default ${DEMO_TODAY})
  --phases LIST    phases to send (default ingest,after_funding,governance,registry); add credit
                   for lender credit inquiries (score history; their event ids are not seeded, so
                   the ledger is then not reproducible); ingest alone seeds the bare facts
  --json           print the result as JSON on stdout

Refuses a ledger that already has events: the dataset is one timeline ending at its "now", and
appended to other history it would move the ledger clock backwards and collide with existing
names and EINs. Use a fresh DATA_DIR.
Reproducible: the same seed, --projects, --today and KEY_PEPPER give a byte-identical ledger
(key digests are peppered). The demo keys derive from the seed, so anyone with the seed can
recompute them: never expose a seed-demo DATA_DIR publicly.
Exit codes: 0 seeded, 1 refused (ledger not empty) or a request failed, 2 usage or configuration error.
`;

const cli = parseCli(USAGE, {
  projects: { type: 'string' },
  seed: { type: 'string' },
  today: { type: 'string' },
  phases: { type: 'string' },
});

function usage(message: string): never {
  process.stderr.write(`${message}\n${USAGE}`);
  process.exit(EXIT_USAGE);
}

const projects = decimalInteger(cli.values.projects ?? String(DEFAULT_PROJECTS));
if (!Number.isInteger(projects) || projects < 1 || projects > 500)
  usage('--projects must be an integer 1–500');
const today = cli.values.today ?? DEMO_TODAY;
if (!/^\d{4}-\d{2}-\d{2}$/.test(today) || Number.isNaN(Date.parse(today)))
  usage('--today must be YYYY-MM-DD');
const phases = (cli.values.phases ?? DEFAULT_PHASES.join(',')).split(',').map((p) => p.trim());
const unknown = phases.filter((p) => !(PHASES as readonly string[]).includes(p));
if (unknown.length > 0) usage(`unknown phases: ${unknown.join(', ')} (known: ${PHASES.join(', ')})`);

const cfg = config();
const plan = planDemo({ projects, seed: cli.values.seed ?? DEFAULT_SEED, today });
const clock = new ManualClock(plan.now);
const composed = await compose({
  dataDir: cfg.DATA_DIR,
  clock,
  logger: createLogger(cfg.LOG_LEVEL === 'debug' ? 'debug' : 'warn'),
  eventStoreUrl: cfg.EVENTSTORE_URL,
  eventStoreMaxAppendBytes: cfg.EVENTSTORE_MAX_APPEND_SIZE,
  publicBaseUrl: cfg.PUBLIC_BASE_URL ?? `http://localhost:${cfg.PORT}`,
  keyPepper: cfg.KEY_PEPPER,
  signingKey: cfg.LEDGER_SIGNING_KEY,
}).catch((error: unknown) => {
  // A live node keeps DATA_DIR's read models (or signed the log with another key), or the ledger
  // cannot be opened: one line, as the service's own start says it, not a stack trace.
  if (error instanceof ReadModelFileBusy || error instanceof LogKeyChanged) {
    process.stderr.write(`refusing to seed: ${error.message}\n`);
    process.exit(EXIT_FAILED);
  }
  const problem = ledgerOpenProblem(cfg, error);
  if (problem === null) throw error;
  process.stderr.write(`${problem.message}\n`);
  process.exit(EXIT_USAGE);
});
const existing = composed.deps.ledger.head.seq;
if (existing > 0) {
  process.stderr.write(
    `refusing to seed: the ledger in ${cfg.DATA_DIR} already has ${existing} events. Use a fresh DATA_DIR.\n`,
  );
  await composed.close();
  process.exit(EXIT_FAILED);
}

const bar = progressBar('seed-demo', !cli.json);
bar.start(plan.steps.length);
const started = performance.now();
let run: DemoRun;
try {
  run = await runDemo(composed.deps, plan, {
    phases: phases as Phase[],
    onProgress: (done) => bar.update(done),
  });
} catch (error) {
  bar.stop();
  process.stderr.write(`seed-demo failed: ${(error as Error).message}\n`);
  await composed.close();
  process.exit(EXIT_FAILED);
}
bar.stop();
const ms = performance.now() - started;
await composed.close();
report(plan, run, ms);
process.exit(EXIT_OK);

function report(plan: DemoPlan, run: DemoRun, ms: number): void {
  const sent = plan.steps.length - Object.values(run.counts.deferred_steps).reduce((a, b) => a + b, 0);
  const summary = {
    data_dir: cfg.DATA_DIR,
    seed: plan.seed,
    projects,
    today: plan.today,
    seconds: Number((ms / 1000).toFixed(3)),
    requests: sent,
    requests_per_second: rate(sent, ms),
    counts: run.counts,
    ledger: run.head,
    demo_key: run.demo_key,
    lender_keys: run.lenders,
  };
  if (cli.json) {
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    return;
  }
  const c = run.counts;
  const list = (r: Record<string, number>) =>
    Object.entries(r)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  const deferred = Object.entries(c.deferred_steps).filter(([, n]) => n > 0);
  process.stdout.write(
    [
      `Seeded the Plumbline demo into ${cfg.DATA_DIR} (seed ${plan.seed}, ${projects} projects, now ${plan.today}) in ${summary.seconds}s: ${sent.toLocaleString('en-US')} requests, ${summary.requests_per_second.toLocaleString('en-US')}/s.`,
      `  ledger:       ${c.events.toLocaleString('en-US')} events, head seq ${run.head.seq}, hash ${run.head.hash}`,
      `  lenders:      ${c.lenders} (${plan.lenders.join(', ')}), ${c.keys} keys`,
      `  entities:     ${c.entities}`,
      `  projects:     ${c.projects} (${list(c.projects_by_profile)})`,
      `  applications: ${c.draws} draws (${list(c.draws_by_status)}), ${c.signatures} signatures, ${c.change_orders} change orders, ${c.finding_resolutions} finding resolutions`,
      `  documents:    ${list(c.documents_by_type)}`,
      `  observations: ${list(c.observations_by_kind)}`,
      ...(deferred.length > 0
        ? [`  not sent (--phases): ${deferred.map(([p, n]) => `${p} ${n}`).join(', ')}`]
        : []),
      '',
      `Demo key (${run.demo_key.org_name}, scopes ${run.demo_key.scopes.join(' ')}):`,
      `  ${run.demo_key.key}`,
      `  signing secret: ${run.demo_key.signing_secret}`,
      'Lender keys (the other tenants, for cross-org checks):',
      ...run.lenders.map((k) => `  ${k.org_name}: ${k.key}`),
      '',
    ].join('\n'),
  );
}
