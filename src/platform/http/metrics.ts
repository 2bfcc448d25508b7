/**
 * Prometheus metrics (SPEC §10): request latency by route template, rate-limit rejections, append
 * conflicts and projection lag. One registry per app, so tests can build several apps.
 */
import type { RequestHandler, Response } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ctxOf } from './context.js';
import type { RateLimitMetrics } from './rate-limit.js';

export interface MetricsSources {
  appendConflicts(): number;
  projectionLag(): number;
  /** 1 while the ledger passes every integrity check, 0 once one failed. */
  ledgerIntegrity(): number;
  /** 1 once the node met damage in its read-model file (appends suspended until a restart), else 0. */
  readModelsDamaged(): number;
  verifiedThrough(): number;
}

/** One histogram series. */
interface Observer {
  observe(value: number): void;
}

export class HttpMetrics implements RateLimitMetrics {
  readonly registry = new Registry();
  readonly #requests: Histogram<'method' | 'route' | 'status'>;
  /** Histogram children by method, then route, then status (see `#series`). */
  readonly #children = new Map<string, Map<string, Map<number, Observer>>>();
  readonly #rejections: Counter<'policy'>;

  constructor(sources: MetricsSources, opts: { defaultMetrics?: boolean } = {}) {
    if (opts.defaultMetrics) collectDefaultMetrics({ register: this.registry });
    this.#requests = new Histogram({
      name: 'plumbline_http_request_duration_seconds',
      help: 'HTTP request latency by route template',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [this.registry],
    });
    this.#rejections = new Counter({
      name: 'plumbline_rate_limit_rejections_total',
      help: 'Requests refused with 429 by policy',
      labelNames: ['policy'],
      registers: [this.registry],
    });
    new Gauge({
      name: 'plumbline_ledger_append_conflicts_total',
      help: 'Optimistic-concurrency conflicts met by this process’s ledger writer',
      registers: [this.registry],
      collect() {
        this.set(sources.appendConflicts());
      },
    });
    new Gauge({
      name: 'plumbline_projection_lag_events',
      help: 'Events in the store not yet applied to the read models',
      registers: [this.registry],
      collect() {
        this.set(sources.projectionLag());
      },
    });
    new Gauge({
      name: 'plumbline_ledger_integrity',
      help: '1 while the ledger, its Merkle tree and the last signed checkpoint agree; 0 after a failure',
      registers: [this.registry],
      collect() {
        this.set(sources.ledgerIntegrity());
      },
    });
    new Gauge({
      name: 'plumbline_read_models_damaged',
      help: '1 once this node found its read-model file damaged (appends suspended until a restart rebuilds it)',
      registers: [this.registry],
      collect() {
        this.set(sources.readModelsDamaged());
      },
    });
    new Gauge({
      name: 'plumbline_ledger_verified_through',
      help: 'The last seq the background verifier found intact (chain and tree)',
      registers: [this.registry],
      collect() {
        this.set(sources.verifiedThrough());
      },
    });
  }

  rejected(policy: string): void {
    this.#rejections.inc({ policy });
  }

  /**
   * The histogram child of one (method, route, status): prom-client hashes a label object on every
   * observe, so each series' child is looked up once and kept (routes and statuses are bounded), in
   * nested Maps — no key string built per request.
   */
  #series(method: string, route: string, status: number): Observer {
    let byRoute = this.#children.get(method);
    if (!byRoute) this.#children.set(method, (byRoute = new Map<string, Map<number, Observer>>()));
    let byStatus = byRoute.get(route);
    if (!byStatus) byRoute.set(route, (byStatus = new Map<number, Observer>()));
    let child = byStatus.get(status);
    if (!child) {
      child = this.#requests.labels({ method, route, status: String(status) });
      byStatus.set(status, child);
    }
    return child;
  }

  middleware(): RequestHandler {
    // One listener function for every response (`this` is the response): no closure per request.
    const series = (method: string, route: string, status: number): Observer =>
      this.#series(method, route, status);
    function observeFinished(this: Response): void {
      const ctx = ctxOf(this.req);
      series(this.req.method, ctx.route ?? 'unmatched', this.statusCode).observe(
        (performance.now() - ctx.started_at) / 1000,
      );
    }
    return (_req, res, next) => {
      res.on('finish', observeFinished);
      next();
    };
  }
}
