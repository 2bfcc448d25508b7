/**
 * Projection runtime (ARCHITECTURE §6): folds the ledger into in-memory read models.
 * A projection is `{name, version, init, evolve}`; `evolve` depends only on the state it is given
 * and the event. The runtime owns each state object outright (nothing else holds a reference), so
 * `evolve` may update it in place and return it — the fold stays a function of the ledger prefix,
 * which the snapshot property test checks. A snapshot is bytes: the projection's own codec when it
 * has one, else its state's JSON; start = load a snapshot of the same version, then catch up from
 * its checkpoint.
 */
import { setImmediate } from 'node:timers/promises';
import type { Clock } from '../clock.js';
import type { EventStore, Subscription } from '../event-store/port.js';
import type { LedgerHead, SealedEvent } from '../ledger/envelope.js';
import { jsonParts } from './json-parts.js';
import { ReadModelsDamaged, type ReadModelDamage } from './read-model-damage.js';
import { plainStateOnDisk, type ReadModelFile } from './read-model-file.js';

export interface Projection<S = unknown> {
  readonly name: string;
  /** Bump when `evolve` or the state shape changes: older snapshots are then ignored. */
  readonly version: number;
  init(): S;
  evolve(state: S, event: SealedEvent): S;
  /**
   * Snapshot codec, for a state that has a more compact or faster form than JSON (typed arrays,
   * columns). Both or neither; `decode(encode(s))` must fold on exactly like `s`, and equal states
   * must encode to equal bytes. Without them the snapshot is the state's JSON, UTF-8.
   */
  encode?(state: S): Uint8Array;
  decode?(bytes: Uint8Array): S;
  /**
   * The state's form on a read-model file, for a state that is not a plain object of collections
   * and aggregates (read-model-file.ts builds those by itself). Must fold exactly like `init()`'s.
   */
  openOnDisk?(file: ReadModelFile, stored: Record<string, unknown> | null): DiskState<S>;
}

/** A state kept on a read-model file: the state, and its aggregates to store with each flush. */
export interface DiskState<S> {
  state: S;
  aggregates(): Record<string, unknown>;
}

/** Any projection, whatever its state type (the runtime holds a heterogeneous list). */
export interface AnyProjection {
  readonly name: string;
  readonly version: number;
  init(): unknown;
  evolve(state: never, event: SealedEvent): unknown;
  encode?(state: never): Uint8Array;
  decode?(bytes: Uint8Array): unknown;
  openOnDisk?(file: ReadModelFile, stored: Record<string, unknown> | null): DiskState<unknown>;
}

/** A state's snapshot bytes: the projection's own codec, else its JSON as UTF-8. */
export function encodeState<S>(projection: Projection<S>, state: S): Uint8Array {
  return projection.encode ? projection.encode(state) : Buffer.from(JSON.stringify(state), 'utf8');
}

/**
 * The state a snapshot holds (the inverse of `encodeState`), from its bytes whole or in parts: a JSON
 * state is decoded part by part into one string, never first copied into one buffer.
 */
export function decodeState<S>(projection: Projection<S>, bytes: SnapshotRecord['state']): S {
  if (projection.decode) return projection.decode(snapshotBytes(bytes));
  const parts = bytes instanceof Uint8Array ? [bytes] : bytes;
  const text = parts.map((part) => toBuffer(part).toString('utf8')).join('');
  return JSON.parse(text) as S;
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export interface SnapshotRecord {
  name: string;
  version: number;
  checkpoint: number;
  /** `encodeState` of the projection's state. */
  state: Uint8Array | readonly Uint8Array[];
  saved_at: string;
}

/** A snapshot to save: its bytes whole, or in parts (in order) produced as they are written. */
export type SnapshotWrite = Omit<SnapshotRecord, 'state'> & { state: Uint8Array | Iterable<Uint8Array> };

/** A snapshot's bytes as one buffer (for stores that keep it whole, and for codecs). */
export function snapshotBytes(state: SnapshotWrite['state']): Uint8Array {
  return state instanceof Uint8Array ? state : Buffer.concat([...state]);
}

export interface SnapshotStore {
  load(name: string): SnapshotRecord | undefined;
  save(record: SnapshotWrite): void;
  clear(name?: string): void;
}

export class MemorySnapshotStore implements SnapshotStore {
  readonly records = new Map<string, SnapshotRecord>();
  load(name: string): SnapshotRecord | undefined {
    return this.records.get(name);
  }
  save(record: SnapshotWrite): void {
    this.records.set(record.name, { ...record, state: snapshotBytes(record.state) });
  }
  clear(name?: string): void {
    if (name === undefined) this.records.clear();
    else this.records.delete(name);
  }
}

interface Slot {
  projection: Projection<unknown>;
  state: unknown;
  checkpoint: number;
  /** On a read-model file: the aggregates to store with each flush. */
  aggregates?: () => Record<string, unknown>;
  /**
   * Its fold met damage in the read-model file, part way through an event: the state is no longer
   * the fold of any prefix, so it is neither folded further nor served (`state` throws this).
   */
  broken?: ReadModelsDamaged;
}

export interface RuntimeOptions {
  /** Persist snapshots after this many applied events (default 50,000; 0 = only on demand). */
  snapshotEvery?: number;
  /**
   * …or, on a larger ledger, after this fraction of the position (default 0.25), whichever is more:
   * a save costs in proportion to the state (seconds at 1M events, while appends wait for it), so
   * a fixed interval would spend more and more of the time saving as the ledger grows. A restart
   * then replays at most about a fifth of the ledger.
   */
  snapshotFraction?: number;
  /**
   * Events read per page during catch-up (default 1,000). Small pages let a page's parsed events
   * die young: a 5,000-event page outlived scavenges, was promoted and cost ~15% more CPU at 1M.
   */
  pageSize?: number;
  /**
   * Keep the read models on this file instead of in the heap (read-model-file.ts): start opens
   * them at their stored checkpoints, every applied command and catch-up page is flushed with its
   * checkpoint, and there are no snapshots (the `snapshots` store is then ignored).
   */
  disk?: ReadModelFile;
  /**
   * On a read-model file, a catch-up flushes after this many events (default 50,000), or sooner
   * when `flushRecords` records wait to be written. Each flush rewrites every record changed since
   * the last one, so the records many events touch (a draw, an org's index) are written once per
   * flush: fewer flushes, less written.
   */
  flushEvery?: number;
  /**
   * On a read-model file, a catch-up flushes once this many records wait to be written (default
   * 50,000): what bounds the heap during a long catch-up, since a changed record stays in the
   * heap until it is written.
   */
  flushRecords?: number;
  /**
   * On a read-model file, applied commands are flushed together this long after the first of them
   * (ms, default 1,000; 0 = at the end of every `apply`). A crash loses at most that much of the
   * read models' work, never an event: the next start replays it from the stored checkpoints. A
   * flush rewrites each changed record whole, and the records a hot command touches grow (an
   * entity's credit record holds every inquiry): at 100 ms, `score` under load spent ~13 % of its
   * CPU re-encoding the same few records ten times a second (issue 19 item 3).
   */
  flushDelayMs?: number;
}

export interface ReplayProgress {
  position: number;
  head: number;
}

/** Head reads `settle` makes before it gives up (each one a store round trip). */
const SETTLE_ROUNDS = 1000;

export class ProjectionRuntime {
  readonly #store: EventStore;
  readonly #snapshots: SnapshotStore | null;
  readonly #clock: Clock;
  readonly #slots = new Map<string, Slot>();
  readonly #snapshotEvery: number;
  readonly #snapshotFraction: number;
  readonly #pageSize: number;
  #position = 0;
  #sinceSnapshot = 0;
  /** True while a catch-up replays pages (periodic snapshots wait for its end). */
  #bulk = false;
  #catchingUp: Promise<void> | null = null;
  /** A periodic save in progress: states must not change until it has read them all. */
  #saving: Promise<void> | null = null;
  #subscription: Subscription | null = null;
  #listeners: ((event: SealedEvent) => void)[] = [];
  readonly #disk: ReadModelFile | null;
  readonly #flushEvery: number;
  readonly #flushRecords: number;
  readonly #flushDelayMs: number;
  #flushedAt = 0;
  #flushTimer: NodeJS.Timeout | null = null;

  constructor(
    store: EventStore,
    projections: readonly AnyProjection[],
    snapshots: SnapshotStore | null,
    clock: Clock,
    opts: RuntimeOptions = {},
  ) {
    this.#store = store;
    this.#snapshots = snapshots;
    this.#clock = clock;
    this.#snapshotEvery = opts.snapshotEvery ?? 50_000;
    this.#snapshotFraction = opts.snapshotFraction ?? 0.25;
    this.#pageSize = opts.pageSize ?? 1_000;
    this.#disk = opts.disk ?? null;
    this.#flushEvery = opts.flushEvery ?? 50_000;
    this.#flushRecords = opts.flushRecords ?? 50_000;
    this.#flushDelayMs = opts.flushDelayMs ?? 1_000;
    for (const p of projections as readonly Projection<unknown>[]) {
      if (this.#slots.has(p.name)) throw new Error(`projection ${p.name} registered twice`);
      const slot: Slot = { projection: p, state: null, checkpoint: 0 };
      this.#slots.set(p.name, slot);
      this.#open(slot, false);
    }
    // On a file the states are already those of the stored checkpoints.
    if (this.#disk && this.#slots.size > 0)
      this.#position = Math.min(...[...this.#slots.values()].map((s) => s.checkpoint));
    this.#flushedAt = this.#position;
  }

  /**
   * A slot's state as the projection starts: `init()` in the heap, or its records on the file at
   * their stored checkpoint — cleared first when stored by another version (or `fresh`).
   */
  #open(slot: Slot, fresh: boolean): void {
    const p = slot.projection;
    if (!this.#disk) {
      slot.state = p.init();
      slot.checkpoint = 0;
      return;
    }
    let stored = fresh ? null : this.#disk.stored(p.name);
    if (stored === null || stored.version !== p.version) {
      this.#disk.clear(p.name);
      stored = null;
    }
    const opened = p.openOnDisk
      ? p.openOnDisk(this.#disk, stored?.aggregates ?? null)
      : plainStateOnDisk(this.#disk, p.name, p.init(), stored?.aggregates ?? null);
    slot.state = opened.state;
    slot.aggregates = () => opened.aggregates();
    slot.checkpoint = stored?.checkpoint ?? 0;
  }

  /** After an apply: flush now, or once the delay since the first unflushed command has passed. */
  #flushSoon(): void {
    if (!this.#disk || this.#position === this.#flushedAt) return;
    if (this.#flushDelayMs === 0 || this.#position - this.#flushedAt >= this.#flushEvery)
      return this.#flush();
    this.#flushTimer ??= setTimeout(() => {
      // A file closed without stopping the runtime first (a test's abrupt end) keeps what it has.
      if (!this.#disk?.open) return;
      try {
        this.#flush();
      } catch (error) {
        // Recorded on the file (appends suspend, /readyz says so); nobody waits on this flush.
        if (!(error instanceof ReadModelsDamaged)) throw error;
      }
    }, this.#flushDelayMs);
    this.#flushTimer.unref();
  }

  /** Writes what the folds changed, with every checkpoint, in one transaction (disk mode). */
  #flush(): void {
    if (!this.#disk) return;
    if (this.#flushTimer) clearTimeout(this.#flushTimer);
    this.#flushTimer = null;
    // Nothing more is written to a damaged file: the next start sets it aside, as it was found.
    if (this.#disk.damage) return;
    this.#flushedAt = this.#position;
    this.#disk.flush(
      [...this.#slots.values()].map((slot) => ({
        name: slot.projection.name,
        version: slot.projection.version,
        checkpoint: slot.checkpoint,
        aggregates: slot.aggregates!(),
      })),
    );
  }

  /** The seq every projection has applied. */
  get position(): number {
    return this.#position;
  }

  /** Damage SQLite reported in the read-model file while this runtime used it, or null. */
  get damage(): ReadModelDamage | null {
    return this.#disk?.damage ?? null;
  }

  names(): string[] {
    return [...this.#slots.keys()];
  }

  /** The current state of one projection. Callers must treat it as read-only. */
  state<S>(projection: Projection<S> | string): S {
    const name = typeof projection === 'string' ? projection : projection.name;
    const slot = this.#slots.get(name);
    if (!slot) throw new Error(`unknown projection ${name}`);
    if (slot.broken) throw slot.broken;
    return slot.state as S;
  }

  /** Runs `fn` for every event applied from now on (after the projections saw it). */
  onApplied(fn: (event: SealedEvent) => void): void {
    this.#listeners.push(fn);
  }

  /** Loads matching snapshots and catches up to the store's head. */
  async start(onProgress?: (p: ReplayProgress) => void): Promise<void> {
    for (const slot of this.#slots.values()) {
      if (this.#disk) continue;
      const snap = this.#snapshots?.load(slot.projection.name);
      if (snap && snap.version === slot.projection.version) {
        slot.state = decodeState(slot.projection, snap.state);
        slot.checkpoint = snap.checkpoint;
      }
    }
    this.#position = Math.min(...[...this.#slots.values()].map((s) => s.checkpoint), Number.MAX_SAFE_INTEGER);
    if (this.#slots.size === 0) this.#position = 0;
    await this.catchUp(onProgress);
  }

  /** Applies everything the store has beyond our position. Concurrent calls share one pass. */
  catchUp(onProgress?: (p: ReplayProgress) => void): Promise<void> {
    this.#catchingUp ??= this.#catchUpNow(onProgress).finally(() => {
      this.#catchingUp = null;
    });
    return this.#catchingUp;
  }

  /**
   * Applies the store's events through `seq` at least. A pass already under way (which `catchUp`
   * joins) may have read an older head and end below `seq`: then a fresh one runs.
   */
  async catchUpTo(seq: number): Promise<void> {
    while (this.#position < seq) {
      const before = this.#position;
      await this.catchUp();
      if (this.#position === before && this.#position < seq) {
        await this.catchUp();
        if (this.#position === before)
          throw new Error(`read models cannot catch up: at seq ${before}, the store's head is ${seq}`);
      }
    }
  }

  /**
   * Brings the read models to exactly a head of the store, and answers it: `known` (what the Ledger
   * last saw) or, when the read models have gone past it, the store's head now. The Ledger decides
   * every command here (`LedgerOptions.settle`). Behind the head, a decision would be taken on state
   * older than the head its append expects, and the append accepted (a conflict's catch-up may join
   * a pass that read an older head). Ahead of it (another node's events, applied one by one by the
   * subscription), the read models may stop inside that node's append: the first event of a command
   * folded, not the second (an operator org registered, not yet designated). The store's head always
   * ends a whole append.
   */
  async settle(known: LedgerHead): Promise<LedgerHead> {
    let head = known;
    for (let round = 1; this.#position !== head.seq; round += 1) {
      // The subscription keeps applying while the head is read: more may have come in meanwhile, and
      // the head is asked again (bounded, for a store whose head would never reach what it delivered).
      if (round > SETTLE_ROUNDS)
        throw new Error(`read models at seq ${this.#position} never met the store's head (seq ${head.seq})`);
      if (this.#position > head.seq) head = await this.#store.head();
      await this.catchUpTo(head.seq);
    }
    return head;
  }

  async #catchUpNow(onProgress?: (p: ReplayProgress) => void): Promise<void> {
    const head = (await this.#store.head()).seq;
    // A catch-up saves once at its end, not every `snapshotEvery` events: each save serializes the
    // whole state, so saving as a long replay goes (a cold start on a big ledger) costs O(n²).
    this.#bulk = true;
    try {
      while (this.#position < head) {
        await this.#saving;
        const page = await this.#store.read(this.#position + 1, this.#pageSize);
        if (page.length === 0) break;
        for (const event of page) this.#applyOne(event);
        // A long catch-up flushes every many thousand events (or once the records waiting fill
        // their budget): a record changed by many events of a stretch is written once for all.
        if (
          this.#disk &&
          (this.#position - this.#flushedAt >= this.#flushEvery ||
            this.#disk.pendingRecords >= this.#flushRecords)
        )
          this.#flush();
        onProgress?.({ position: this.#position, head });
      }
    } finally {
      this.#bulk = false;
    }
    this.#flush();
    if (!this.#disk && this.#snapshotEvery > 0 && this.#sinceSnapshot >= this.#saveInterval())
      this.saveSnapshots();
  }

  /**
   * Applies freshly appended events in order; events at or below the position are ignored and a
   * gap (another writer's events) is filled from the store first.
   */
  async apply(events: readonly SealedEvent[]): Promise<void> {
    for (const event of events) {
      await this.#saving;
      if (event.seq <= this.#position) continue;
      if (event.seq > this.#position + 1) await this.catchUp();
      if (event.seq === this.#position + 1) this.#applyOne(event);
    }
    this.#flushSoon();
    // The apply that started a periodic save resolves once it is written.
    await this.#saving;
  }

  #applyOne(event: SealedEvent): void {
    if (this.#disk) this.#disk.folding = true;
    let damaged: ReadModelsDamaged | null = null;
    try {
      for (const slot of this.#slots.values()) {
        if (event.seq <= slot.checkpoint || slot.broken) continue;
        try {
          slot.state = slot.projection.evolve(slot.state, event);
          slot.checkpoint = event.seq;
        } catch (error) {
          // The other read models go on folding (a key revoked meanwhile is still seen as revoked);
          // this one is no longer served. The file has recorded the damage: appends are suspended.
          if (!(error instanceof ReadModelsDamaged)) throw error;
          slot.broken = error;
          damaged ??= error;
        }
      }
    } finally {
      if (this.#disk) this.#disk.folding = false;
    }
    this.#position = event.seq;
    for (const fn of this.#listeners) fn(event);
    // The command whose event this is (already recorded) is answered 503, as is every later one.
    if (damaged) throw damaged;
    this.#sinceSnapshot += 1;
    if (!this.#disk && !this.#bulk && this.#snapshotEvery > 0 && this.#sinceSnapshot >= this.#saveInterval())
      this.#saving ??= this.#saveYielding().finally(() => {
        this.#saving = null;
      });
  }

  /** Events between periodic saves at the current position (see `snapshotFraction`). */
  #saveInterval(): number {
    return Math.max(this.#snapshotEvery, Math.floor(this.#position * this.#snapshotFraction));
  }

  /**
   * A periodic save while serving: the same bytes as `saveSnapshots`, but a JSON state is encoded
   * part by part with a turn of the event loop between parts, so requests that only read go on
   * being answered (a 1M-event state takes seconds to encode). Applying waits for it (`#saving`):
   * a state must not change while its parts are being taken. Each projection's parts are then
   * written in one go, so this holds one projection's encoded bytes at a time.
   */
  async #saveYielding(): Promise<void> {
    this.#sinceSnapshot = 0;
    if (!this.#snapshots) return;
    const saved_at = this.#clock.now().toISOString();
    for (const slot of this.#slots.values()) {
      const parts: Uint8Array[] = [];
      if (slot.projection.encode) parts.push(slot.projection.encode(slot.state));
      else
        for (const part of jsonParts(slot.state)) {
          parts.push(part);
          await setImmediate();
        }
      this.#snapshots.save({
        name: slot.projection.name,
        version: slot.projection.version,
        checkpoint: slot.checkpoint,
        state: parts,
        saved_at,
      });
      await setImmediate();
    }
  }

  /** Follows the store live (events appended by other processes). */
  async follow(): Promise<void> {
    if (this.#subscription) return;
    this.#subscription = this.#store.subscribe(this.#position + 1, (event) => this.apply([event]));
    await this.#subscription.ready;
  }

  /** Persists every projection's state and checkpoint (on a read-model file: flushes it). */
  saveSnapshots(): void {
    this.#sinceSnapshot = 0;
    if (this.#disk) return this.#flush();
    if (!this.#snapshots) return;
    const saved_at = this.#clock.now().toISOString();
    for (const slot of this.#slots.values()) {
      this.#snapshots.save({
        name: slot.projection.name,
        version: slot.projection.version,
        checkpoint: slot.checkpoint,
        // One projection at a time, and a JSON state part by part (same bytes as encodeState).
        state: slot.projection.encode ? slot.projection.encode(slot.state) : jsonParts(slot.state),
        saved_at,
      });
    }
  }

  /** Drops all state and snapshots and replays from seq 1. */
  async rebuild(onProgress?: (p: ReplayProgress) => void): Promise<void> {
    await this.#saving;
    await this.#catchingUp;
    this.#snapshots?.clear();
    for (const slot of this.#slots.values()) this.#open(slot, true);
    this.#position = 0;
    await this.catchUp(onProgress);
    this.saveSnapshots();
  }

  async stop(): Promise<void> {
    await this.#subscription?.close();
    this.#subscription = null;
    await this.#catchingUp;
    await this.#saving;
    this.saveSnapshots();
  }
}
