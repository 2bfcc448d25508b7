/**
 * Composition root: configuration → stores and clients → createApp(deps) → listen. On an empty
 * embedded ledger (and DEMO not 0) it seeds the demo dataset and prints a demo key once; on
 * EventStoreDB it writes nothing fictitious, only the platform operator (src/demo/first-start.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { ConfigError, loadServiceConfig } from './config.js';
import { createApp, paymentOutboxOf, serviceOf } from './app.js';
import { BehaviorEvaluator } from './lender-api/behavior-evaluator.js';
import { compose, type Composed } from './compose.js';
import { seedOnFirstStart } from './demo/first-start.js';
import { systemClock } from './platform/clock.js';
import { createLogger } from './platform/log.js';
import { installProcessGuards } from './platform/http/process-guards.js';
import { createAppServer } from './platform/http/server.js';
import { ReadModelFileBusy } from './platform/projections/index.js';
import { LogKeyChanged } from './platform/tlog/log.js';

let config;
try {
  config = loadServiceConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`plumbline: refusing to start.\n${error.message}\n`);
    process.exit(2);
  }
  throw error;
}

const logger = createLogger(config.LOG_LEVEL);

const { PORT: port, HOST: host } = config;
/** The one line a node that cannot listen prints before it exits 1. */
function cannotListen(error: NodeJS.ErrnoException): never {
  process.stderr.write(
    error.code === 'EADDRINUSE'
      ? `plumbline: port ${port} is already in use; stop what holds it or start with PORT=<another port>\n`
      : `plumbline: cannot listen on ${host}:${port}: ${error.message}\n`,
  );
  process.exit(1);
}

// The port is tried before anything is opened or written: a node that could not listen went on
// to open DATA_DIR and seed the demo into it (~15 s of writes) and only then said the port was
// taken. The listen at the end still reports a port taken in between.
await new Promise<void>((resolve) => {
  const probe = createNetServer();
  probe.once('error', cannotListen);
  probe.listen(config.PORT, config.HOST, () => probe.close(() => resolve()));
});

const publicBaseUrl = config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`;
let composed: Composed;
try {
  composed = await compose({
    dataDir: config.DATA_DIR,
    readModelCache: config.READ_MODEL_CACHE,
    clock: systemClock,
    logger,
    redisUrl: config.REDIS_URL,
    eventStoreUrl: config.EVENTSTORE_URL,
    eventStoreMaxAppendBytes: config.EVENTSTORE_MAX_APPEND_SIZE,
    onStoreError: config.RATE_LIMIT_ON_STORE_ERROR,
    publicBaseUrl,
    keyPepper: config.KEY_PEPPER,
    signingKey: config.LEDGER_SIGNING_KEY,
    verifyEveryMs: 30_000,
    samApi: config.SAM_API_KEY ? { apiKey: config.SAM_API_KEY, baseUrl: config.SAM_API_BASE_URL } : undefined,
    tlogOrigin: config.TLOG_ORIGIN,
    tlogSeed: config.TLOG_SIGNING_SEED,
    tlogPreviousKey: config.TLOG_PREVIOUS_KEY,
    tlogPublic: config.TLOG_PUBLIC === '1',
    witnessUrls: config.WITNESS_URLS,
    tlogPublishEveryMs: 1000,
    integrityOverride: config.LEDGER_INTEGRITY_OVERRIDE === '1',
  });
} catch (error) {
  // Another node keeps DATA_DIR's read models (a second start, or a CLI that folds), or this node
  // has another key than the one that signed the shared log: a clear refusal, not a stack trace.
  if (error instanceof ReadModelFileBusy || error instanceof LogKeyChanged) {
    process.stderr.write(`plumbline: refusing to start.\n${error.message}\n`);
    process.exit(2);
  }
  throw error;
}
logger.info(
  config.SAM_API_KEY
    ? `SAM_API_KEY set: registry checks ask the SAM.gov API at ${config.SAM_API_BASE_URL} (answers reused 24 h; the imported extracts answer when it fails)`
    : 'SAM_API_KEY unset: registry checks use only the imported SAM extracts',
);
if (!config.REDIS_URL)
  logger.info('REDIS_URL unset: rate limits and idempotency use in-process/SQLite stores (single node only)');

// One progress line while the demo seeds (a TTY redraws it; a log gets a line every 10 %).
let lastTenth = -1;
const firstStart = await seedOnFirstStart(composed.deps, config.DEMO, logger, {
  embedded: !config.EVENTSTORE_URL,
  operatorKeyFile: config.OPERATOR_KEY_FILE,
  onProgress: (done, total) => {
    const pct = total === 0 ? 100 : Math.floor((done * 100) / total);
    if (process.stderr.isTTY)
      process.stderr.write(`\rSeeding the demo dataset: ${pct}% (${done}/${total} steps)`);
    else if (Math.floor(pct / 10) > lastTenth) process.stderr.write(`Seeding the demo dataset: ${pct}%\n`);
    lastTenth = Math.floor(pct / 10);
    if (done === total && process.stderr.isTTY) process.stderr.write('\n');
  },
});
const { demo, operator, demoKeyFile, operatorKeyFileWritten } = firstStart;
// The chain verifier already runs in the background (compose); readiness does not wait for a full
// pass (SPEC §10), which on a million-event ledger takes seconds. /readyz and /api/ledger/verify
// report its watermark as it advances.
void composed.deps.verifier.run().catch(() => undefined);
const app = createApp({
  ...composed.deps,
  processMetrics: true,
  admission: { concurrency: config.HTTP_CONCURRENCY, maxInFlight: config.HTTP_MAX_IN_FLIGHT },
});
const evaluator = new BehaviorEvaluator(serviceOf(app));
// Requests and responses are born with Express's prototypes (platform/http/server.ts).
const server = createAppServer(app, {
  // A client gets this long to send its request (408 after); checked every second, not Node's 30 s.
  requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
  headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
  connectionsCheckingInterval: 1_000,
});
server.on('error', cannotListen);
server.listen(config.PORT, config.HOST, () => {
  // From here on no escaped error ends the process; before, a startup failure still does.
  installProcessGuards(logger);
  // Hourly; the first pass 5 s after the node listens, not before it answers its first requests.
  evaluator.start(60 * 60 * 1000, 5_000);
  const head = composed.deps.ledger.head.seq;
  process.stdout.write(
    [
      '',
      `Plumbline listening on ${publicBaseUrl} (ledger: ${composed.store.kind}, head seq ${head}, data dir ${config.DATA_DIR})`,
      `Transparency log verifier key (pin it in clients, monitors and witnesses):`,
      `  ${composed.deps.tlog.verifierKey}`,
      ...(demo
        ? [
            `Demo key (${demo.org_name}, scopes ${demo.scopes.join(' ')}), saved in ${demoKeyFile}:`,
            `  ${demo.key}`,
            `  signing secret: ${demo.signing_secret}`,
            `  try: curl -s -X POST '${publicBaseUrl}/api/lender-credit?action=usage' -H 'x-plumbline-api-key: ${demo.key}'`,
          ]
        : demoKeyFile
          ? [`Demo ledger: the demo and operator keys are in ${demoKeyFile} (mode 0600).`]
          : []),
      ...(operatorKeyFileWritten
        ? [`Platform operator key written to ${operatorKeyFileWritten} (mode 0600); it is not printed.`]
        : []),
      ...(operator
        ? [
            `Platform operator key (${operator.org_name}, scopes ${operator.scopes.join(' ')}) — shown once, store it now:`,
            `  ${operator.key}`,
            `  signing secret: ${operator.signing_secret}`,
            `  it alone may import SAM extracts (POST /api/registry/import), furnish entity-level facts`,
            `  and manage orgs and keys (POST /api/admin/orgs, /api/admin/keys; docs/production.md)`,
          ]
        : []),
      '',
    ].join('\n'),
  );
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info('shutting down', { signal });
  paymentOutboxOf(app).stop();
  await Promise.all([drained(), evaluator.stop()]);
  await composed.close();
  process.exit(0);
}

/**
 * How long a stop waits for the requests already in the server (a PDF, a body still arriving);
 * under the 10 s a container runtime gives a stopping process before SIGKILL.
 */
const DRAIN_MS = 8_000;

/**
 * Stops listening and waits for the requests in hand to be answered before the stores close: closed
 * under them, a request was answered 500 although its event was recorded (a retry without an
 * Idempotency-Key recorded it twice), and one whose body was still arriving was cut off. Kept-alive
 * connections are closed as soon as they are idle; past {@link DRAIN_MS} every connection is.
 */
function drained(): Promise<void> {
  return new Promise<void>((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const deadline = setTimeout(() => {
      logger.warn('requests still running at the end of the shutdown drain; closing their connections', {
        drain_ms: DRAIN_MS,
      });
      server.closeAllConnections();
    }, DRAIN_MS);
    // A request that arrives on a kept-alive connection meanwhile is answered, and its connection
    // closed after it, so a busy client cannot hold the stop until the deadline.
    server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
      res.shouldKeepAlive = false;
    });
    server.close(() => {
      clearInterval(idle);
      clearTimeout(deadline);
      resolve();
    });
    server.closeIdleConnections();
  });
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
