/**
 * Child process for the read and HTTP-write benchmarks: one server per process, so the load
 * generator (autocannon, in the parent) never shares an event loop with what it measures.
 *
 *   node --import tsx bench/servers.ts bare-http <body.json>
 *   node --import tsx bench/servers.ts bare-express <body.json>
 *   node --import tsx bench/servers.ts service <DATA_DIR>
 *
 * Prints one JSON line `{port, ...}` when listening (on BENCH_PORT if set, else any free port),
 * then serves until SIGTERM. The baselines
 * parse the JSON request body and answer with the JSON document in <body.json> (a real score
 * response, so every server puts the same bytes on the wire). The service is the real
 * composition (`compose` + `createApp`, embedded SQLite, in-process rate-limit store) with one
 * change: the lender quota is raised (100/day would end a benchmark after 100 requests).
 * BENCH_TRACE=<file> also records what holds the service's thread (bench/lib/thread-trace.ts).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createApp } from '../src/app.js';
import { createAppServer } from '../src/platform/http/server.js';
import { compose } from '../src/compose.js';
import { systemClock } from '../src/platform/clock.js';
import { createLogger } from '../src/platform/log.js';
import { ReadModelFile } from '../src/platform/projections/index.js';
import { traceThread } from './lib/thread-trace.js';
import {
  LENDER_DAILY_POLICY,
  PROJECT_MINUTE_POLICY,
  RATE_LIMIT_POLICIES,
} from '../src/platform/rate-limit/policy.js';

const [kind, arg] = process.argv.slice(2);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** BENCH_PORT: a port of one's own on a shared machine (the servers of a run start one at a time). */
async function listen(server: Server, extra: Record<string, unknown> = {}): Promise<void> {
  server.listen(Number(process.env.BENCH_PORT ?? 0), '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ port, pid: process.pid, ...extra })}\n`);
}

function bareHttp(document: unknown): Server {
  const server = createServer((req, res) => {
    void readBody(req).then((text) => {
      const body = JSON.parse(text) as { entity?: unknown };
      const payload = JSON.stringify({ ...(document as object), entity: body.entity });
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(payload);
    });
  });
  return server;
}

/** The tile-serving baseline: bare Express answering a GET with an 8 KiB binary body (a full tile). */
function bareExpressTile(): Server {
  const tile = Buffer.alloc(256 * 32, 7);
  const app = express();
  app.get('/tlog/tile/0/*rest', (_req, res) => {
    res
      .set('Cache-Control', 'public, max-age=31536000, immutable')
      .type('application/octet-stream')
      .send(tile);
  });
  return createServer(app);
}

function bareExpress(document: unknown): Server {
  const app = express();
  app.post('/api/lender-credit', express.json(), (req, res) => {
    const body = req.body as { entity?: unknown };
    res.json({ ...(document as object), entity: body.entity });
  });
  return createServer(app);
}

async function service(dataDir: string): Promise<Server> {
  const trace = process.env.BENCH_TRACE;
  if (trace) {
    const flushed = traceThread(trace);
    // The method itself, called below with the file as `this`.
    const flush = (Object.getOwnPropertyDescriptor(ReadModelFile.prototype, 'flush') as PropertyDescriptor)
      .value as ReadModelFile['flush'];
    ReadModelFile.prototype.flush = function (this: ReadModelFile, projections) {
      const started = performance.now();
      try {
        flush.call(this, projections);
      } finally {
        flushed(started, performance.now() - started);
      }
    };
  }
  const composed = await compose({
    dataDir,
    clock: systemClock,
    logger: createLogger('warn'),
    publicBaseUrl: 'http://127.0.0.1',
    verifyEveryMs: 30_000,
    // The tile-serving load reads /tlog/* without a key, as a public log is read.
    tlogPublic: process.env.BENCH_TLOG_PUBLIC === '1',
    // The service's own quota store (persisted counters in embedded mode), with limits no load reaches.
    rateLimitPolicies: {
      ...RATE_LIMIT_POLICIES,
      lender: { ...LENDER_DAILY_POLICY, limit: 1_000_000_000 },
      project: { ...PROJECT_MINUTE_POLICY, limit: 1_000_000_000 },
    },
  });
  const app = createApp(composed.deps);
  const server = createAppServer(app);
  process.once('SIGTERM', () => {
    server.close();
    void composed.close().then(() => process.exit(0));
  });
  return server;
}

if (kind === 'bare-http' || kind === 'bare-express') {
  const document = JSON.parse(readFileSync(arg!, 'utf8')) as unknown;
  const server = kind === 'bare-http' ? bareHttp(document) : bareExpress(document);
  process.once('SIGTERM', () => process.exit(0));
  await listen(server);
} else if (kind === 'bare-express-tile') {
  process.once('SIGTERM', () => process.exit(0));
  await listen(bareExpressTile());
} else if (kind === 'service') {
  await listen(await service(arg!));
} else {
  process.stderr.write('usage: servers.ts bare-http|bare-express <body.json> | service <DATA_DIR>\n');
  process.exit(2);
}
