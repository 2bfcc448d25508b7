/**
 * verify (SPEC §12): `npm run ledger:verify` events/s — the real CLI, timed by itself around the
 * chain walk — against raw SHA-256 of the same stored bytes (bench/hash-baseline.ts), both on the
 * same dataset in the same run. Target: ≥ 0.6×.
 */
import { lastJson, runTs } from './lib/child.js';
import type { Dataset } from './lib/datasets.js';

export interface VerifyMeasurement {
  events: number;
  verify_events_per_second: number;
  verify_seconds: number;
  sha256_events_per_second: number;
  ratio: number;
}

interface CliSummary {
  ok: boolean;
  checked: number;
  events_per_second: number;
  seconds: number;
}

interface Baseline {
  events: number;
  events_per_second: number;
}

/** Best of `rounds` for each side, alternating so both see the same machine state. */
export async function measureVerify(ds: Dataset, rounds: number): Promise<VerifyMeasurement> {
  let best: CliSummary | null = null;
  let base: Baseline | null = null;
  for (let r = 0; r < rounds; r += 1) {
    const run = await runTs('scripts/ledger-verify.ts', ['--json'], { DATA_DIR: ds.dataDir });
    const cli = lastJson<CliSummary>(run, 'ledger:verify');
    if (!cli.ok) throw new Error(`ledger:verify failed on the generated dataset: ${run.stdout}`);
    if (best === null || cli.events_per_second > best.events_per_second) best = cli;
    const raw = lastJson<Baseline>(await runTs('bench/hash-baseline.ts', [ds.dataDir]), 'hash baseline');
    if (base === null || raw.events_per_second > base.events_per_second) base = raw;
  }
  return {
    events: best!.checked,
    verify_events_per_second: best!.events_per_second,
    verify_seconds: best!.seconds,
    sha256_events_per_second: base!.events_per_second,
    ratio: best!.events_per_second / base!.events_per_second,
  };
}
