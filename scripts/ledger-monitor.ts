/**
 * `npm run ledger:monitor -- --url <base> --state <file> --key <log verifier key>` — fetches the
 * log's checkpoint, verifies its signature and (against the last verified checkpoint kept in
 * --state) its consistency, and remembers it. Exit 0 consistent (or first run), 2 ROLLBACK or
 * SPLIT VIEW (named on stderr; the state is kept as it was, as evidence), 1 a checkpoint that is not
 * the log's or a log that cannot be read, 64 bad flags. `--interval <s>` keeps watching.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { checkLog, readMonitorState, writeMonitorState, type MonitorOutcome } from '../src/monitor/index.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE_EX, parseCli } from './lib/cli.js';
import { readTrustFlags } from './lib/tlog-keys.js';

const EXIT_MISBEHAVIOUR = 2;

const USAGE = `
npm run ledger:monitor -- --url <base url> --state <file> --key <log verifier key> [options]

  --url <base>        the Plumbline service (reads /tlog/checkpoint and /api/ledger/proof/consistency)
  --state <file>      the last verified checkpoint (JSON; created on the first run)
  --key <vkey|file>   the log's verifier key, <origin>+<key id>+<base64>
  --api-key <key>     a ledger:read or tlog:read key (or PLUMBLINE_API_KEY), unless the log is public
  --witness <vkey>    a witness's cosignature key (repeatable): read /tlog/checkpoint/cosigned
  --quorum <n>        cosignatures required from those witnesses (default: all of them)
  --interval <s>      check every s seconds until a misbehaviour is found (default: check once)
  --json              one JSON line per check

Exit: 0 consistent, 2 rollback or split view, 1 unreadable or not the log's checkpoint, 64 usage.
`;

const { values, json } = parseCli(
  USAGE,
  {
    url: { type: 'string' },
    state: { type: 'string' },
    key: { type: 'string' },
    'api-key': { type: 'string' },
    witness: { type: 'string', multiple: true },
    quorum: { type: 'string' },
    interval: { type: 'string' },
  },
  EXIT_USAGE_EX,
);

function usage(message: string): never {
  process.stderr.write(`${message}\n${USAGE}`);
  process.exit(EXIT_USAGE_EX);
}

if (values.url === undefined || values.state === undefined) usage('--url and --state are required');
const statePath = values.state;
const { key: logKey, witnesses, quorum } = readTrustFlags(values, usage);
const interval = values.interval === undefined ? 0 : Number(values.interval);
if (!(interval >= 0)) usage('--interval is a number of seconds');
// process.env is read by src/config.ts only; an API key on the command line or in a file is enough here.
const apiKey = values['api-key'];

function report(outcome: MonitorOutcome): number {
  const base = { status: outcome.status, checked_at: new Date().toISOString() };
  if ('checkpoint' in outcome)
    Object.assign(base, { size: outcome.checkpoint.size, origin: outcome.checkpoint.origin });
  if ('detail' in outcome) Object.assign(base, { detail: outcome.detail });
  if (json) process.stdout.write(`${JSON.stringify(base)}\n`);
  switch (outcome.status) {
    case 'first':
      if (!json)
        process.stdout.write(
          `first checkpoint of ${outcome.checkpoint.origin}: size ${outcome.checkpoint.size}, signature verified\n`,
        );
      return EXIT_OK;
    case 'unchanged':
      if (!json) process.stdout.write(`unchanged: size ${outcome.checkpoint.size}\n`);
      return EXIT_OK;
    case 'consistent':
      if (!json)
        process.stdout.write(
          `consistent: ${outcome.from} → ${outcome.checkpoint.size} (signature and consistency proof verified)\n`,
        );
      return EXIT_OK;
    case 'rollback':
    case 'split_view':
      process.stderr.write(`${outcome.detail}\n`);
      return EXIT_MISBEHAVIOUR;
    case 'bad_checkpoint':
      process.stderr.write(`not the log's checkpoint: ${outcome.detail}\n`);
      return EXIT_FAILED;
    case 'unavailable':
      process.stderr.write(`log unavailable: ${outcome.detail}\n`);
      return EXIT_FAILED;
  }
}

try {
  for (;;) {
    const previous = readMonitorState(statePath);
    const outcome = await checkLog(
      { baseUrl: values.url, ...(apiKey ? { apiKey } : {}), logKey, witnesses, quorum },
      previous,
    );
    if (outcome.status === 'first' || outcome.status === 'consistent')
      writeMonitorState(statePath, outcome.checkpoint, new Date());
    const code = report(outcome);
    if (interval === 0 || code === EXIT_MISBEHAVIOUR) process.exit(code);
    await sleep(interval * 1000);
  }
} catch (error) {
  const detail = (error as Error).message;
  if (json)
    process.stdout.write(
      `${JSON.stringify({ status: 'error', checked_at: new Date().toISOString(), detail })}\n`,
    );
  process.stderr.write(`ledger:monitor: ${detail}\n`);
  process.exit(EXIT_FAILED);
}
