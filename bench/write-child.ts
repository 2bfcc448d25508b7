/**
 * Child process for the write benchmark. Takes the first N events of a dataset as single-event
 * commands and appends them, one command per `Ledger.append`, to a fresh SQLite ledger (the
 * production store: WAL, BEGIN IMMEDIATE, group commit — each command acknowledged after a WAL
 * fsync that began after its commit); the baseline inserts the very rows the ledger wrote, one row
 * per BEGIN IMMEDIATE transaction, into a fresh file with the same schema through raw
 * better-sqlite3 with synchronous=FULL — the same guarantee, every row durable when its commit
 * returns. With one caller each append waits for its own sync, as each raw row does; with 50, one
 * sync covers many commands, which a synchronous raw loop cannot do. Rounds alternate; each side
 * keeps its best.
 *
 *   node --import tsx bench/write-child.ts <DATA_DIR> <N> <rounds> <concurrency>
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { systemClock } from '../src/platform/clock.js';
import { SqliteEventStore } from '../src/platform/event-store/sqlite.js';
import type { EventInput, EventMeta, SealedEvent } from '../src/platform/ledger/envelope.js';
import { Ledger } from '../src/platform/ledger/ledger.js';

const [dataDir, nArg, roundsArg, concArg] = process.argv.slice(2);
const n = Number(nArg);
const rounds = Number(roundsArg);
const concurrency = Number(concArg);

interface Command {
  input: EventInput;
  meta: EventMeta;
}

async function commandsFrom(dir: string): Promise<Command[]> {
  const source = SqliteEventStore.open(join(dir, 'ledger.db'));
  const events: SealedEvent[] = [];
  while (events.length < n) {
    const page = await source.read(events.length + 1, Math.min(5000, n - events.length));
    if (page.length === 0) break;
    events.push(...page);
  }
  await source.close();
  return events.map((e) => ({
    input: { id: e.id, stream: e.stream, type: e.type, schema: e.schema, data: e.data },
    meta: e.meta,
  }));
}

interface Row {
  seq: number;
  id: string;
  stream: string;
  type: string;
  org_id: string | null;
  recorded_at: string;
  content: string;
  content_hash: string;
  prev_hash: string;
  hash: string;
}

async function ledgerRound(
  commands: Command[],
  dir: string,
  file: string,
): Promise<{ perSecond: number; rows: Row[] }> {
  const store = SqliteEventStore.open(join(dir, file));
  const ledger = await Ledger.open(store, systemClock);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < commands.length) {
        const c = commands[next]!;
        next += 1;
        await ledger.append([c.input], c.meta);
      }
    }),
  );
  const ms = performance.now() - started;
  const rows = store.database.prepare<[], Row>('SELECT * FROM events ORDER BY seq').all();
  await store.close();
  return { perSecond: (commands.length * 1000) / ms, rows };
}

function rawRound(rows: Row[], dir: string): number {
  // The same schema, created by the store itself, then written through raw better-sqlite3.
  void SqliteEventStore.open(join(dir, 'raw.db')).close();
  const db = new Database(join(dir, 'raw.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  const insert = db.prepare(
    `INSERT INTO events (seq, id, stream, type, org_id, recorded_at, content, content_hash, prev_hash, hash)
     VALUES (@seq, @id, @stream, @type, @org_id, @recorded_at, @content, @content_hash, @prev_hash, @hash)`,
  );
  const one = db.transaction((row: Row) => insert.run(row));
  const started = performance.now();
  for (const row of rows) one.immediate(row);
  const ms = performance.now() - started;
  db.close();
  return (rows.length * 1000) / ms;
}

const commands = await commandsFrom(dataDir!);
let ledgerBest = 0;
let rawBest = 0;
let rows: Row[] | undefined;
for (let r = 0; r < rounds; r += 1) {
  const dir = mkdtempSync(join(tmpdir(), 'plumbline-bench-write-'));
  try {
    // The raw side needs the ledger's rows, so a warm-up ledger pass makes them first; then the
    // measured passes alternate which side writes a fresh file first.
    rows ??= (await ledgerRound(commands, dir, 'warmup.db')).rows;
    const ledgerFirst = r % 2 === 1;
    if (!ledgerFirst) rawBest = Math.max(rawBest, rawRound(rows, dir));
    ledgerBest = Math.max(ledgerBest, (await ledgerRound(commands, dir, 'ledger.db')).perSecond);
    if (ledgerFirst) rawBest = Math.max(rawBest, rawRound(rows, dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
process.stdout.write(
  `${JSON.stringify({
    commands: commands.length,
    concurrency,
    ledger_appends_per_second: Math.round(ledgerBest),
    raw_inserts_per_second: Math.round(rawBest),
    ratio: ledgerBest / rawBest,
  })}\n`,
);
