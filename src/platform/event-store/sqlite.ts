/**
 * SqliteEventStore: the embedded ledger (better-sqlite3). WAL with synchronous=FULL so an
 * acknowledged append survives power loss; BEGIN IMMEDIATE so the head check and the insert are
 * one atomic step across processes; triggers make stored events immutable. The only importer
 * of better-sqlite3: the snapshot and key-value tables that live beside the ledger are here too.
 */
import { EventEmitter } from 'node:events';
import { closeSync, fsync, fsyncSync, openSync } from 'node:fs';
import { preparePrivateDatabase } from '../private-files.js';
import Database from 'better-sqlite3';
import type { Database as Db, Statement, Transaction } from 'better-sqlite3';
import { EMPTY_HEAD, sealedContentText, type LedgerHead, type SealedEvent } from '../ledger/envelope.js';
import { AppendConflict, InvalidAppend, StoreUnavailable } from '../ledger/errors.js';
import type { PackedRows, StoredRecord, StoredRow } from '../ledger/verify.js';
import type { SnapshotRecord, SnapshotStore, SnapshotWrite } from '../projections/runtime.js';
import type {
  AppendResult,
  EventHandler,
  EventStore,
  GroupedAppend,
  ReadStreamOptions,
  Subscription,
} from './port.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  seq          INTEGER PRIMARY KEY,
  id           TEXT NOT NULL UNIQUE,
  stream       TEXT NOT NULL,
  type         TEXT NOT NULL,
  org_id       TEXT,
  recorded_at  TEXT NOT NULL,
  content      TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  prev_hash    TEXT NOT NULL,
  hash         TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_stream ON events(stream, seq);
CREATE TRIGGER IF NOT EXISTS events_are_immutable BEFORE UPDATE ON events
  BEGIN SELECT RAISE(ABORT, 'ledger events are immutable'); END;
CREATE TRIGGER IF NOT EXISTS events_are_permanent BEFORE DELETE ON events
  BEGIN SELECT RAISE(ABORT, 'ledger events cannot be deleted'); END;
CREATE TABLE IF NOT EXISTS projection_snapshots (
  name       TEXT PRIMARY KEY,
  version    INTEGER NOT NULL,
  checkpoint INTEGER NOT NULL,
  state      BLOB NOT NULL,
  saved_at   TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS projection_snapshot_parts (
  name  TEXT NOT NULL,
  part  INTEGER NOT NULL,
  bytes BLOB NOT NULL,
  PRIMARY KEY (name, part)
);
CREATE TABLE IF NOT EXISTS kv (
  namespace  TEXT NOT NULL,
  key        TEXT NOT NULL,
  value      TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (namespace, key)
);
`;

interface EventRow {
  seq: number;
  content: string;
  content_hash: string;
  prev_hash: string;
  hash: string;
}

/** An insert met an id already stored (UNIQUE(id)); the append is re-examined after the rollback. */
class DuplicateIds extends Error {}

function isDuplicateId(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === 'SQLITE_CONSTRAINT_UNIQUE' && typeof message === 'string' && message.includes('events.id');
}

function conflict(expectedHead: number, actualHead: number): never {
  throw new AppendConflict(expectedHead, actualHead);
}

/** `seq, content, content_hash, prev_hash, hash` as a raw row. */
type RawEventRow = [number, string, string, string, string];
/** count, min seq, max seq, rows whose content is not TEXT, lengths, content bytes, chain columns. */
type PackedRow = [
  number,
  number | null,
  number | null,
  number | null,
  string | null,
  Buffer | null,
  string | null,
];

function fromRaw(row: RawEventRow): EventRow {
  return { seq: row[0], content: row[1], content_hash: row[2], prev_hash: row[3], hash: row[4] };
}

const UNAVAILABLE_CODES = new Set([
  'SQLITE_READONLY',
  'SQLITE_IOERR',
  'SQLITE_FULL',
  'SQLITE_CANTOPEN',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_PERM',
  'SQLITE_NOTADB',
  'SQLITE_CORRUPT',
]);

function translate(error: unknown): Error {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && [...UNAVAILABLE_CODES].some((c) => code.startsWith(c))) {
    return new StoreUnavailable(`ledger store unavailable (${code})`, { cause: error });
  }
  return error instanceof Error ? error : new Error(String(error));
}

function toEvent(row: EventRow): SealedEvent {
  return sealedFrom(row.seq, row.content, row.content_hash, row.prev_hash, row.hash);
}

function sealedFrom(
  seq: number,
  text: string,
  contentHash: string,
  prevHash: string,
  hash: string,
): SealedEvent {
  const content = JSON.parse(text) as Omit<SealedEvent, 'seq' | 'content_hash' | 'prev_hash' | 'hash'>;
  return {
    seq,
    id: content.id,
    stream: content.stream,
    type: content.type,
    schema: content.schema,
    data: content.data,
    meta: content.meta,
    recorded_at: content.recorded_at,
    content_hash: contentHash,
    prev_hash: prevHash,
    hash,
  };
}

/** Raw rows to events in one pass: no row objects or intermediate arrays (replays read millions). */
function eventsOf(rows: RawEventRow[]): SealedEvent[] {
  const events = new Array<SealedEvent>(rows.length);
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i]!;
    events[i] = sealedFrom(row[0], row[1], row[2], row[3], row[4]);
  }
  return events;
}

export interface SqliteEventStoreOptions {
  /** How often a live subscription looks for rows written by another process (ms). */
  pollIntervalMs?: number;
}

export class SqliteEventStore implements EventStore {
  readonly kind = 'sqlite';
  readonly path: string;
  readonly #db: Db;
  readonly #emitter = new EventEmitter();
  readonly #pollMs: number;
  /** Group commit: commits waiting for the next sync of the WAL, and whether one is under way. */
  #unsynced: { resolve: () => void; reject: (error: Error) => void }[] = [];
  #syncing = false;
  #syncs = 0;
  /** How many commits the last sync covered (see `#startSync`). */
  #lastBatch = 0;
  #walFd: number | null = null;
  /** Set when a sync failed: what was committed since may not be on disk, so nothing more is taken. */
  #syncFailure: StoreUnavailable | null = null;
  /**
   * The append transaction, wrapped once: better-sqlite3 builds four wrapper functions and their
   * properties per `transaction()` call, which per append was ~6 µs of ~40 (issue 19: every `score`
   * appends an inquiry).
   */
  readonly #appendTx: Transaction<(events: SealedEvent[], expectedHead: number) => AppendResult>;
  readonly #stmt: {
    head: Statement<[], { seq: number; hash: string }>;
    insert: Statement<
      [number, string, string, string, string | null, string, string, string, string, string]
    >;
    byId: Statement<[string], EventRow>;
    /** Raw (array) rows: better-sqlite3 builds row objects key by key, slower than a literal. */
    range: Statement<[number, number], RawEventRow>;
    /** `readPacked`'s one row: a run of events folded into seven values. */
    packed: Statement<[number, number], PackedRow>;
    stream: Statement<[string, number, number], EventRow>;
  };

  private constructor(path: string, opts: SqliteEventStoreOptions) {
    this.path = path;
    this.#pollMs = opts.pollIntervalMs ?? 250;
    preparePrivateDatabase(path);
    this.#db = new Database(path);
    this.#db.pragma('journal_mode = WAL');
    // Durability comes from group commit (see `appendGrouped`): commits are written to the WAL
    // without a sync of their own and acknowledged only after a sync of the WAL that began after
    // them, so one fsync covers every commit made while the previous one was under way. An
    // acknowledged append survives power loss exactly as with synchronous=FULL; checkpoints still
    // sync the WAL before and the database file after (SQLite's rule for NORMAL in WAL mode).
    this.#db.pragma('synchronous = NORMAL');
    this.#db.pragma('busy_timeout = 5000');
    this.#db.pragma('foreign_keys = ON');
    this.#db.exec(SCHEMA);
    const cols = 'seq, content, content_hash, prev_hash, hash';
    this.#stmt = {
      head: this.#db.prepare('SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1'),
      insert: this.#db.prepare(
        `INSERT INTO events (seq, id, stream, type, org_id, recorded_at, content, content_hash, prev_hash, hash)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      byId: this.#db.prepare(`SELECT ${cols} FROM events WHERE id = ?`),
      range: this.#db
        .prepare<[number, number], RawEventRow>(
          `SELECT ${cols} FROM events WHERE seq >= ? ORDER BY seq LIMIT ?`,
        )
        .raw(true),
      // SQLite folds the run while it steps the rows, in rowid (seq) order; group_concat skips a
      // NULL, which leaves a count short, and `pushPacked` then declines the run.
      packed: this.#db
        .prepare<[number, number], PackedRow>(
          `SELECT count(*), min(seq), max(seq), sum(typeof(content) <> 'text'),
                  group_concat(octet_length(content)), CAST(group_concat(content, '') AS BLOB),
                  group_concat(content_hash || prev_hash || hash, '')
             FROM events WHERE seq BETWEEN ? AND ?`,
        )
        .raw(true),
      stream: this.#db.prepare(
        `SELECT ${cols} FROM events WHERE stream = ? AND seq > ? ORDER BY seq LIMIT ?`,
      ),
    };
    this.#appendTx = this.#db.transaction((events: SealedEvent[], expectedHead: number) =>
      this.#appendInTransaction(events, expectedHead),
    );
    this.#emitter.setMaxListeners(0);
  }

  /** Opens (creating if needed) the ledger file; ':memory:' for a throwaway store. */
  static open(path: string, opts: SqliteEventStoreOptions = {}): SqliteEventStore {
    try {
      return new SqliteEventStore(path, opts);
    } catch (error) {
      throw translate(error);
    }
  }

  /** The underlying handle, for the snapshot and key-value stores that share the file. */
  get database(): Db {
    return this.#db;
  }

  #headSync(): LedgerHead {
    return this.#stmt.head.get() ?? EMPTY_HEAD;
  }

  /** Appends and resolves once the events are durable (the port's contract). */
  async append(events: SealedEvent[], expectedHead: number): Promise<AppendResult> {
    const { durable, ...result } = await this.appendGrouped(events, expectedHead, { alone: true });
    await durable;
    return result;
  }

  /**
   * Commits now (the events are readable at once) and resolves `durable` after the next sync of
   * the WAL, which covers this commit and every other made before it began. The Ledger decides and
   * commits the next command meanwhile and acknowledges each one when its `durable` resolves.
   */
  appendGrouped(
    events: SealedEvent[],
    expectedHead: number,
    opts: { alone?: boolean } = {},
  ): Promise<GroupedAppend> {
    if (this.#syncFailure) return Promise.reject(this.#syncFailure);
    try {
      const result = this.#appendSync(events, expectedHead);
      // A plain append (a CLI, an import) with no sync under way has nothing to group with: sync
      // here rather than hand the fsync to a worker thread and wait a turn of the loop for it. The
      // Ledger never asks for this: under HTTP load its queue is often empty at the moment of a
      // commit while more requests are already on their way (measured: score 2,379 → 1,350 req/s).
      const durable =
        opts.alone && !this.#syncing && this.#unsynced.length === 0 ? this.#syncNow() : this.#synced();
      return Promise.resolve({ ...result, durable });
    } catch (error) {
      return Promise.reject(translate(error));
    }
  }

  #syncNow(): Promise<void> {
    if (this.path === ':memory:') return Promise.resolve();
    try {
      fsyncSync(this.#wal());
      this.#syncs += 1;
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(this.#syncFailed(error));
    }
  }

  /** The WAL file, opened once for syncing. */
  #wal(): number {
    return (this.#walFd ??= openSync(`${this.path}-wal`, 'r'));
  }

  /** Records a failed sync: the store takes nothing more (what was committed since may be lost). */
  #syncFailed(error: unknown): StoreUnavailable {
    return (this.#syncFailure ??= new StoreUnavailable(`ledger sync failed (${(error as Error).message})`, {
      cause: error,
    }));
  }

  /** Completed syncs of the WAL (group commit: under load, far fewer than appends). */
  get syncs(): number {
    return this.#syncs;
  }

  /** Resolves after a sync of the WAL that starts after this call (group commit). */
  #synced(): Promise<void> {
    if (this.path === ':memory:') return Promise.resolve();
    const done = new Promise<void>((resolve, reject) => this.#unsynced.push({ resolve, reject }));
    this.#startSync();
    return done;
  }

  #startSync(): void {
    if (this.#syncing || this.#unsynced.length === 0) return;
    const batch = this.#unsynced;
    this.#unsynced = [];
    this.#syncing = true;
    const finish = (error: Error | null): void => {
      this.#syncing = false;
      if (error) {
        const failure = this.#syncFailed(error);
        for (const waiter of [...batch, ...this.#unsynced.splice(0)]) waiter.reject(failure);
        return;
      }
      this.#syncs += 1;
      for (const waiter of batch) waiter.resolve();
      this.#startSync();
    };
    let fd: number;
    try {
      fd = this.#wal();
    } catch (error) {
      finish(error as Error);
      return;
    }
    // Under load (the last sync covered several commits) the fsync runs on a worker thread, so the
    // loop goes on deciding and committing the next commands meanwhile. One writer at a time (it
    // covered one) gains nothing from that and pays a thread hop per append, so the sync runs on
    // this thread at the end of the loop's turn, covering whatever committed during the turn.
    const grouping = this.#lastBatch > 1;
    this.#lastBatch = batch.length;
    if (grouping) {
      fsync(fd, finish);
      return;
    }
    setImmediate(() => {
      try {
        fsyncSync(fd);
      } catch (error) {
        finish(error as Error);
        return;
      }
      finish(null);
    });
  }

  /** Waits for every commit made so far to be synced. */
  #drained(): Promise<void> {
    if (!this.#syncing && this.#unsynced.length === 0) return Promise.resolve();
    return this.#synced().catch(() => undefined);
  }

  #appendSync(events: SealedEvent[], expectedHead: number): AppendResult {
    if (events.length === 0) throw new InvalidAppend('append of no events');
    let result: AppendResult;
    try {
      result = this.#appendTx.immediate(events, expectedHead);
    } catch (error) {
      if (!(error instanceof DuplicateIds)) throw error;
      // The insert hit a stored id and rolled back: the originals when all are stored.
      result = this.#alreadyStored(events) ?? conflict(expectedHead, this.#headSync().seq);
    }
    if (!result.duplicate) this.#emitter.emit('append', result.events);
    return result;
  }

  /**
   * The body of an append's BEGIN IMMEDIATE transaction. The common case — new ids at the expected
   * head — inserts straight away; whether the ids are already stored is only asked when something
   * fails (stale head, bad link, UNIQUE(id)), so an idempotent re-append still answers with the
   * originals and a partial one is still refused.
   */
  #appendInTransaction(events: SealedEvent[], expectedHead: number): AppendResult {
    const head = this.#headSync();
    if (head.seq !== expectedHead) return this.#alreadyStored(events) ?? conflict(expectedHead, head.seq);
    let prev = head;
    for (const event of events) {
      if (event.seq !== prev.seq + 1 || event.prev_hash !== prev.hash) {
        const stored = this.#alreadyStored(events);
        if (stored) return stored;
        throw new InvalidAppend(`event ${event.id} does not link to seq ${prev.seq}`);
      }
      try {
        this.#stmt.insert.run(
          event.seq,
          event.id,
          event.stream,
          event.type,
          event.meta.org_id,
          event.recorded_at,
          sealedContentText(event),
          event.content_hash,
          event.prev_hash,
          event.hash,
        );
      } catch (error) {
        if (isDuplicateId(error)) throw new DuplicateIds();
        throw error;
      }
      prev = { seq: event.seq, hash: event.hash };
    }
    return { events, head: prev, duplicate: false };
  }

  /** The stored originals when every id of `events` is stored; null when none is; else refused. */
  #alreadyStored(events: SealedEvent[]): AppendResult | null {
    const found = events.map((e) => this.#stmt.byId.get(e.id)).filter((row) => row !== undefined);
    if (found.length === events.length) {
      return { events: found.map(toEvent), head: this.#headSync(), duplicate: true };
    }
    if (found.length > 0) {
      throw new InvalidAppend('some but not all event ids of this append are already stored');
    }
    return null;
  }

  head(): Promise<LedgerHead> {
    // After a failed sync the store takes no more appends; readiness (which asks the head) says so.
    if (this.#syncFailure) return Promise.reject(this.#syncFailure);
    try {
      return Promise.resolve(this.#headSync());
    } catch (error) {
      return Promise.reject(translate(error));
    }
  }

  read(from: number, limit: number): Promise<SealedEvent[]> {
    try {
      return Promise.resolve(eventsOf(this.#stmt.range.all(Math.max(1, from), limit)));
    } catch (error) {
      return Promise.reject(translate(error));
    }
  }

  readRecords(from: number, limit: number): Promise<StoredRecord[]> {
    try {
      return Promise.resolve(this.#stmt.range.all(Math.max(1, from), limit).map(fromRaw));
    } catch (error) {
      return Promise.reject(translate(error));
    }
  }

  /**
   * `readRecords` as SQLite's raw rows, synchronously: the `ledger:verify` walk reads every row once
   * and builds no object per row (StoredRow).
   */
  readRows(from: number, limit: number): StoredRow[] {
    try {
      return this.#stmt.range.all(Math.max(1, from), limit);
    } catch (error) {
      throw translate(error);
    }
  }

  /**
   * The events with seq in [from, to] as one packed run (`PackedRows`): SQLite concatenates their
   * content bytes and their chain columns itself, so the walk makes one call and three values per
   * page where `readRows` makes one JS array and four strings per row — building those strings
   * (UTF-8 decoded, then encoded again to be hashed) was ~1.2 µs of a row's ~2 µs read on the
   * bench ledgers. `ChainVerifier.pushPacked` checks the run or declines it whole.
   */
  readPacked(from: number, to: number): PackedRows {
    let row: PackedRow | undefined;
    try {
      row = this.#stmt.packed.get(Math.max(1, from), to);
    } catch (error) {
      throw translate(error);
    }
    // An aggregate always answers one row; content that is not all TEXT is left to the row walk.
    if (!row || row[3])
      return { count: row?.[0] ?? 0, first: null, last: null, lengths: null, content: null, links: null };
    const [count, first, last, , lengths, content, links] = row;
    return { count, first, last, lengths, content, links };
  }

  readStream(stream: string, opts: ReadStreamOptions = {}): Promise<SealedEvent[]> {
    try {
      const rows = this.#stmt.stream.all(stream, opts.after ?? 0, opts.limit ?? Number.MAX_SAFE_INTEGER);
      return Promise.resolve(rows.map(toEvent));
    } catch (error) {
      return Promise.reject(translate(error));
    }
  }

  subscribe(from: number, onEvent: EventHandler): Subscription {
    let next = Math.max(1, from);
    let closed = false;
    let pumping: Promise<void> | null = null;
    let again = false;
    // Events appended through this store object are handed over as they were sealed, so a live
    // subscriber in the same process does not read back and re-parse every row it was just given.
    let handed: SealedEvent[] = [];
    /** The handed-over events when they continue exactly where the subscriber is, else null. */
    const takeHanded = (): SealedEvent[] | null => {
      const fresh = handed.filter((e) => e.seq >= next);
      handed = [];
      return fresh.length > 0 && fresh.every((e, i) => e.seq === next + i) ? fresh : null;
    };
    const pumpOnce = async (): Promise<void> => {
      for (;;) {
        if (closed) return;
        const given = takeHanded();
        const page = given ?? this.#stmt.range.all(next, 500).map(fromRaw).map(toEvent);
        if (page.length === 0) return;
        for (const event of page) {
          if (closed) return;
          await onEvent(event);
          next = event.seq + 1;
        }
        // Rows other processes wrote are found by the poll; no read back after what was handed.
        if (given && handed.length === 0) return;
      }
    };
    const pump = (): Promise<void> => {
      if (pumping) {
        again = true;
        return pumping;
      }
      pumping = (async () => {
        do {
          again = false;
          await pumpOnce();
        } while (again && !closed);
      })().finally(() => {
        pumping = null;
      });
      return pumping;
    };
    const onAppend = (events?: SealedEvent[]): void => {
      if (events) handed.push(...events);
      void pump().catch(() => undefined);
    };
    let timer: NodeJS.Timeout | undefined;
    const ready = pump().then(() => {
      if (closed) return;
      this.#emitter.on('append', onAppend);
      timer = setInterval(onAppend, this.#pollMs);
      timer.unref();
    });
    return {
      ready,
      close: async () => {
        closed = true;
        this.#emitter.off('append', onAppend);
        if (timer) clearInterval(timer);
        await pumping?.catch(() => undefined);
      },
    };
  }

  async close(): Promise<void> {
    await this.#drained();
    this.#emitter.removeAllListeners();
    if (this.#walFd !== null) closeSync(this.#walFd);
    this.#walFd = null;
    if (this.#db.open) this.#db.close();
  }
}

/** Projection snapshots and checkpoints, in the ledger file or (ESDB mode) a file of their own. */
export class SqliteSnapshotStore implements SnapshotStore {
  readonly #db: Db;
  readonly #owned: boolean;
  constructor(source: SqliteEventStore | string) {
    if (typeof source === 'string') {
      preparePrivateDatabase(source);
      this.#db = new Database(source);
      this.#db.pragma('journal_mode = WAL');
      this.#db.exec(SCHEMA);
      this.#owned = true;
    } else {
      this.#db = source.database;
      this.#owned = false;
    }
  }
  load(name: string): SnapshotRecord | undefined {
    const row = this.#db
      .prepare<[string], Omit<SnapshotRecord, 'state'> & { state: Uint8Array | string }>(
        'SELECT name, version, checkpoint, state, saved_at FROM projection_snapshots WHERE name = ?',
      )
      .get(name);
    // Files written before snapshots were bytes hold JSON text (a TEXT column: SQLite keeps whatever
    // type each row was given); it is the same bytes as UTF-8.
    if (row === undefined) return undefined;
    if (typeof row.state === 'string') return { ...row, state: Buffer.from(row.state, 'utf8') };
    const parts = this.#db
      .prepare<[string], Buffer>('SELECT bytes FROM projection_snapshot_parts WHERE name = ? ORDER BY part')
      .pluck(true)
      .all(name);
    if (parts.length === 0) return row as SnapshotRecord;
    return { ...row, state: [row.state, ...parts] };
  }
  /**
   * A snapshot's bytes are its row's `state` followed by its parts in order: a state given in parts
   * is written part by part (its first part in the row), never as one buffer — one transaction.
   */
  save(record: SnapshotWrite): void {
    const upsert = this.#db.prepare(
      `INSERT INTO projection_snapshots (name, version, checkpoint, state, saved_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(name) DO UPDATE SET version = excluded.version, checkpoint = excluded.checkpoint,
         state = excluded.state, saved_at = excluded.saved_at`,
    );
    const insertPart = this.#db.prepare(
      'INSERT INTO projection_snapshot_parts (name, part, bytes) VALUES (?, ?, ?)',
    );
    this.#db.transaction(() => {
      this.#db.prepare('DELETE FROM projection_snapshot_parts WHERE name = ?').run(record.name);
      const parts = record.state instanceof Uint8Array ? [record.state] : record.state;
      let part = 0;
      for (const bytes of parts) {
        if (part === 0) upsert.run(record.name, record.version, record.checkpoint, bytes, record.saved_at);
        else insertPart.run(record.name, part, bytes);
        part += 1;
      }
      if (part === 0)
        upsert.run(record.name, record.version, record.checkpoint, Buffer.alloc(0), record.saved_at);
    })();
  }
  /** The highest seq any snapshot was taken at (0 when none): the ledger must reach it. */
  maxCheckpoint(): number {
    const row = this.#db
      .prepare<[], { checkpoint: number | null }>(
        'SELECT MAX(checkpoint) AS checkpoint FROM projection_snapshots',
      )
      .get();
    return row?.checkpoint ?? 0;
  }
  clear(name?: string): void {
    this.#db.transaction(() => {
      if (name === undefined) {
        this.#db.prepare('DELETE FROM projection_snapshots').run();
        this.#db.prepare('DELETE FROM projection_snapshot_parts').run();
      } else {
        this.#db.prepare('DELETE FROM projection_snapshots WHERE name = ?').run(name);
        this.#db.prepare('DELETE FROM projection_snapshot_parts WHERE name = ?').run(name);
      }
    })();
  }
  close(): void {
    if (this.#owned && this.#db.open) this.#db.close();
  }
}

/** One row of the `kv` table: `expires_at` in epoch milliseconds. */
export interface KeyValueEntry {
  key: string;
  value: string;
  expires_at: number;
}

/**
 * Expiring string values (idempotency records) in the `kv` table, for the embedded mode without
 * Redis. Structurally a `KeyValueStore` (platform/http/idempotency.ts). Expiry is read from the
 * injected clock, stored as epoch milliseconds, so tests cross a TTL without waiting.
 */
export class SqliteKeyValueStore {
  readonly #db: Db;
  readonly #owned: boolean;
  readonly #clock: { now(): Date };
  #putsSinceSweep = 0;
  readonly #stmt: {
    get: Statement<[string, string, number], { value: string }>;
    put: Statement<[string, string, string, number, number]>;
    delete: Statement<[string, string]>;
    sweep: Statement<[number]>;
    entries: Statement<[string, number], KeyValueEntry>;
    set: Statement<[string, string, string, number]>;
  };

  /** Shares the ledger's file when given the event store; opens (and owns) a file when given a path. */
  constructor(source: SqliteEventStore | string, clock: { now(): Date }) {
    if (typeof source === 'string') {
      preparePrivateDatabase(source);
      this.#db = new Database(source);
      this.#db.pragma('journal_mode = WAL');
      this.#db.pragma('busy_timeout = 5000');
      this.#db.exec(SCHEMA);
      this.#owned = true;
    } else {
      this.#db = source.database;
      this.#owned = false;
    }
    this.#clock = clock;
    this.#stmt = {
      get: this.#db.prepare('SELECT value FROM kv WHERE namespace = ? AND key = ? AND expires_at > ?'),
      // One statement decides "absent or expired" and writes, so two writers cannot both win.
      put: this.#db.prepare(
        `INSERT INTO kv (namespace, key, value, expires_at) VALUES (?, ?, ?, ?)
         ON CONFLICT(namespace, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at
         WHERE kv.expires_at <= ?`,
      ),
      delete: this.#db.prepare('DELETE FROM kv WHERE namespace = ? AND key = ?'),
      sweep: this.#db.prepare('DELETE FROM kv WHERE expires_at <= ?'),
      entries: this.#db.prepare(
        'SELECT key, value, expires_at FROM kv WHERE namespace = ? AND expires_at > ? ORDER BY key',
      ),
      set: this.#db.prepare(
        `INSERT INTO kv (namespace, key, value, expires_at) VALUES (?, ?, ?, ?)
         ON CONFLICT(namespace, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
      ),
    };
  }

  /**
   * The unexpired entries of `namespace`, for a store that keeps its state in memory and this
   * table as its copy (the embedded rate-limit counters). Throws as the ledger store does.
   */
  entries(namespace: string): KeyValueEntry[] {
    try {
      return this.#stmt.entries.all(namespace, this.#nowMs());
    } catch (error) {
      throw translate(error);
    }
  }

  /** Overwrites `puts` and removes `deletes` in `namespace`, in one transaction. */
  write(namespace: string, puts: readonly KeyValueEntry[], deletes: readonly string[]): void {
    try {
      this.#db.transaction(() => {
        for (const e of puts) this.#stmt.set.run(namespace, e.key, e.value, e.expires_at);
        for (const key of deletes) this.#stmt.delete.run(namespace, key);
      })();
    } catch (error) {
      throw translate(error);
    }
  }

  get(namespace: string, key: string): Promise<string | undefined> {
    return this.#run(() => this.#stmt.get.get(namespace, key, this.#nowMs())?.value);
  }

  putIfAbsent(namespace: string, key: string, value: string, ttlSeconds: number): Promise<boolean> {
    return this.#run(() => {
      const now = this.#nowMs();
      // Reclaim expired rows now and then; `expires_at` has no index, so not on every write.
      this.#putsSinceSweep += 1;
      if (this.#putsSinceSweep >= 256) this.deleteExpired();
      return this.#stmt.put.run(namespace, key, value, now + ttlSeconds * 1000, now).changes === 1;
    });
  }

  delete(namespace: string, key: string): Promise<void> {
    return this.#run(() => {
      this.#stmt.delete.run(namespace, key);
    });
  }

  /** Drops expired rows; reads already ignore them, this only reclaims space. Returns rows removed. */
  deleteExpired(): number {
    this.#putsSinceSweep = 0;
    return this.#stmt.sweep.run(this.#nowMs()).changes;
  }

  close(): void {
    if (this.#owned && this.#db.open) this.#db.close();
  }

  #nowMs(): number {
    return this.#clock.now().getTime();
  }

  #run<T>(op: () => T): Promise<T> {
    try {
      return Promise.resolve(op());
    } catch (error) {
      return Promise.reject(translate(error));
    }
  }
}
