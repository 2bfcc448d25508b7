/**
 * Load generation with autocannon over loopback: POSTs of JSON bodies rotated from a list, a
 * warm-up run that is thrown away, then the measured run.
 */
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  bodies: readonly string[];
  connections: number;
  warmupSeconds: number;
  seconds: number;
  /** Requests per second across all connections, when the load is paced rather than flat out. */
  overallRate?: number;
}

export interface LoadResult {
  requests_per_second: number;
  p50_ms: number;
  p99_ms: number;
  requests: number;
  non_2xx: number;
  errors: number;
}

function once(opts: LoadOptions, seconds: number): Promise<autocannon.Result> {
  let n = 0;
  return autocannon({
    url: opts.url,
    method: 'POST',
    connections: opts.connections,
    duration: seconds,
    ...(opts.overallRate === undefined ? {} : { overallRate: opts.overallRate }),
    // A slow server queues requests for seconds at 50 connections; count them, do not drop them.
    timeout: 60,
    headers: { 'content-type': 'application/json', ...opts.headers },
    requests: [
      {
        setupRequest: (req) => {
          const body = opts.bodies[n % opts.bodies.length]!;
          n += 1;
          return { ...req, body };
        },
      },
    ],
  });
}

export async function load(opts: LoadOptions): Promise<LoadResult> {
  if (opts.warmupSeconds > 0) await once(opts, opts.warmupSeconds);
  const r = await once(opts, opts.seconds);
  return {
    requests_per_second: Math.round(r.requests.average),
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    requests: r.requests.total,
    non_2xx: r.non2xx,
    errors: r.errors,
  };
}
