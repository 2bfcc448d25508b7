/**
 * The transparency log's rows (issue 16): appends with the Merkle tree maintained against appends
 * without it (target ≥ 0.9×), inclusion proofs in a 1M-leaf tree (target p99 < 2 ms), and serving
 * full tiles over HTTP beside a bare Express server answering the same 8 KiB body, and recording
 * commands answered with a full inline receipt against the same commands answered as today (the
 * receipt fetched from GET /api/ledger/receipt, named by the Ledger-Receipt header). The ledger:verify
 * row of the verify measurement includes the tree check (scripts/ledger-verify.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { lastJson, runTs, startTs, type RunningChild } from './lib/child.js';
import { removeDir } from './lib/datasets.js';
import type { LoadShape } from './read.js';

export interface TlogMeasurement {
  append: { commands: number; without_per_second: number; with_tree_per_second: number; ratio: number };
  /** Per recording command: a signed checkpoint + inclusion proof inline, vs the response as today. */
  receipt: {
    commands: number;
    without_per_second: number;
    inline_per_second: number;
    ratio: number;
    /** Extra time per response for the inline receipt. */
    receipt_us: number;
    /** Of it: signing and storing the checkpoint (tlog.publish), building the receipt (proof, JSON). */
    sign_us: number;
    proof_us: number;
  };
  proofs: {
    leaves: number;
    samples: number;
    build_seconds: number;
    p50_ms: number;
    p99_ms: number;
    max_ms: number;
  };
  tiles: {
    events: number;
    service: { requests_per_second: number; p99_ms: number; non_2xx: number };
    bare_express: { requests_per_second: number; p99_ms: number; non_2xx: number };
    ratio: number;
  };
}

async function getLoad(server: RunningChild, tiles: number, shape: LoadShape) {
  const port = server.ready.port as number;
  let n = 0;
  const run = (seconds: number) =>
    autocannon({
      url: `http://127.0.0.1:${port}`,
      connections: shape.connections,
      duration: seconds,
      timeout: 60,
      requests: [
        {
          setupRequest: (req) => {
            const index = n % tiles;
            n += 1;
            return { ...req, method: 'GET', path: `/tlog/tile/0/${String(index).padStart(3, '0')}` };
          },
        },
      ],
    });
  if (shape.warmupSeconds > 0) await run(shape.warmupSeconds);
  const r = await run(shape.seconds);
  return { requests_per_second: Math.round(r.requests.average), p99_ms: r.latency.p99, non_2xx: r.non2xx };
}

export async function measureTlog(
  opts: { commands: number; rounds: number; leaves: number; samples: number; tileEvents: number },
  shape: LoadShape,
): Promise<TlogMeasurement> {
  const append = lastJson<TlogMeasurement['append']>(
    await runTs('bench/tlog-child.ts', ['append', String(opts.commands), String(opts.rounds)]),
    'tlog append',
  );
  const receipt = lastJson<TlogMeasurement['receipt']>(
    await runTs('bench/tlog-child.ts', ['receipt', String(opts.commands), String(opts.rounds)]),
    'tlog receipt',
  );
  const proofs = lastJson<TlogMeasurement['proofs']>(
    await runTs('bench/tlog-child.ts', ['proofs', String(opts.leaves), String(opts.samples)]),
    'tlog proofs',
  );
  const dir = mkdtempSync(join(tmpdir(), 'plumbline-bench-tiles-'));
  try {
    await runTs('bench/tlog-child.ts', ['ledger', dir, String(opts.tileEvents)]);
    const tiles = Math.floor(opts.tileEvents / 256);
    const service = await startTs('bench/servers.ts', ['service', dir], { BENCH_TLOG_PUBLIC: '1' });
    let served;
    try {
      served = await getLoad(service, tiles, shape);
    } finally {
      await service.stop();
    }
    const bare = await startTs('bench/servers.ts', ['bare-express-tile']);
    let baseline;
    try {
      baseline = await getLoad(bare, tiles, shape);
    } finally {
      await bare.stop();
    }
    return {
      append,
      receipt,
      proofs,
      tiles: {
        events: opts.tileEvents,
        service: served,
        bare_express: baseline,
        ratio: served.requests_per_second / baseline.requests_per_second,
      },
    };
  } finally {
    removeDir(dir);
  }
}
