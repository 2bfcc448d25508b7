/**
 * `npm run projections:rebuild` — drops every read model and its snapshot and replays the ledger
 * from seq 1, with a progress bar (events/s, ETA). Exit 0 done, 2 usage/configuration error.
 */
import { systemClock } from '../src/platform/clock.js';
import { ProjectionRuntime } from '../src/platform/projections/runtime.js';
import { allProjections } from '../projections/index.js';
import { config, EXIT_FAILED, EXIT_OK, openLedger, parseCli, progressBar, rate } from './lib/cli.js';
import { type ReadModelFile, ReadModelFileBusy } from '../src/platform/projections/read-model-file.js';
import { fillReadModels } from '../src/platform/projections/read-model-recovery.js';
import { catchUpTree, TileTree } from '../src/platform/tlog/tree.js';

const USAGE = `
Usage: npm run projections:rebuild -- [--json]

Replays the ledger (EVENTSTORE_URL, else DATA_DIR, default ./data) from seq 1 into every projection,
writing them afresh to the node's read-model file (DATA_DIR/read-models.db; refused while a service
on the same DATA_DIR keeps it: stop that node first; a damaged one is set aside as read-models.db.damaged-<time>), and rebuilds the transparency log's Merkle tiles from the ledger (the
signed checkpoints are kept: the rebuilt tree must still have their roots, which ledger:verify checks).
  --json   print the result as JSON on stdout
Exit codes: 0 rebuilt, 1 the read models are kept by a running service, 2 usage or configuration error.
`;

const cli = parseCli(USAGE, {});
const cfg = config();
const opened = await openLedger(cfg, { mustExist: true, json: cli.json });
const { store, tiles } = opened;
const head = await store.head();
const bar = progressBar('rebuild', !cli.json);
const started = performance.now();
let disk: ReadModelFile;
let runtime: ProjectionRuntime;
try {
  // A damaged file (what a rebuild is often run for) is set aside, never a reason to stop: one
  // marked damaged by the service or unreadable at open, and one whose damage is in a data page,
  // which clearing it meets.
  ({ file: disk, filled: runtime } = await fillReadModels(
    opened.readModelPath,
    {
      onSetAside: (d) =>
        process.stderr.write(
          `the read models at ${d.path} were damaged (${d.reason}): set aside to ${d.set_aside_to}\n`,
        ),
    },
    async (file) => {
      const rebuilt = new ProjectionRuntime(store, allProjections(), null, systemClock, { disk: file });
      bar.start(head.seq);
      await rebuilt.rebuild((p) => bar.update(p.position));
      return rebuilt;
    },
  ));
} catch (error) {
  if (!(error instanceof ReadModelFileBusy)) throw error;
  process.stderr.write(`${error.message}\n`);
  await opened.close();
  process.exit(EXIT_FAILED);
}
bar.stop();
const tree = new TileTree(tiles);
tree.reset();
await catchUpTree(tree, store);
const ms = performance.now() - started;
await runtime.stop();
disk.close();
await opened.close();
const summary = {
  ok: true,
  projections: runtime.names(),
  events: runtime.position,
  tree: { size: tree.size, root: tree.root().toString('base64') },
  seconds: Number((ms / 1000).toFixed(3)),
  events_per_second: rate(runtime.position, ms),
  rss_mib: Math.round(process.memoryUsage().rss / 2 ** 20),
};
if (cli.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
else
  process.stdout.write(
    `Rebuilt ${summary.projections.length} projections (${summary.projections.join(', ')}) and the Merkle tree (size ${summary.tree.size}, root ${summary.tree.root}) over ${summary.events.toLocaleString('en-US')} events in ${summary.seconds}s (${summary.events_per_second.toLocaleString('en-US')} events/s, RSS ${summary.rss_mib} MiB)\n`,
  );
process.exit(EXIT_OK);
