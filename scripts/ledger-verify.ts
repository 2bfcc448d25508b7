/**
 * `npm run ledger:verify` — streams the whole ledger through the chain verifier over the stored
 * bytes. Exit 0 when the chain verifies, 1 naming the first bad seq, 2 on usage errors.
 */
import { verifyStore } from '../src/platform/ledger/verify-store.js';
import { config, EXIT_FAILED, EXIT_OK, openLedgerStore, parseCli, progressBar, rate } from './lib/cli.js';

const USAGE = `
Usage: npm run ledger:verify -- [--json]

Verifies every event of the ledger in DATA_DIR (default ./data): content hashes over the stored
canonical bytes, link hashes, prev_hash links and seq continuity. Stops at the first bad seq.
  --json   print the result as JSON on stdout
Exit codes: 0 verified, 1 tampered (names the seq), 2 usage or configuration error.
`;

const cli = parseCli(USAGE, {});
const cfg = config();
const store = openLedgerStore(cfg);
const bar = progressBar('verify', !cli.json);
const head = await store.head();
bar.start(head.seq);
const started = performance.now();
const result = await verifyStore(store, { stopAtFirstIssue: true, onProgress: (p) => bar.update(p.checked) });
const ms = performance.now() - started;
bar.stop();
await store.close();
const first = result.issues[0];
const summary = {
  ok: result.ok,
  head: head.seq,
  checked: result.checked,
  verified_through: result.verified_through,
  events_per_second: rate(result.checked, ms),
  seconds: Number((ms / 1000).toFixed(3)),
  first_bad_seq: first?.seq ?? null,
  issues: result.issues,
};
if (cli.json) {
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
} else if (first) {
  process.stdout.write(
    `TAMPERED at seq ${first.seq}: ${first.code} (expected ${first.expected}, found ${first.actual}); verified through seq ${result.verified_through}\n`,
  );
} else {
  process.stdout.write(
    `OK: ${result.checked.toLocaleString('en-US')} events verified through seq ${result.verified_through} in ${summary.seconds}s (${summary.events_per_second.toLocaleString('en-US')} events/s)\n`,
  );
}
process.exit(result.ok ? EXIT_OK : EXIT_FAILED);
