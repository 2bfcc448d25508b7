/**
 * Tile storage in SQLite: a table beside the events in the ledger file (embedded mode), or a file
 * of its own beside the read models (EventStoreDB mode). Full tiles only, each written once.
 */
import { preparePrivateDatabase } from '../private-files.js';
import Database from 'better-sqlite3';
import type { Database as Db, Statement } from 'better-sqlite3';
import type { StoredTile, TileStorage } from './tree.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS tlog_tiles (
  level  INTEGER NOT NULL,
  idx    INTEGER NOT NULL,
  hashes BLOB NOT NULL,
  PRIMARY KEY (level, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tlog_meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`;

export class SqliteTileStorage implements TileStorage {
  readonly #db: Db;
  readonly #owned: boolean;
  readonly #stmt: {
    count: Statement<[number], { n: number }>;
    load: Statement<[number, number], { hashes: Buffer }>;
    save: Statement<[number, number, Buffer]>;
    getMeta: Statement<[string], { value: string }>;
    setMeta: Statement<[string, string]>;
    delMeta: Statement<[string]>;
  };

  /** Shares an open database (the ledger file) or opens and owns a file at `source`. */
  constructor(source: Db | string) {
    if (typeof source === 'string') {
      preparePrivateDatabase(source);
      this.#db = new Database(source);
      this.#db.pragma('journal_mode = WAL');
      this.#db.pragma('busy_timeout = 5000');
      this.#owned = true;
    } else {
      this.#db = source;
      this.#owned = false;
    }
    this.#db.exec(SCHEMA);
    this.#stmt = {
      count: this.#db.prepare('SELECT COUNT(*) AS n FROM tlog_tiles WHERE level = ?'),
      load: this.#db.prepare('SELECT hashes FROM tlog_tiles WHERE level = ? AND idx = ?'),
      // A tile is immutable: the same (level, idx) is only ever written with the same bytes.
      save: this.#db.prepare('INSERT OR IGNORE INTO tlog_tiles (level, idx, hashes) VALUES (?, ?, ?)'),
      getMeta: this.#db.prepare('SELECT value FROM tlog_meta WHERE key = ?'),
      setMeta: this.#db.prepare(
        'INSERT INTO tlog_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
      ),
      delMeta: this.#db.prepare('DELETE FROM tlog_meta WHERE key = ?'),
    };
  }

  fullTiles(level: number): number {
    return this.#stmt.count.get(level)?.n ?? 0;
  }

  loadTile(level: number, index: number): Buffer | undefined {
    return this.#stmt.load.get(level, index)?.hashes;
  }

  saveTiles(tiles: StoredTile[]): void {
    this.#db.transaction(() => {
      for (const t of tiles) this.#stmt.save.run(t.level, t.index, t.hashes);
    })();
  }

  getMeta(key: string): string | undefined {
    return this.#stmt.getMeta.get(key)?.value;
  }

  setMeta(key: string, value: string | null): void {
    if (value === null) this.#stmt.delMeta.run(key);
    else this.#stmt.setMeta.run(key, value);
  }

  clearTiles(): void {
    this.#db.prepare('DELETE FROM tlog_tiles').run();
  }

  close(): void {
    if (this.#owned && this.#db.open) this.#db.close();
  }
}

/** Tiles in memory (tests, throwaway ledgers). */
export class MemoryTileStorage implements TileStorage {
  readonly #tiles = new Map<string, Buffer>();
  readonly #counts = new Map<number, number>();
  readonly #meta = new Map<string, string>();
  fullTiles(level: number): number {
    return this.#counts.get(level) ?? 0;
  }
  loadTile(level: number, index: number): Buffer | undefined {
    return this.#tiles.get(`${level}/${index}`);
  }
  saveTiles(tiles: StoredTile[]): void {
    for (const t of tiles) {
      const key = `${t.level}/${t.index}`;
      if (this.#tiles.has(key)) continue;
      this.#tiles.set(key, t.hashes);
      this.#counts.set(t.level, (this.#counts.get(t.level) ?? 0) + 1);
    }
  }
  getMeta(key: string): string | undefined {
    return this.#meta.get(key);
  }
  setMeta(key: string, value: string | null): void {
    if (value === null) this.#meta.delete(key);
    else this.#meta.set(key, value);
  }
  clearTiles(): void {
    this.#tiles.clear();
    this.#counts.clear();
  }
  close(): void {}
}
