/**
 * `npm run ledger:generate -- --events N` — appends N synthetic, deterministic events to the ledger
 * in the configured ledger (EVENTSTORE_URL, else DATA_DIR) through the real Ledger (sealed, hashed, durable), for sizing verify and rebuild.
 */
import { ManualClock } from '../src/platform/clock.js';
import { derivedEventId } from '../src/platform/ids.js';
import { Ledger, type EventInput } from '../src/platform/ledger/index.js';
import {
  config,
  decimalInteger,
  EXIT_OK,
  EXIT_USAGE,
  openLedger,
  parseCli,
  progressBar,
  rate,
} from './lib/cli.js';

const USAGE = `
Usage: npm run ledger:generate -- --events N [--batch B] [--seed S] [--json]

Appends N deterministic synthetic events (B per append, default 1000) to the ledger (EVENTSTORE_URL,
else DATA_DIR, default ./data). The same seed on an empty ledger gives the same hashes.
Exit codes: 0 done, 1 refused (appends suspended after an integrity failure), 2 usage or configuration error.
`;

const cli = parseCli(USAGE, {
  events: { type: 'string' },
  batch: { type: 'string', default: '1000' },
  seed: { type: 'string', default: 'plumbline' },
});
const total = decimalInteger(cli.values.events);
const batch = decimalInteger(cli.values.batch);
if (!Number.isInteger(total) || total < 1 || !Number.isInteger(batch) || batch < 1) {
  process.stderr.write(`--events and --batch must be positive integers\n${USAGE}`);
  process.exit(EXIT_USAGE);
}
const seed = String(cli.values.seed);
const cfg = config();
const opened = await openLedger(cfg, { json: cli.json, appends: true });
const { store } = opened;
const clock = new ManualClock('2025-01-01T00:00:00Z');
const ledger = await Ledger.open(store, clock);
const start = ledger.head.seq;
const kinds = ['certified_payroll', 'equipment_log', 'weather_forecast', 'material_delivery', 'cost_index'];

function synthetic(n: number): EventInput {
  const project = `prj_${(n % 97).toString(36).padStart(16, 'a')}`;
  return {
    id: derivedEventId(`${seed}:${start + n}`),
    stream: `synthetic-${project}`,
    type: 'SyntheticFactRecorded',
    data: {
      project_id: project,
      kind: kinds[n % kinds.length],
      observed_on: new Date(Date.UTC(2025, 0, 1) + (n % 700) * 86_400_000).toISOString().slice(0, 10),
      amount_cents: (n * 7919) % 100_000_000,
      note: `synthetic fact ${n} for sizing the ledger`,
    },
  };
}

const bar = progressBar('generate', !cli.json);
bar.start(total);
const started = performance.now();
for (let done = 0; done < total;) {
  const size = Math.min(batch, total - done);
  const inputs = Array.from({ length: size }, (_, i) => synthetic(done + i));
  clock.advance(1000);
  await ledger.append(inputs, { org_id: null, actor: 'system', request_id: `generate-${seed}` });
  done += size;
  bar.update(done);
}
const ms = performance.now() - started;
bar.stop();
await opened.close();
const summary = {
  ok: true,
  appended: total,
  head: ledger.head.seq,
  seconds: Number((ms / 1000).toFixed(3)),
  events_per_second: rate(total, ms),
};
if (cli.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
else
  process.stdout.write(
    `Appended ${total.toLocaleString('en-US')} events (head ${summary.head}) in ${summary.seconds}s (${summary.events_per_second.toLocaleString('en-US')} events/s)\n`,
  );
process.exit(EXIT_OK);
