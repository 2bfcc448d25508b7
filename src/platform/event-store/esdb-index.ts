/**
 * The EventStoreDB adapter's index of the ledger stream (issue 17): event id → seq, envelope
 * stream → seqs, and a checkpoint (seq and hash of the last event it covers), in a small SQLite
 * file per node (DATA_DIR/esdb-index.db) or, for a handle given no file, an in-memory database —
 * the same code either way. ESDB has neither a unique index on event ids across a stream nor a
 * secondary index on the envelope `stream` field; this file is both, so the heap holds nothing
 * per event and a restarted node reads only the events after its checkpoint.
 *
 * It is a cache of the ledger stream and holds no fact of its own: the rows and the checkpoint
 * move together in one transaction, so after a crash the file is some earlier consistent prefix
 * and the next sync reads the rest. Several processes of one node (the service and a CLI) may
 * share the file: `add` re-reads the checkpoint inside its write transaction and keeps only the
 * events that continue it, so whoever indexes a seq first wins and nobody indexes it twice.
 */
import Database from 'better-sqlite3';
import type { Database as Db, Statement } from 'better-sqlite3';
import { EMPTY_HEAD, type LedgerHead } from '../ledger/envelope.js';
import { preparePrivateDatabase } from '../private-files.js';

/** What the index keeps of one ledger event. */
export interface IndexedEvent {
  seq: number;
  id: string;
  stream: string;
  hash: string;
}

/** Bumped when the tables change; a file of another version is emptied and rebuilt. */
const SCHEMA_VERSION = 1;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS ids (id TEXT PRIMARY KEY, seq INTEGER NOT NULL) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS streams (
    stream TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (stream, seq)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS meta (
    one INTEGER PRIMARY KEY CHECK (one = 1),
    head_seq INTEGER NOT NULL,
    head_hash TEXT NOT NULL
  );
`;

export class LedgerIndexFile {
  readonly #db: Db;
  readonly #head: Statement<[], { head_seq: number; head_hash: string }>;
  readonly #seqOf: Statement<[string], { seq: number }>;
  readonly #seqsOf: Statement<[string, number, number], { seq: number }>;
  readonly #addId: Statement<[string, number]>;
  readonly #addSeq: Statement<[string, number]>;
  readonly #setHead: Statement<[number, string]>;
  readonly #add: (events: readonly IndexedEvent[]) => number;
  readonly #reset: () => void;

  /** Opens (or creates) the index at `path`; ':memory:' keeps it for this handle only. */
  constructor(path: string) {
    preparePrivateDatabase(path);
    this.#db = new Database(path);
    this.#db.pragma('journal_mode = WAL');
    // A cache: a power loss may cost the last checkpoints (read again from the stream), never consistency.
    this.#db.pragma('synchronous = NORMAL');
    this.#db.pragma('busy_timeout = 5000');
    const version = this.#db.pragma('user_version', { simple: true }) as number;
    if (version !== SCHEMA_VERSION && version !== 0) {
      this.#db.exec('DROP TABLE IF EXISTS ids; DROP TABLE IF EXISTS streams; DROP TABLE IF EXISTS meta;');
    }
    this.#db.exec(SCHEMA);
    this.#db.pragma(`user_version = ${SCHEMA_VERSION}`);
    this.#db
      .prepare('INSERT OR IGNORE INTO meta (one, head_seq, head_hash) VALUES (1, ?, ?)')
      .run(EMPTY_HEAD.seq, EMPTY_HEAD.hash);
    this.#head = this.#db.prepare('SELECT head_seq, head_hash FROM meta WHERE one = 1');
    this.#seqOf = this.#db.prepare('SELECT seq FROM ids WHERE id = ?');
    this.#seqsOf = this.#db.prepare(
      'SELECT seq FROM streams WHERE stream = ? AND seq > ? ORDER BY seq LIMIT ?',
    );
    // An id stored twice (only writers that skip the check can do that) keeps its first seq: the original.
    this.#addId = this.#db.prepare('INSERT OR IGNORE INTO ids (id, seq) VALUES (?, ?)');
    this.#addSeq = this.#db.prepare('INSERT OR IGNORE INTO streams (stream, seq) VALUES (?, ?)');
    this.#setHead = this.#db.prepare('UPDATE meta SET head_seq = ?, head_hash = ? WHERE one = 1');
    const add = this.#db.transaction((events: readonly IndexedEvent[]): number => {
      const head = this.head();
      const rest = events.filter((e) => e.seq > head.seq);
      // Only what continues the checkpoint: a gap means another handle reset the file meanwhile.
      if (rest.length === 0 || rest[0]!.seq !== head.seq + 1) return 0;
      for (const e of rest) {
        this.#addId.run(e.id, e.seq);
        this.#addSeq.run(e.stream, e.seq);
      }
      const last = rest[rest.length - 1]!;
      this.#setHead.run(last.seq, last.hash);
      return rest.length;
    });
    this.#add = (events) => add.immediate(events);
    const reset = this.#db.transaction(() => {
      this.#db.exec('DELETE FROM ids; DELETE FROM streams;');
      this.#setHead.run(EMPTY_HEAD.seq, EMPTY_HEAD.hash);
    });
    this.#reset = () => reset.immediate();
  }

  /** The checkpoint: the last event the index covers (the genesis head when it covers none). */
  head(): LedgerHead {
    const row = this.#head.get()!;
    return { seq: row.head_seq, hash: row.head_hash };
  }

  seqOf(id: string): number | undefined {
    return this.#seqOf.get(id)?.seq;
  }

  /** The seqs of envelope stream `stream` after `after`, ascending, at most `limit`. */
  seqsOf(stream: string, after: number, limit: number): number[] {
    return this.#seqsOf.all(stream, after, limit).map((row) => row.seq);
  }

  /**
   * Indexes consecutive events in one transaction with the checkpoint; those at or below it are
   * already in. Returns how many were added (0 when they do not continue the checkpoint).
   */
  add(events: readonly IndexedEvent[]): number {
    return events.length === 0 ? 0 : this.#add(events);
  }

  /** Empties the index, back to the genesis checkpoint, for a rebuild from the stream. */
  reset(): void {
    this.#reset();
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}
