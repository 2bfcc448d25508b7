/**
 * Read models on disk (issue 19, docs/ARCHITECTURE.md §5). A node's read models live in one SQLite
 * file of its own (`DATA_DIR/read-models.db`, in both modes) as records keyed by id, with each
 * projection's version and checkpoint in the same file; the heap holds only a bounded cache of
 * records, the keys of records changed since the last flush, and small aggregates.
 *
 * A projection's state stays the plain object its fold and its queries already use: every top-level
 * field that `init()` gives as an empty object `{}` (a collection: projects by id, findings by id,
 * an index by entity…) becomes a `Proxy` over the file's records of that collection; every other
 * field (a scalar, a small fixed object) is an aggregate kept in the heap and saved whole at each
 * flush. A projection whose state is a class (the ledger index) opens its own form on the file
 * (`Projection.openOnDisk`). So the fold code, and the 1,400 tests that pin its answers, are the
 * same in both forms; `test/unit/projections/read-model-file.test.ts` holds a heap fold and a disk
 * fold of generated ledgers equal after every flush.
 *
 * Consistency: records read or written by a fold are marked changed (a fold updates records in
 * place) and kept in the cache until the next flush; a flush writes them, the aggregates and every
 * projection's checkpoint in one transaction, only between events. So the file always holds the
 * fold of exactly the prefix its checkpoints name: a crash loses only unflushed work, which the
 * next start replays from the ledger. Outside a fold the states are read-only (a write throws).
 * Key order is insertion order, as a plain object's (an `ord` per record).
 */
import { hash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Database as Db, Statement } from 'better-sqlite3';
import { preparePrivateDatabase, PRIVATE_FILE_MODE } from '../private-files.js';
import { DIGEST_BYTES, DigestTable } from './digest-table.js';
import { isCorruption, markDamaged, ReadModelsDamaged, type ReadModelDamage } from './read-model-damage.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS rm_projections (
  name       TEXT PRIMARY KEY,
  version    INTEGER NOT NULL,
  checkpoint INTEGER NOT NULL,
  aggregates TEXT NOT NULL
);
-- Records in their collection's order (the order keys were added), looked up by key through an
-- index: a catch-up adds records at the end of their collection instead of all over the B-tree.
CREATE TABLE IF NOT EXISTS rm_records (
  coll  TEXT NOT NULL,
  key   TEXT NOT NULL,
  ord   INTEGER NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (coll, ord, key)
) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS rm_records_by_key ON rm_records(coll, key);
CREATE TABLE IF NOT EXISTS rm_digest_sets (
  name TEXT PRIMARY KEY,
  id   INTEGER NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS rm_digests (
  set_id INTEGER NOT NULL,
  digest BLOB NOT NULL,
  seq    INTEGER NOT NULL,
  tag    INTEGER NOT NULL,
  PRIMARY KEY (set_id, digest)
) WITHOUT ROWID;
-- A digest set's additions not yet merged into rm_digests, in the order they were recorded, by
-- generation (see DiskDigests).
CREATE TABLE IF NOT EXISTS rm_digest_log (
  set_id INTEGER NOT NULL,
  gen    INTEGER NOT NULL,
  n      INTEGER NOT NULL,
  digest BLOB NOT NULL,
  seq    INTEGER NOT NULL,
  tag    INTEGER NOT NULL,
  PRIMARY KEY (set_id, gen, n)
) WITHOUT ROWID;
`;

/**
 * The file's layout (`PRAGMA user_version`). A file of another one holds nothing that is kept: it is
 * emptied on open and every projection rebuilds from the ledger, as after a projection's version
 * change. 2: records clustered by (collection, order) with an index by key, and digest sets (issue
 * 19; 1, unversioned, clustered them by key). 3: digest sets with a log of recent additions.
 */
const FILE_FORMAT = 3;

/** Records kept in the heap between flushes, unless changed (default; `READ_MODEL_CACHE`). */
export const DEFAULT_CACHE_RECORDS = 20_000;

export interface ReadModelFileOptions {
  /** Records kept in the heap between flushes, unless changed (default DEFAULT_CACHE_RECORDS). */
  cacheRecords?: number;
  /** Told once, when SQLite first reports the file damaged (its `damage`). */
  onDamage?: (damage: ReadModelDamage) => void;
}

/** SQLite's page cache for the file, KiB (counts in the node's RSS). */
const SQLITE_CACHE_KIB = 32 * 1024;

/** What a projection stored: its version, checkpoint and aggregates (null: nothing stored). */
export interface StoredProjection {
  version: number;
  checkpoint: number;
  aggregates: Record<string, unknown>;
}

/** A projection's checkpoint and aggregates to write with a flush. */
export interface ProjectionFlush {
  name: string;
  version: number;
  checkpoint: number;
  aggregates: Record<string, unknown>;
}

const COLLECTION = Symbol('read-model collection');

/**
 * One collection's records: the cache (least recently used first), the records changed since the
 * last flush, deletions, and the order of keys added since then.
 */
export class DiskCollection<T = unknown> {
  readonly name: string;
  readonly #file: ReadModelFile;
  readonly cache = new Map<string, T>();
  /** Keys whose cached value must be written at the next flush. */
  readonly changed = new Set<string>();
  /** Keys to delete at the next flush (before any write of the same key). */
  readonly deleted = new Set<string>();
  /** Keys added since the last flush, with their order (a re-added key moves to the end). */
  readonly added = new Map<string, number>();
  /** Keys found absent since the last flush (and not set since): a fold's `x[k] ??= …` reads once. */
  readonly absent = new Set<string>();
  /**
   * Records given by `insertIfAbsent` since the last flush, with their order: written only where no
   * record of the key is stored, never read first and never cached (see `insertIfAbsent`).
   */
  readonly inserts = new Map<string, { value: T; ord: number }>();
  /**
   * The SHA-256 of the stored JSON of cached records, where known (read from the file, or written by
   * a flush): a record a fold only read (it is marked changed all the same) encodes to the same
   * text, and the flush then skips its write. A digest, not the text: the texts doubled the heap's
   * records (peak RSS 359 → 441 MiB replaying 300k). Dropped with the record from the cache.
   */
  readonly texts = new Map<string, string>();
  /**
   * Every record of the collection is in the cache (it was empty when opened, and nothing was
   * evicted since): a miss is an absence, with no read of the file. What makes a rebuild fast.
   */
  complete = false;
  readonly proxy: Record<string, T>;

  constructor(file: ReadModelFile, name: string) {
    this.#file = file;
    this.name = name;
    this.proxy = new Proxy({}, handlerFor(this));
  }

  get(key: string): T | undefined {
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      // Most recently used last: eviction takes from the front.
      this.cache.delete(key);
      this.cache.set(key, cached);
      if (this.#file.folding && typeof cached === 'object' && cached !== null) this.changed.add(key);
      return cached;
    }
    const inserted = this.inserts.get(key);
    if (inserted !== undefined) {
      // A stored record of the key wins over an insert not yet flushed (it was first).
      const text = this.complete ? undefined : this.#file.readValue(this.name, key);
      return text === undefined ? inserted.value : (JSON.parse(text) as T);
    }
    if (this.complete || this.absent.has(key) || (this.deleted.has(key) && !this.added.has(key)))
      return undefined;
    const text = this.#file.readValue(this.name, key);
    if (text === undefined) {
      if (this.#file.folding) this.absent.add(key);
      return undefined;
    }
    const value = JSON.parse(text) as T;
    this.cache.set(key, value);
    this.texts.set(key, digestOf(text));
    // A fold may update what it reads in place: keep it, and write it back at the flush.
    if (this.#file.folding && typeof value === 'object' && value !== null) this.changed.add(key);
    this.#file.cached(1);
    return value;
  }

  has(key: string): boolean {
    if (this.cache.has(key) || this.inserts.has(key)) return true;
    if (this.complete || this.absent.has(key) || (this.deleted.has(key) && !this.added.has(key)))
      return false;
    const found = this.#file.readValue(this.name, key) !== undefined;
    if (!found && this.#file.folding) this.absent.add(key);
    return found;
  }

  set(key: string, value: T): void {
    this.#file.assertFolding(this.name);
    if (value === undefined) throw new TypeError(`read model ${this.name}: undefined for ${key}`);
    // No look-up of the file: a key not in the cache gets a fresh order, which the flush uses only
    // if the row is new (an update keeps its row's first order), and `keys()` lists a stored key
    // where it is stored.
    if (!this.cache.has(key)) {
      if (!this.added.has(key)) this.added.set(key, this.#file.nextOrd(this.name));
      this.#file.cached(1);
    }
    this.absent.delete(key);
    this.inserts.delete(key);
    this.cache.delete(key);
    this.cache.set(key, value);
    this.changed.add(key);
  }

  /**
   * Records `value` under `key` unless a record of the key exists (stored, cached or inserted
   * before): the first one wins, as `if (!has(key)) set(key, value)` would — but with no read of the
   * file, the check is the flush's (`INSERT … ON CONFLICT DO NOTHING`), and the record takes no
   * room in the cache. For write-mostly indexes keyed by fresh ids (the ledger index's hashes, the
   * inquiries keyed by `ownedKey`), which a fold never reads back.
   */
  insertIfAbsent(key: string, value: T): void {
    this.#file.assertFolding(this.name);
    if (value === undefined) throw new TypeError(`read model ${this.name}: undefined for ${key}`);
    if (this.cache.has(key) || this.inserts.has(key)) return;
    if (this.deleted.has(key)) {
      // Deleted since the last flush: the stored record no longer counts.
      this.set(key, value);
      return;
    }
    this.inserts.set(key, { value, ord: this.#file.nextOrd(this.name) });
  }

  delete(key: string): boolean {
    this.#file.assertFolding(this.name);
    const had = this.has(key);
    if (this.cache.delete(key)) this.#file.cached(-1);
    this.texts.delete(key);
    this.inserts.delete(key);
    this.changed.delete(key);
    this.added.delete(key);
    this.absent.delete(key);
    this.deleted.add(key);
    return had;
  }

  /**
   * Every key in insertion order: the stored ones where they are stored (unless deleted since the
   * last flush), then those added since (a deleted and re-added key moves to the end).
   */
  keys(): string[] {
    return this.entries(false).map(([key]) => key);
  }

  /** Every record in insertion order, read in one pass (changed ones from the cache, as they are now). */
  entries(values = true): [string, T][] {
    const out: [string, T][] = [];
    const listed = new Set<string>();
    for (const [key, text] of this.#file.storedEntries(this.name, values)) {
      if (this.deleted.has(key)) continue;
      listed.add(key);
      const cached = this.cache.get(key);
      out.push([key, cached !== undefined || !values ? (cached as T) : (JSON.parse(text) as T)]);
    }
    // Those added since the last flush, set or inserted, in the order they were added.
    const fresh: [string, T, number][] = [];
    for (const [key, ord] of this.added) if (!listed.has(key)) fresh.push([key, this.cache.get(key)!, ord]);
    for (const [key, { value, ord }] of this.inserts) if (!listed.has(key)) fresh.push([key, value, ord]);
    if (this.inserts.size > 0) fresh.sort((a, b) => a[2] - b[2]);
    for (const [key, value] of fresh) out.push([key, value]);
    return out;
  }

  /**
   * The records whose key starts with `prefix`, in key order (code units: SQLite's byte order for
   * well-formed keys), read by one index range of the file — not the whole collection — and merged
   * with the changes since the last flush exactly as `entries()` merges them (changed ones from the
   * cache as they are now, deletions left out, sets and inserts added). What lets a collection keyed
   * `<owner>/<seq>` list one owner's records at the cost of that owner's records alone.
   */
  range(prefix: string): [string, T][] {
    const out: [string, T][] = [];
    const listed = new Set<string>();
    for (const [key, text] of this.#file.storedRange(this.name, prefix)) {
      listed.add(key);
      if (this.deleted.has(key) && !this.added.has(key)) continue;
      const cached = this.cache.get(key);
      out.push([key, cached !== undefined ? cached : (JSON.parse(text) as T)]);
    }
    for (const key of this.added.keys())
      if (!listed.has(key) && key.startsWith(prefix)) out.push([key, this.cache.get(key)!]);
    for (const [key, { value }] of this.inserts)
      if (!listed.has(key) && key.startsWith(prefix)) out.push([key, value]);
    return out.sort(byKey);
  }

  /** Drops unchanged records from the front of the cache until `keep` are left (or only changed ones). */
  evict(keep: number): number {
    let dropped = 0;
    for (const key of this.cache.keys()) {
      if (this.cache.size <= keep) break;
      if (this.changed.has(key)) continue;
      this.cache.delete(key);
      this.texts.delete(key);
      this.complete = false;
      dropped += 1;
    }
    return dropped;
  }

  /** Forgets everything in the heap (after the file's records were cleared). */
  reset(): void {
    this.cache.clear();
    this.changed.clear();
    this.deleted.clear();
    this.added.clear();
    this.absent.clear();
    this.inserts.clear();
    this.texts.clear();
  }
}

function handlerFor<T>(collection: DiskCollection<T>): ProxyHandler<Record<string, T>> {
  return {
    get: (_target, key) => {
      if (key === COLLECTION) return collection;
      return typeof key === 'string' ? collection.get(key) : undefined;
    },
    set: (_target, key, value: T) => {
      if (typeof key !== 'string') return false;
      collection.set(key, value);
      return true;
    },
    has: (_target, key) => typeof key === 'string' && collection.has(key),
    deleteProperty: (_target, key) => {
      if (typeof key === 'string') collection.delete(key);
      return true;
    },
    ownKeys: () => collection.keys(),
    getOwnPropertyDescriptor: (_target, key) => ownDescriptor(key, (k) => collection.get(k), true),
    defineProperty: (_target, key, descriptor) => {
      if (typeof key !== 'string' || !('value' in descriptor)) return false;
      collection.set(key, descriptor.value as T);
      return true;
    },
  };
}

/** A proxy's own-property descriptor of a stored value (undefined when the key has none). */
function ownDescriptor(
  key: string | symbol,
  get: (key: string) => unknown,
  writable: boolean,
): PropertyDescriptor | undefined {
  if (typeof key !== 'string') return undefined;
  const value = get(key);
  return value === undefined ? undefined : { value, writable, enumerable: true, configurable: true };
}

const LISTS = Symbol('append-only lists');

/**
 * Digits of the number in an owned key, `<owner>/<n, zero-padded>` (`ownedKey`): a list row's order
 * or an event's seq, so key order is numeric order up to 10^12.
 */
const OWNED_DIGITS = 12;

/**
 * Whether `key` is one of `owner`'s owned keys rather than those of an owner whose id extends this
 * one's past a `/` (`a/b`'s keys start with `a/` too, but are longer than `a/` + the digits).
 */
function ownedBy(key: string, owner: string): boolean {
  return key.length === owner.length + 1 + OWNED_DIGITS;
}

/**
 * Append-only lists by owner (an org's observation ids…), declared by `appendOnlyLists()` in a
 * projection's `init` and appended to by `appendTo` only. The heap form is a plain object of arrays;
 * on the file each owner's list is rows keyed `<owner>/<ord>` (ord: the collection's insertion
 * counter, so key order is append order), each row a JSON array of the values appended to that
 * owner between two flushes. A flush writes one new row per owner appended to since the last one —
 * the new tail, never the list — and an append reads nothing (issue 19: a list inside a record was
 * re-encoded and rewritten whole at each flush that touched it). Reading an owner's list is one key
 * range of the file plus the tail not yet flushed, kept in a cache (counted in the file's budget,
 * least recently used evicted first) that appends extend, so a hot list is read from the heap as the
 * record holding it was. Like every read model outside its fold, a list read is not to be changed.
 * Owners are listed in the order of their first append, as the plain object's keys are.
 */
export class DiskLists<T = unknown> {
  readonly name: string;
  readonly #file: ReadModelFile;
  /** Values appended since the last flush, by owner in the order of each owner's first append. */
  readonly pending = new Map<string, T[]>();
  /** Whole lists read since, least recently used first, kept whole by `append`. */
  readonly cache = new Map<string, T[]>();
  /** For a cached list: its first stored row's key (once stored) and how many rows it has. */
  readonly shape = new Map<string, { first: string | null; rows: number }>();
  /**
   * A cached list of more rows than this is compacted by the next flush into its first row (same
   * key, same order): a list built live has a row per flush that appended to it, and reading it
   * cold costs a row each (10,000 rows: ~40 ms, where one row of the same ids parses in ~2 ms).
   */
  compactAbove = 32;
  readonly proxy: Record<string, T[]>;

  constructor(file: ReadModelFile, name: string) {
    this.#file = file;
    this.name = name;
    this.proxy = new Proxy({}, listsHandlerFor(this));
  }

  append(owner: string, value: T): void {
    this.#file.assertFolding(this.name);
    if (value === undefined) throw new TypeError(`read model ${this.name}: undefined for ${owner}`);
    const tail = this.pending.get(owner);
    if (tail) tail.push(value);
    else this.pending.set(owner, [value]);
    this.cache.get(owner)?.push(value);
  }

  /** The owner's list (stored rows in order, then the unflushed tail), undefined when it has none. */
  get(owner: string): T[] | undefined {
    const cached = this.cache.get(owner);
    if (cached) {
      // Most recently used last: eviction takes from the front.
      this.cache.delete(owner);
      this.cache.set(owner, cached);
      return cached;
    }
    const prefix = `${owner}/`;
    let list: T[] | undefined;
    let first: string | null = null;
    let rows = 0;
    for (const [key, text] of this.#file.storedRange(this.name, prefix)) {
      if (!ownedBy(key, owner)) continue;
      const values = JSON.parse(text) as T[];
      if (list) for (const v of values) list.push(v);
      else list = values;
      first ??= key;
      rows += 1;
    }
    const tail = this.pending.get(owner);
    if (tail) list = list ? list.concat(tail) : [...tail];
    if (list) {
      this.cache.set(owner, list);
      this.shape.set(owner, { first, rows });
      this.#file.cached(1);
    }
    return list;
  }

  /** Drops lists from the front of the cache until `keep` are left. */
  evict(keep: number): void {
    for (const owner of this.cache.keys()) {
      if (this.cache.size <= keep) break;
      this.cache.delete(owner);
      this.shape.delete(owner);
    }
  }

  /** Forgets the cached lists (after a clear of the file, or a flush rolled back). */
  reset(): number {
    const dropped = this.cache.size;
    this.cache.clear();
    this.shape.clear();
    return dropped;
  }

  has(owner: string): boolean {
    return this.pending.has(owner) || this.get(owner) !== undefined;
  }

  /** Owners in the order of their first append: stored ones by their first row, then new ones. */
  keys(): string[] {
    const owners = new Set<string>();
    for (const [key] of this.#file.storedEntries(this.name, false))
      owners.add(key.slice(0, -OWNED_DIGITS - 1));
    for (const owner of this.pending.keys()) owners.add(owner);
    return [...owners];
  }

  /**
   * What a flush writes: for each owner appended to, a row of the new values keyed with a fresh
   * order (in append order); for a cached list of too many rows, the whole list into its first row
   * (`compact`: the others are deleted).
   */
  writes(): ListWrite[] {
    const out: ListWrite[] = [];
    for (const [owner, shape] of this.shape)
      if (shape.first !== null && shape.rows + (this.pending.has(owner) ? 1 : 0) > this.compactAbove) {
        out.push({ kind: 'compact', owner, key: shape.first, text: JSON.stringify(this.cache.get(owner)) });
        shape.rows = 1;
      }
    for (const [owner, values] of this.pending) {
      const shape = this.shape.get(owner);
      if (shape?.rows === 1 && out.some((w) => w.kind === 'compact' && w.owner === owner)) continue;
      const ord = this.#file.nextOrd(this.name);
      const key = ownedKey(owner, ord);
      out.push({ kind: 'append', owner, key, ord, text: JSON.stringify(values) });
      if (shape) {
        shape.first ??= key;
        shape.rows += 1;
      }
    }
    return out;
  }
}

type ListWrite =
  | { kind: 'append'; owner: string; key: string; ord: number; text: string }
  | { kind: 'compact'; owner: string; key: string; text: string };

/** The last key an owner's list rows can have (`<owner>/` and the digits): a compaction's bound. */
function lastListKey(owner: string): string {
  return `${owner}/${'9'.repeat(OWNED_DIGITS)}`;
}

function listsHandlerFor<T>(lists: DiskLists<T>): ProxyHandler<Record<string, T[]>> {
  const appendOnly = (): never => {
    throw new TypeError(`read model ${lists.name}: an append-only list; appendTo adds to it`);
  };
  return {
    get: (_target, key) => {
      if (key === LISTS) return lists;
      return typeof key === 'string' ? lists.get(key) : undefined;
    },
    set: appendOnly,
    deleteProperty: appendOnly,
    defineProperty: appendOnly,
    has: (_target, key) => typeof key === 'string' && lists.has(key),
    ownKeys: () => lists.keys(),
    getOwnPropertyDescriptor: (_target, key) => ownDescriptor(key, (k) => lists.get(k), false),
  };
}

/**
 * A projection's `init` gives this for a field of append-only lists by owner: an empty plain object
 * (the heap form), which the file keeps as `DiskLists` — each flush writes only what was appended.
 */
export function appendOnlyLists<T>(): Record<string, T[]> {
  const lists: Record<string, T[]> = {};
  Object.defineProperty(lists, LISTS, { value: true, enumerable: false });
  return lists;
}

/**
 * Appends `value` to `owner`'s list of an `appendOnlyLists()` field: on the file nothing is read
 * and the flush writes only the new tail; in the heap form a push.
 */
export function appendTo<T>(lists: Record<string, T[]>, owner: string, value: T): void {
  const disk = (lists as Record<symbol, unknown>)[LISTS];
  if (disk instanceof DiskLists) (disk as DiskLists<T>).append(owner, value);
  else if (Object.hasOwn(lists, owner)) lists[owner]!.push(value);
  else lists[owner] = [value];
}

/** The disk collection behind a read-model record map, if it is one. */
export function collectionOf<T>(record: Record<string, T>): DiskCollection<T> | undefined {
  return (record as Record<symbol, unknown>)[COLLECTION] as DiskCollection<T> | undefined;
}

/**
 * `Object.values` / `Object.entries` / `Object.keys` for a read-model collection: one read of the
 * file in key order instead of a lookup per key. Plain objects pass straight through.
 */
export function valuesOf<T>(record: Record<string, T>): T[] {
  const disk = collectionOf(record);
  return disk ? disk.entries().map(([, value]) => value) : Object.values(record);
}

export function entriesOf<T>(record: Record<string, T>): [string, T][] {
  const disk = collectionOf(record);
  return disk ? disk.entries() : Object.entries(record);
}

/**
 * The entries of a read-model collection whose key starts with `prefix`, in key order (code units):
 * one index range of the file for a disk collection (`DiskCollection.range`), a filter of a plain
 * object's keys in the heap form (tests, snapshots) — the same entries either way.
 */
export function entriesWithPrefix<T>(record: Record<string, T>, prefix: string): [string, T][] {
  const disk = collectionOf(record);
  if (disk) return disk.range(prefix);
  const out: [string, T][] = [];
  for (const key of Object.keys(record)) if (key.startsWith(prefix)) out.push([key, record[key]!]);
  return out.sort(byKey);
}

/**
 * The key of an owner's record of the event at `seq` in a per-event collection (and of a list row,
 * by its order): `<owner>/<n, zero-padded>`. Records that grow with an owner's history (an entity's inquiries) are such a
 * collection, not an array inside the owner's record: a record changed by a fold is rewritten whole
 * at the next flush, so an array there would make each addition cost the whole history (issue 19).
 * (A list of ids is simpler as `appendOnlyLists`, which writes one row per owner per flush.)
 */
export function ownedKey(owner: string, seq: number): string {
  return `${owner}/${String(seq).padStart(OWNED_DIGITS, '0')}`;
}

/**
 * One owner's records of a per-event collection (keyed by `ownedKey`), in ledger order: one key
 * range of the file (`entriesWithPrefix`), without those of owners whose ids extend this one's.
 */
export function ownedValues<T>(records: Record<string, T>, owner: string): T[] {
  const out: T[] = [];
  for (const [key, value] of entriesWithPrefix(records, `${owner}/`))
    if (ownedBy(key, owner)) out.push(value);
  return out;
}

export function keysOf(record: Record<string, unknown>): string[] {
  const disk = collectionOf(record);
  return disk ? disk.keys() : Object.keys(record);
}

/** Another live process folds into this read-model file (one writer per file: see `ReadModelFile.own`). */
export class ReadModelFileBusy extends Error {
  constructor(
    readonly path: string,
    readonly pid: number,
  ) {
    super(`the read models at ${path} are kept by another live process (pid ${pid}); stop it first`);
    this.name = 'ReadModelFileBusy';
  }
}

/**
 * Takes `<path>.owner` for this process: created exclusively with our pid, or taken over when the
 * pid in it is no longer alive (a killed process). Two folds writing one file would interleave
 * records of different prefixes, so a second live owner is refused.
 */
function takeOwnership(path: string): string {
  const lock = `${path}.owner`;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const fd = openSync(lock, 'wx', PRIVATE_FILE_MODE);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return lock;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(lock, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid))
        throw new ReadModelFileBusy(path, pid);
      // Ours (an earlier handle of this process that was never closed) or a dead process's.
      rmSync(lock, { force: true });
    }
  }
  throw new Error(`could not take ${lock}`);
}

/** The pid of another live process keeping the file at `path` (its `.owner`), or null. */
export function liveOwnerOf(path: string): number | null {
  const lock = `${path}.owner`;
  if (!existsSync(lock)) return null;
  const pid = Number(readFileSync(lock, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The highest checkpoint stored in a read-model file, read without owning it (0: no file or none). */
export function storedCheckpointOf(path: string): number {
  if (!existsSync(path)) return 0;
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const table = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'rm_projections'")
      .get();
    if (table === undefined) return 0;
    return db.prepare<[], number | null>('SELECT MAX(checkpoint) FROM rm_projections').pluck().get() ?? 0;
  } finally {
    db.close();
  }
}

/** A lower-case 64-hex SHA-256 digest: the only keys a digest set holds. */
const DIGEST_HEX = /^[0-9a-f]{64}$/;

/** Where a digest set's digest was first recorded: a seq and a small tag (the caller's kind). */
export interface DigestEntry {
  seq: number;
  tag: number;
}

/**
 * Additions a digest set keeps in its log before they are merged into the set's B-tree (one
 * generation), and the flushes a generation's merge is spread over.
 */
export const DIGEST_LOG_GENERATION = 65_536;
export const DIGEST_MERGE_SLICES = 8;

/**
 * One generation of a digest set's log: its entries in the heap (the table, insertion order = the
 * rows' `n`) and, once it is being merged, their digest order and how far the merge has gone.
 */
export interface DigestGeneration {
  gen: number;
  table: DigestTable;
  order: number[] | null;
  merged: number;
}

function newGeneration(gen: number): DigestGeneration {
  return { gen, table: new DigestTable(1024), order: null, merged: 0 };
}

/** Whether a generation of the log holds the digest at `digests[at…at+32)`. */
function loggedIn(generations: readonly DigestGeneration[], digests: Uint8Array, at: number): boolean {
  return generations.some((g) => g.table.hasBytes(digests, at));
}

/**
 * A set of SHA-256 digests → (seq, tag), for the indexes with an entry per event (the ledger
 * index's event and artifact hashes). They are the file's largest collections and the worst for a
 * B-tree: keys at random, so each flush of a catch-up touched nearly every page of them, and as
 * JSON records each entry cost ~200 bytes of table and order index (a 64-character key, the
 * collection's name, an order) — 41 % of a 300k-event replay's CPU and most of its writes. Here an
 * entry is its 32 bytes as a BLOB key, a seq and a tag (~45 bytes), with no order kept: a set is
 * only ever looked up, never listed. The first recording of a digest wins, as in the heap's table.
 * Additions wait for the next flush in a `DigestTable` (~45 bytes each in typed arrays, so two
 * count as one record toward a catch-up's flush).
 *
 * A live node's flush adds a few thousand digests a second, each to a different page of the
 * B-tree: at ~1,300 scores/s on the 100k bench ledger that rewrote ~1,100 16 KiB pages a flush
 * (~18 MB a second; the flush took a median 80 ms on the service's thread). So a flush with
 * fewer additions than a merge's slice (a live node's) appends them to the set's log
 * (`rm_digest_log`, in recording order: a few pages), and the log is merged into the B-tree a
 * generation at a time (`DIGEST_LOG_GENERATION` entries), in digest order, an eighth of it per
 * flush: each page of the B-tree is then written once per generation, not once per few digests.
 * A larger batch (a catch-up's) is as dense as a slice and goes straight in. The log's generations
 * are also held in the heap (typed arrays, read back on first use after a start), so a look-up
 * never searches the log on disk: the B-tree first, then the generations oldest first, then the
 * pending additions — each older than the next, so the first recording still wins.
 */
export class DiskDigests {
  readonly name: string;
  readonly #file: ReadModelFile;
  /** Added since the last flush; the first addition of a digest wins. */
  pending = new DigestTable(64);
  /** The log's generations, oldest first; null until read from the file. */
  #generations: DigestGeneration[] | null = null;

  constructor(file: ReadModelFile, name: string) {
    this.#file = file;
    this.name = name;
  }

  /** Where `hex` was first recorded, or undefined (also for anything not a lower-case 64-hex digest). */
  get(hex: string): DigestEntry | undefined {
    if (!DIGEST_HEX.test(hex)) return undefined;
    // A stored entry wins over an addition not yet flushed: it was first.
    const stored = this.#file.readDigest(this.name, hex);
    if (stored !== undefined) return stored;
    for (const g of this.generations()) {
      const at = g.table.get(hex);
      if (at >= 0) return { seq: g.table.seqs[at]!, tag: g.table.tags[at]! };
    }
    const at = this.pending.get(hex);
    return at < 0 ? undefined : { seq: this.pending.seqs[at]!, tag: this.pending.tags[at]! };
  }

  /** Records `hex` unless recorded before; false (nothing recorded) when it is not a digest. */
  insertIfAbsent(hex: string, seq: number, tag: number): boolean {
    this.#file.assertFolding(this.name);
    return this.pending.add(hex, seq, () => tag);
  }

  /** Whether the log has been read from the file since it was opened (or last forgotten). */
  get logRead(): boolean {
    return this.#generations !== null;
  }

  /**
   * The log's generations (oldest first), read from the file on first use: ~2 µs an entry, so up
   * to ~0.3 s for a set whose two generations are near full, paid once, at the first look-up or
   * the first flush with additions after a start — not by a start with nothing to fold.
   */
  generations(): DigestGeneration[] {
    return (this.#generations ??= this.#file.readDigestLog(this.name));
  }

  /** Forgets the additions (written by a flush, or cleared with the projection). */
  reset(): void {
    if (this.pending.count > 0) this.pending = new DigestTable(64);
  }

  /** Forgets the heap's copy of the log: read again from the file on next use (after a rollback, a clear). */
  forgetLog(): void {
    this.#generations = null;
  }
}

/** The read-model file: records, projections' checkpoints, the cache budget and the flush. */
export class ReadModelFile {
  readonly #db: Db;
  readonly #cacheRecords: number;
  readonly #collections = new Map<string, DiskCollection<unknown>>();
  readonly #lists = new Map<string, DiskLists<unknown>>();
  readonly #digests = new Map<string, DiskDigests>();
  /** Digest set name → its id in `rm_digests` (assigned once, kept in `rm_digest_sets`). */
  readonly #digestSetIds = new Map<string, number>();
  readonly #ords = new Map<string, number>();
  #cachedCount = 0;
  /** True while the runtime folds an event: only then may states change. */
  folding = false;
  /**
   * Reads of the file (cache misses), records written and their JSON's length, flushes: for probes
   * of the cache and of what a flush costs (nothing exports them yet).
   */
  readonly stats = { reads: 0, writes: 0, bytes: 0, flushes: 0 };
  readonly #get: Statement<[string, string], string>;
  readonly #keys: Statement<[string], string>;
  readonly #entries: Statement<[string], [string, string]>;
  readonly #from: Statement<[string, string], [string, string]>;
  readonly #put: Statement<[string, string, number, string]>;
  readonly #del: Statement<[string, string]>;
  readonly #delListRows: Statement<[string, string, string, number]>;
  readonly #insert: Statement<[string, string, number, string]>;
  readonly #upsertProjection: Statement<[string, number, number, string]>;
  /** The cache size above which the next trim runs (see `cached`). */
  #trimAbove: number;
  readonly #maxOrd: Statement<[string], number | null>;
  readonly #getDigest: Statement<[number, Buffer], DigestEntry>;
  readonly #putDigest: Statement<[number, Uint8Array, number, number]>;
  readonly #digestSetIdOf: Statement<[string], number>;
  readonly #putLogged: Statement<[number, number, number, Uint8Array, number, number]>;
  readonly #readLog: Statement<[number], [number, Buffer, number, number]>;
  readonly #dropGeneration: Statement<[number, number]>;

  readonly #lock: string | null;
  readonly #path: string;
  #damage: ReadModelDamage | null = null;
  readonly #onDamage: ((damage: ReadModelDamage) => void) | undefined;

  /**
   * Opens (creating) the file at `path` for this process to fold into; ReadModelFileBusy when a
   * live process already does. `:memory:` gives a private file (tests). `onDamage` is told once,
   * when SQLite first finds the file damaged (see `damage`).
   */
  static own(path: string, opts: ReadModelFileOptions = {}): ReadModelFile {
    const lock = path === ':memory:' ? null : takeOwnership(path);
    try {
      return new ReadModelFile(path, lock, opts);
    } catch (error) {
      if (lock) rmSync(lock, { force: true });
      throw error;
    }
  }

  private constructor(path: string, lock: string | null, opts: ReadModelFileOptions) {
    this.#lock = lock;
    this.#path = path;
    this.#onDamage = opts.onDamage;
    preparePrivateDatabase(path);
    this.#db = new Database(path);
    // A new file's pages (before WAL and the schema: only then does it take): 16 KiB instead of
    // 4 KiB made a 100k-event replay ~20% cheaper (records of 1–2 KB, fewer splits and page writes).
    this.#db.pragma('page_size = 16384');
    this.#db.pragma('journal_mode = WAL');
    // A crash may lose the last flushes (never corrupt one): the checkpoints go with the records,
    // and the next start replays from them. Power-loss durability is the ledger's job, not this file's.
    this.#db.pragma('synchronous = NORMAL');
    if (this.#db.pragma('user_version', { simple: true }) !== FILE_FORMAT)
      this.#db.transaction(() => {
        for (const table of ['rm_records', 'rm_projections', 'rm_digests', 'rm_digest_sets', 'rm_digest_log'])
          this.#db.exec(`DROP TABLE IF EXISTS ${table}`);
        this.#db.exec(SCHEMA);
        this.#db.pragma(`user_version = ${FILE_FORMAT}`);
      })();
    this.#db.exec(SCHEMA);
    // SQLite's own page cache (default 2 MiB): the records' B-trees are written at random keys
    // (hashes, ids), so a larger one keeps the pages a flush touches from being read again (a
    // 100k-event replay: 12.9 CPU-s with 2 MiB, 9.6 with 16 MiB, 8.3 with 64 MiB, one busy run each).
    this.#db.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
    this.#cacheRecords = opts.cacheRecords ?? DEFAULT_CACHE_RECORDS;
    this.#trimAbove = this.#cacheRecords * 1.25;
    this.#get = this.#db
      .prepare<[string, string], string>('SELECT value FROM rm_records WHERE coll = ? AND key = ?')
      .pluck();
    this.#keys = this.#db
      .prepare<[string], string>('SELECT key FROM rm_records WHERE coll = ? ORDER BY ord')
      .pluck();
    this.#entries = this.#db
      .prepare<[string], [string, string]>('SELECT key, value FROM rm_records WHERE coll = ? ORDER BY ord')
      .raw();
    this.#from = this.#db
      .prepare<[string, string], [string, string]>(
        'SELECT key, value FROM rm_records WHERE coll = ? AND key >= ? ORDER BY key',
      )
      .raw();
    this.#put = this.#db.prepare(
      `INSERT INTO rm_records (coll, key, ord, value) VALUES (?, ?, ?, ?)
       ON CONFLICT(coll, key) DO UPDATE SET value = excluded.value`,
    );
    this.#del = this.#db.prepare('DELETE FROM rm_records WHERE coll = ? AND key = ?');
    // One owner's list rows after its first: `<owner>/` + digits, so of the first row's length.
    this.#delListRows = this.#db.prepare(
      'DELETE FROM rm_records WHERE coll = ? AND key > ? AND key <= ? AND length(key) = ?',
    );
    this.#insert = this.#db.prepare(
      'INSERT INTO rm_records (coll, key, ord, value) VALUES (?, ?, ?, ?) ON CONFLICT(coll, key) DO NOTHING',
    );
    this.#upsertProjection = this.#db.prepare(
      `INSERT INTO rm_projections (name, version, checkpoint, aggregates) VALUES (?, ?, ?, ?)
       ON CONFLICT(name) DO UPDATE SET version = excluded.version, checkpoint = excluded.checkpoint,
         aggregates = excluded.aggregates`,
    );
    this.#maxOrd = this.#db
      .prepare<[string], number | null>('SELECT MAX(ord) FROM rm_records WHERE coll = ?')
      .pluck();
    this.#getDigest = this.#db.prepare<[number, Buffer], DigestEntry>(
      'SELECT seq, tag FROM rm_digests WHERE set_id = ? AND digest = ?',
    );
    this.#digestSetIdOf = this.#db
      .prepare<[string], number>('SELECT id FROM rm_digest_sets WHERE name = ?')
      .pluck();
    this.#putDigest = this.#db.prepare(
      'INSERT INTO rm_digests (set_id, digest, seq, tag) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
    );
    this.#putLogged = this.#db.prepare(
      'INSERT INTO rm_digest_log (set_id, gen, n, digest, seq, tag) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.#readLog = this.#db
      .prepare<[number], [number, Buffer, number, number]>(
        'SELECT gen, digest, seq, tag FROM rm_digest_log WHERE set_id = ? ORDER BY gen, n',
      )
      .raw();
    this.#dropGeneration = this.#db.prepare('DELETE FROM rm_digest_log WHERE set_id = ? AND gen = ?');
  }

  /** The collection `name` (`<projection>.<field>`), one object per name. */
  collection<T>(name: string): DiskCollection<T> {
    let c = this.#collections.get(name);
    if (!c) {
      c = new DiskCollection(this, name);
      c.complete = this.#sql(() => this.#maxOrd.get(name)) === null;
      this.#collections.set(name, c);
    }
    return c as DiskCollection<T>;
  }

  /** The append-only lists `name` (`<projection>.<field>`), one object per name. */
  lists<T>(name: string): DiskLists<T> {
    let l = this.#lists.get(name);
    if (!l) {
      l = new DiskLists(this, name);
      this.#lists.set(name, l);
    }
    return l as DiskLists<T>;
  }

  /** The digest set `name` (`<projection>.<field>`), one object per name. */
  digests(name: string): DiskDigests {
    let d = this.#digests.get(name);
    if (!d) {
      d = new DiskDigests(this, name);
      this.#digests.set(name, d);
    }
    return d;
  }

  stored(name: string): StoredProjection | null {
    const row = this.#sql(() =>
      this.#db
        .prepare<[string], { version: number; checkpoint: number; aggregates: string }>(
          'SELECT version, checkpoint, aggregates FROM rm_projections WHERE name = ?',
        )
        .get(name),
    );
    return row
      ? {
          version: row.version,
          checkpoint: row.checkpoint,
          aggregates: JSON.parse(row.aggregates) as Record<string, unknown>,
        }
      : null;
  }

  /** The highest checkpoint any projection was stored at (0 when none): the ledger must reach it. */
  maxCheckpoint(): number {
    return this.#sql(
      () =>
        this.#db.prepare<[], number | null>('SELECT MAX(checkpoint) FROM rm_projections').pluck().get() ?? 0,
    );
  }

  /** Deletes a projection's records and checkpoint (its collections are named `<projection>.…`). */
  clear(projection: string): void {
    this.#refuseWritesWhenDamaged();
    const clear = this.#db.transaction(() => {
      this.#db
        .prepare('DELETE FROM rm_records WHERE coll >= ? AND coll < ?')
        .run(`${projection}.`, `${projection}/`);
      this.#db
        .prepare(
          'DELETE FROM rm_digests WHERE set_id IN (SELECT id FROM rm_digest_sets WHERE name >= ? AND name < ?)',
        )
        .run(`${projection}.`, `${projection}/`);
      this.#db
        .prepare(
          'DELETE FROM rm_digest_log WHERE set_id IN (SELECT id FROM rm_digest_sets WHERE name >= ? AND name < ?)',
        )
        .run(`${projection}.`, `${projection}/`);
      this.#db.prepare('DELETE FROM rm_projections WHERE name = ?').run(projection);
    });
    this.#sql(() => clear());
    for (const [name, d] of this.#digests)
      if (name.startsWith(`${projection}.`)) {
        d.reset();
        d.forgetLog();
      }
    for (const [name, c] of this.#collections)
      if (name.startsWith(`${projection}.`)) {
        this.#cachedCount -= c.cache.size;
        c.reset();
        c.complete = true;
        this.#ords.set(name, 0);
      }
    for (const [name, l] of this.#lists)
      if (name.startsWith(`${projection}.`)) {
        this.#cachedCount -= l.reset();
        l.pending.clear();
        this.#ords.set(name, 0);
      }
  }

  /** Writes every changed record and each projection's checkpoint and aggregates, in one transaction. */
  flush(projections: readonly ProjectionFlush[]): void {
    this.#refuseWritesWhenDamaged();
    const upsert = this.#upsertProjection;
    const write = this.#db.transaction(() => {
      for (const c of this.#collections.values()) {
        for (const key of c.deleted) this.#del.run(c.name, key);
        // In key order: the B-tree's pages are then visited once each, in order, instead of at
        // random (ids and hashes), which matters once the file outgrows SQLite's page cache.
        for (const key of sortedKeys(c.changed)) {
          const text = JSON.stringify(c.cache.get(key));
          const digest = digestOf(text);
          // Only read by the fold (a draw a later draw sums, a document a signature checks): as stored.
          if (c.texts.get(key) === digest) continue;
          // `ord` only counts for a new row; an update keeps the row's first one.
          this.#put.run(c.name, key, c.added.get(key) ?? 0, text);
          c.texts.set(key, digest);
          this.stats.writes += 1;
          this.stats.bytes += text.length;
        }
        for (const key of sortedKeys(c.inserts.keys())) {
          const { value, ord } = c.inserts.get(key)!;
          const text = JSON.stringify(value);
          this.#insert.run(c.name, key, ord, text);
          this.stats.bytes += text.length;
        }
        this.stats.writes += c.inserts.size;
      }
      for (const l of this.#lists.values())
        for (const w of l.writes()) {
          if (w.kind === 'append') this.#insert.run(l.name, w.key, w.ord, w.text);
          else {
            // Into the first row (an update keeps its order), then the owner's other rows go.
            this.#put.run(l.name, w.key, 0, w.text);
            this.#delListRows.run(l.name, w.key, lastListKey(w.owner), w.key.length);
          }
          this.stats.writes += 1;
          this.stats.bytes += w.text.length;
        }
      for (const d of this.#digests.values()) this.#flushDigests(d);
      for (const p of projections) upsert.run(p.name, p.version, p.checkpoint, JSON.stringify(p.aggregates));
    });
    try {
      this.#sql(() => write());
    } catch (error) {
      // Rolled back: the texts taken as stored during it are not, nor the lists' rows, nor a digest
      // set id it assigned (its additions stay pending).
      for (const c of this.#collections.values()) c.texts.clear();
      for (const l of this.#lists.values()) this.#cachedCount -= l.reset();
      this.#digestSetIds.clear();
      // The heap's log may hold what the rollback undid, or miss a generation it dropped: read again.
      for (const d of this.#digests.values()) d.forgetLog();
      throw error;
    }
    for (const c of this.#collections.values()) {
      c.changed.clear();
      c.deleted.clear();
      c.added.clear();
      c.absent.clear();
      // Inserted records are written, not cached: the cache no longer holds every record.
      if (c.inserts.size > 0) c.complete = false;
      c.inserts.clear();
    }
    for (const l of this.#lists.values()) l.pending.clear();
    for (const d of this.#digests.values()) d.reset();
    this.stats.flushes += 1;
    this.#trim();
  }

  /**
   * The damage SQLite reported in this file since it was opened, or null. Once damaged, the file
   * takes no more writes (a flush or a clear throws ReadModelsDamaged: it is set aside, kept as
   * found, at the next start); reads go on, and one that meets the damage throws ReadModelsDamaged.
   */
  get damage(): ReadModelDamage | null {
    return this.#damage;
  }

  /** Runs a statement; SQLite's corruption errors become ReadModelsDamaged (and are recorded). */
  #sql<T>(run: () => T): T {
    try {
      return run();
    } catch (error) {
      throw this.#damaged(error);
    }
  }

  /**
   * `error` as it should be thrown: a corruption error is recorded as the file's damage the first
   * time (with a marker beside the file, so the next start sets it aside; the owner is told) and
   * becomes ReadModelsDamaged; any other error is itself.
   */
  #damaged(error: unknown): unknown {
    if (!isCorruption(error) || error instanceof ReadModelsDamaged) return error;
    if (this.#damage === null) {
      const code = String((error as { code?: unknown }).code);
      this.#damage = {
        path: this.#path,
        code,
        reason: (error as Error).message,
        detected_at: new Date().toISOString(),
      };
      // Before anyone is told: the marker is what makes a plain restart rebuild the file. Should it
      // fail (a full disk), the owner is told all the same, and the next start meets the damage again.
      if (this.#path !== ':memory:')
        try {
          markDamaged(this.#damage);
        } catch {
          /* see above */
        }
      this.#onDamage?.(this.#damage);
    }
    return new ReadModelsDamaged(this.#damage, { cause: error });
  }

  #refuseWritesWhenDamaged(): void {
    if (this.#damage !== null) throw new ReadModelsDamaged(this.#damage);
  }

  /** Whether anything changed since the last flush. */
  get dirty(): boolean {
    for (const c of this.#collections.values())
      if (c.changed.size > 0 || c.deleted.size > 0 || c.inserts.size > 0) return true;
    for (const l of this.#lists.values()) if (l.pending.size > 0) return true;
    for (const d of this.#digests.values()) if (d.pending.count > 0) return true;
    return false;
  }

  /**
   * How many records a flush would write now: every record set or read (and so perhaps updated) by
   * a fold since the last flush, and every insert. What the heap holds that no trim can drop, which
   * a long catch-up flushes by.
   */
  get pendingRecords(): number {
    let n = 0;
    for (const c of this.#collections.values()) n += c.changed.size + c.inserts.size;
    // A list's tail is one row per owner, however many values it holds.
    for (const l of this.#lists.values()) n += l.pending.size;
    // A digest set's addition is ~45 bytes in typed arrays, far less than a record's objects: two
    // count as one. Counted as one each, a 1M catch-up flushed 59 times (each rewriting the sets'
    // and the key index's random pages: 11 GB written, 52 CPU-s); two for one, 43 flushes and
    // 47.5 CPU-s at the same peak RSS (~400 MiB); fewer flushes still (1/32: 28) cost ~70 MiB of
    // peak RSS, the records that then wait longer, for 1 CPU-s more saved.
    for (const d of this.#digests.values()) n += Math.ceil(d.pending.count / 2);
    return n;
  }

  /** Records in the heap now (cached, changed or not). */
  get cachedRecords(): number {
    return this.#cachedCount;
  }

  get open(): boolean {
    return this.#db.open;
  }

  close(): void {
    if (this.#db.open) this.#db.close();
    if (this.#lock) rmSync(this.#lock, { force: true });
  }

  // ——— for DiskCollection ———

  readValue(coll: string, key: string): string | undefined {
    this.stats.reads += 1;
    return this.#sql(() => this.#get.get(coll, key));
  }

  /** A collection's stored rows in order: [key, value text] (the text empty when not asked for). */
  *storedEntries(coll: string, values: boolean): IterableIterator<[string, string]> {
    try {
      if (values) yield* this.#entries.iterate(coll);
      else for (const key of this.#keys.iterate(coll)) yield [key, ''];
    } catch (error) {
      throw this.#damaged(error);
    }
  }

  /**
   * A collection's stored rows whose key starts with `prefix`, in key order: the primary key's range
   * from `prefix` on, left at the first key past it (keys with a prefix are contiguous in byte order,
   * so no upper bound has to be computed from the prefix's last character).
   */
  *storedRange(coll: string, prefix: string): IterableIterator<[string, string]> {
    this.stats.reads += 1;
    try {
      for (const row of this.#from.iterate(coll, prefix)) {
        if (!row[0].startsWith(prefix)) return;
        yield row;
      }
    } catch (error) {
      throw this.#damaged(error);
    }
  }

  readDigest(set: string, hex: string): DigestEntry | undefined {
    const id = this.#digestSetIds.get(set) ?? this.#storedDigestSetId(set);
    if (id === undefined) return undefined;
    this.stats.reads += 1;
    return this.#sql(() => this.#getDigest.get(id, Buffer.from(hex, 'hex')));
  }

  /** A digest set's log as stored, by generation, oldest first (see `DiskDigests`). */
  readDigestLog(set: string): DigestGeneration[] {
    const id = this.#digestSetIds.get(set) ?? this.#storedDigestSetId(set);
    if (id === undefined) return [];
    const generations: DigestGeneration[] = [];
    this.#sql(() => {
      for (const [gen, digest, seq, tag] of this.#readLog.iterate(id)) {
        let g = generations.at(-1);
        if (g?.gen !== gen) generations.push((g = newGeneration(gen)));
        g.table.addBytes(digest, 0, seq, tag);
      }
    });
    // Every generation but the newest was being merged (a full newest one is due to be): a merge
    // interrupted by a restart starts again from its first slice, which writes nothing twice.
    for (const [i, g] of generations.entries())
      if (i < generations.length - 1 || g.table.count >= DIGEST_LOG_GENERATION)
        g.order = g.table.inDigestOrder();
    return generations;
  }

  /**
   * A digest set's part of a flush (inside its transaction; `DiskDigests` says why): a batch of at
   * least a slice straight into the B-tree, a smaller one appended to the log's newest generation;
   * then a slice of the oldest generation under merge, in digest order. A rollback makes the set
   * read its log again (`forgetLog`).
   */
  #flushDigests(d: DiskDigests): void {
    const added = d.pending;
    // Nothing to add, and no merge under way that this process knows of (one left by an earlier
    // process goes on with the first flush that adds).
    if (added.count === 0 && !d.logRead) return;
    const generations = d.generations();
    if (added.count === 0 && generations.every((g) => g.order === null)) return;
    const set = this.#digestSetId(d.name);
    if (added.count >= DIGEST_LOG_GENERATION / DIGEST_MERGE_SLICES) {
      // As many as a merge's slice, so as dense a write: in digest order, as the B-tree holds them
      // (see the collections above). One the log holds was recorded first there, and goes to the
      // B-tree with the log's merge, not from here.
      for (const i of added.inDigestOrder()) {
        if (loggedIn(generations, added.digests, i * DIGEST_BYTES)) continue;
        this.#putDigest.run(set, added.digestAt(i), added.seqs[i]!, added.tags[i]!);
        this.stats.writes += 1;
        this.stats.bytes += DIGEST_BYTES;
      }
      this.#mergeDigests(set, generations, 1);
      return;
    }
    for (let i = 0; i < added.count; i += 1) {
      const at = i * DIGEST_BYTES;
      // Recorded already in the log: that entry was first (the B-tree's are older still).
      if (loggedIn(generations, added.digests, at)) continue;
      let newest = generations.at(-1);
      if (!newest || newest.order !== null) {
        if (newest && newest.table.count >= DIGEST_LOG_GENERATION && generations.length > 1)
          this.#mergeDigests(set, generations, Number.POSITIVE_INFINITY);
        newest = newGeneration((generations.at(-1)?.gen ?? 0) + 1);
        generations.push(newest);
      }
      const n = newest.table.count;
      newest.table.addBytes(added.digests, at, added.seqs[i]!, added.tags[i]!);
      this.#putLogged.run(set, newest.gen, n, added.digestAt(i), added.seqs[i]!, added.tags[i]!);
      this.stats.writes += 1;
      this.stats.bytes += DIGEST_BYTES;
      if (newest.table.count >= DIGEST_LOG_GENERATION) {
        // Full: merged from now on, an eighth a flush (the first below); a generation still under
        // merge then ends at once.
        if (generations.length > 1) this.#mergeDigests(set, generations, Number.POSITIVE_INFINITY);
        newest.order = newest.table.inDigestOrder();
      }
    }
    this.#mergeDigests(set, generations, 1);
  }

  /** Merges `slices` eighths of the oldest generation under merge (Infinity: all of it). */
  #mergeDigests(set: number, generations: DigestGeneration[], slices: number): void {
    const g = generations[0];
    if (!g?.order) return;
    const step = Math.ceil(g.table.count / DIGEST_MERGE_SLICES);
    const end = Math.min(g.table.count, g.merged + step * slices);
    for (let k = g.merged; k < end; k += 1) {
      const i = g.order[k]!;
      this.#putDigest.run(set, g.table.digestAt(i), g.table.seqs[i]!, g.table.tags[i]!);
    }
    this.stats.writes += end - g.merged;
    g.merged = end;
    if (g.merged < g.table.count) return;
    this.#dropGeneration.run(set, g.gen);
    generations.shift();
  }

  #storedDigestSetId(set: string): number | undefined {
    const id = this.#sql(() => this.#digestSetIdOf.get(set));
    if (id !== undefined) this.#digestSetIds.set(set, id);
    return id;
  }

  /** The set's id, assigned on its first flush (inside the flush's transaction). */
  #digestSetId(set: string): number {
    const known = this.#digestSetIds.get(set) ?? this.#storedDigestSetId(set);
    if (known !== undefined) return known;
    const id =
      (this.#db.prepare<[], number | null>('SELECT MAX(id) FROM rm_digest_sets').pluck().get() ?? 0) + 1;
    this.#db.prepare('INSERT INTO rm_digest_sets (name, id) VALUES (?, ?)').run(set, id);
    this.#digestSetIds.set(set, id);
    return id;
  }

  nextOrd(coll: string): number {
    const next = (this.#ords.get(coll) ?? this.#sql(() => this.#maxOrd.get(coll)) ?? 0) + 1;
    this.#ords.set(coll, next);
    return next;
  }

  assertFolding(coll: string): void {
    if (!this.folding) throw new TypeError(`read model ${coll} is read-only outside its projection's fold`);
  }

  cached(delta: number): void {
    this.#cachedCount += delta;
    if (this.#cachedCount > this.#trimAbove) this.#trim();
  }

  /**
   * Evicts unchanged records, oldest first in each collection, down to the budget. Records changed
   * since the last flush stay, so a trim may leave more than the budget: the next one then waits
   * until a quarter of the budget more was cached (each trim walks the cache).
   */
  #trim(): void {
    this.#trimAbove = this.#cacheRecords * 1.25;
    if (this.#cachedCount <= this.#cacheRecords) return;
    const share = this.#cacheRecords / this.#cachedCount;
    let total = 0;
    for (const c of this.#collections.values()) {
      c.evict(Math.floor(c.cache.size * share));
      total += c.cache.size;
    }
    for (const l of this.#lists.values()) {
      l.evict(Math.floor(l.cache.size * share));
      total += l.cache.size;
    }
    this.#cachedCount = total;
    this.#trimAbove = Math.max(this.#trimAbove, total + this.#cacheRecords * 0.25);
  }
}

/** A stored record's fingerprint (see `DiskCollection.texts`). */
function digestOf(text: string): string {
  return hash('sha256', text, 'base64');
}

/** Keys in code-unit order (SQLite's byte order for ASCII keys; any order is correct, this one is fast). */
function sortedKeys(keys: Iterable<string>): string[] {
  return [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Entries in their keys' code-unit order. */
function byKey(a: [string, unknown], b: [string, unknown]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}

function isEmptyPlainObject(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    Object.keys(value).length === 0
  );
}

/**
 * A plain-object state on the file: each field `init` gives as `{}` is a collection of records (or,
 * given by `appendOnlyLists()`, append-only lists), every other field an aggregate (its stored
 * value, else `init`'s).
 */
export function plainStateOnDisk<S>(
  file: ReadModelFile,
  projection: string,
  init: S,
  stored: Record<string, unknown> | null,
): { state: S; aggregates(): Record<string, unknown> } {
  if (typeof init !== 'object' || init === null || Object.getPrototypeOf(init) !== Object.prototype)
    throw new TypeError(`read model ${projection}: a state that is not a plain object needs openOnDisk`);
  const state: Record<string, unknown> = {};
  const aggregateFields: string[] = [];
  for (const [field, value] of Object.entries(init)) {
    if (isEmptyPlainObject(value))
      state[field] = (value as Record<symbol, unknown>)[LISTS]
        ? file.lists(`${projection}.${field}`).proxy
        : file.collection(`${projection}.${field}`).proxy;
    else {
      aggregateFields.push(field);
      state[field] = stored !== null && Object.hasOwn(stored, field) ? stored[field] : value;
    }
  }
  return {
    state: state as S,
    aggregates: () => Object.fromEntries(aggregateFields.map((field) => [field, state[field]])),
  };
}
