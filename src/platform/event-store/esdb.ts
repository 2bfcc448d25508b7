/**
 * EsdbEventStore: the ledger on EventStoreDB (ARCHITECTURE §3.3), the only importer of
 * `@eventstore/db-client`. The whole ledger is one ESDB stream (default `plumbline-ledger`) — one
 * stream is what makes one global hash chain possible — so ledger seq N is stream revision N−1,
 * and every append names the exact expected revision (NO_STREAM for an empty ledger, never ANY).
 * ESDB event id = envelope id, type = envelope type, data = envelope data (JSON), metadata = the
 * other envelope fields; nothing is stored that the envelope does not carry. The client appends
 * through BatchAppend (every server since 21.10 lists it in its server-features answer).
 *
 * The head is the stream's last event (one backwards read of one event). An append whose ids are
 * all fresh UUIDv7s (`newEventId`: random, so nobody else can hold them) is written straight away
 * at the head this handle last wrote or read (re-read once when the caller names another): no
 * index lookup, no read-back. ESDB alone does not give the port's "unique id" rule for ids that can
 * repeat — UUIDv5 ids derived from an Idempotency-Key or a demo seed, which another node may seal
 * at the same time with other content — nor a secondary index for readStream. For those (and for
 * a re-append of events below the head) the adapter keeps an index of the ledger (id → seq,
 * envelope stream → seqs, and a checkpoint: the seq and hash of the last event it covers) in a
 * SQLite file per node (`indexPath`, DATA_DIR/esdb-index.db; esdb-index.ts), brought up to the
 * stream's end by reading only the events after the checkpoint, a page per transaction, and
 * checks ids against it before writing; every append this handle writes is added to it too (one
 * local transaction), so the next catch-up need not read it back. The heap holds nothing per
 * event, and a restarted node reads its delta, not the history. A handle's first catch-up also
 * reads the checkpoint's own event: a stream that ends before it or holds another event there is
 * another ledger (reset, restored from an older backup, renamed), and the file — a cache with no
 * facts of its own — is emptied and rebuilt from the stream (`onIndexRebuild` tells). After
 * writing a chunk with an id that can repeat, the adapter reads its last event back (see
 * #writeChunks for why, and why nowhere else). The index stays correct because ledger events are
 * immutable: the ledger stream must never be truncated, deleted or given $maxAge/$maxCount.
 *
 * Size: EventStoreDB refuses an append whose data + metadata exceed its MaxAppendSize (default
 * 1 MiB). An append larger than `maxAppendBytes` is split into consecutive chunks below it, each
 * written atomically at its exact expected revision. The command as a whole is then atomic per
 * chunk, not all-or-none: a failure between chunks leaves a prefix of whole, linked events (a
 * valid, gapless chain, seen by readers and subscribers) and the caller gets the error; appending
 * the same sealed events again completes the rest. Only bulk commands (SAM imports, ledger
 * generation) reach that size, and their events are independent facts. One event over the limit
 * is refused with AppendTooLarge before anything is sent.
 */
import {
  END,
  ErrorType,
  EventStoreDBClient,
  FORWARDS,
  BACKWARDS,
  AccessDeniedError,
  isCommandError,
  jsonEvent,
  MaxAppendSizeExceededError,
  NotLeaderError,
  NO_STREAM,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import type {
  CurrentRevision,
  JSONType,
  ReadRevision,
  ResolvedEvent,
  StreamSubscription,
} from '@eventstore/db-client';
import {
  EMPTY_HEAD,
  contentJson,
  type EventMeta,
  type LedgerHead,
  type SealedEvent,
} from '../ledger/envelope.js';
import {
  AppendConflict,
  AppendTooLarge,
  InvalidAppend,
  StoreAccessDenied,
  StoreNotLeader,
  StoreUnavailable,
} from '../ledger/errors.js';
import type { StoredRecord } from '../ledger/verify.js';
import { LedgerIndexFile, type IndexedEvent } from './esdb-index.js';
import type { AppendResult, EventHandler, EventStore, ReadStreamOptions, Subscription } from './port.js';

export const DEFAULT_LEDGER_STREAM = 'plumbline-ledger';
/** EventStoreDB's default MaxAppendSize (1 MiB); the server's `MaxAppendSize` setting changes it. */
export const DEFAULT_MAX_APPEND_BYTES = 1024 * 1024;

export interface EsdbEventStoreOptions {
  /**
   * The ESDB stream that holds the whole ledger (default `plumbline-ledger`). Tests against a
   * shared server pass a fresh name per run so runs never see each other's events.
   */
  stream?: string;
  /**
   * First wait before a dropped live subscription re-subscribes, in ms; it doubles after each
   * failed attempt up to 5 s and resets once an event arrives (default 100).
   */
  resubscribeDelayMs?: number;
  /**
   * Told when a live subscription drops (server gone, handler threw) just before it
   * re-subscribes from the next undelivered seq; for logs and metrics.
   */
  onSubscriptionError?: (error: unknown) => void;
  /**
   * The server's MaxAppendSize in bytes (default 1 MiB, EventStoreDB's default): larger appends
   * are split into chunks below it (see the module comment for what that means for atomicity).
   */
  maxAppendBytes?: number;
  /**
   * The SQLite file that keeps this node's index of the ledger stream (ids, envelope streams and
   * a checkpoint; see esdb-index.ts), e.g. DATA_DIR/esdb-index.db, so a restart reads only the
   * events after the checkpoint. Default ':memory:': the same index, for this handle only.
   */
  indexPath?: string;
  /**
   * Told when the index file does not describe this ledger stream (its checkpoint event is not in
   * the stream, or is another event) and is emptied to be rebuilt from the stream; for logs.
   */
  onIndexRebuild?: (reason: string) => void;
}

/** The ledger stream holds an event this adapter did not write (not a Plumbline envelope). */
export class UnreadableLedgerEvent extends Error {
  readonly type = 'unreadable_ledger_event' as const;
  constructor(
    readonly revision: bigint,
    reason: string,
  ) {
    super(`ledger stream revision ${revision}: ${reason}`);
    this.name = 'UnreadableLedgerEvent';
  }
}

/** The envelope fields other than id, type and data, as they sit in ESDB metadata. */
interface EnvelopeMetadata {
  seq: number;
  stream: string;
  schema: number;
  meta: EventMeta;
  recorded_at: string;
  content_hash: string;
  prev_hash: string;
  hash: string;
}

/** An event as read, with the stream revision it sits at (the index trusts that, not metadata). */
interface Positioned {
  event: SealedEvent;
  revision: number;
}

/** ESDB hands ids back in lower-case canonical form; any other spelling would break content_hash. */
const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const READ_CONCURRENCY = 8;
/** Events per read while the index catches up with the stream; each page is one transaction. */
const INDEX_PAGE = 2000;

/** Client failures that mean "cannot reach or write the store" (503), not a bug or a conflict. */
const UNAVAILABLE = new Set<string>([
  ErrorType.UNAVAILABLE,
  ErrorType.DEADLINE_EXCEEDED,
  ErrorType.CANCELLED,
  ErrorType.TIMEOUT,
  ErrorType.STREAM_DELETED,
]);
/** gRPC CANCELLED, DEADLINE_EXCEEDED, UNAVAILABLE when they reach us unconverted. */
const UNAVAILABLE_GRPC_CODES = new Set([1, 4, 14]);

function translate(error: unknown): unknown {
  if (error instanceof MaxAppendSizeExceededError) {
    return new AppendTooLarge(undefined, error.maxAppendSize);
  }
  if (error instanceof AccessDeniedError) {
    return new StoreAccessDenied(
      `the ledger store refused access (esdb access-denied: ${error.message}); check the connection string's user and the stream ACLs`,
      { cause: error },
    );
  }
  if (error instanceof NotLeaderError) {
    const leader = `${error.leader.address}:${error.leader.port}`;
    return new StoreNotLeader(`the ledger store node is not the leader (leader: ${leader})`, leader, {
      cause: error,
    });
  }
  if (error instanceof Error && isCommandError(error) && UNAVAILABLE.has(error.type)) {
    return new StoreUnavailable(`ledger store unavailable (esdb ${error.type}: ${error.message})`, {
      cause: error,
    });
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'number' && UNAVAILABLE_GRPC_CODES.has(code)) {
    return new StoreUnavailable(`ledger store unavailable (grpc status ${code})`, { cause: error });
  }
  return error;
}

function toEventData(event: SealedEvent) {
  const { id, type, data, seq, stream, schema, meta, recorded_at, content_hash, prev_hash, hash } = event;
  const metadata: EnvelopeMetadata = {
    seq,
    stream,
    schema,
    meta,
    recorded_at,
    content_hash,
    prev_hash,
    hash,
  };
  return jsonEvent({ id, type, data: data as JSONType, metadata });
}

function isEnvelopeMetadata(value: unknown): value is EnvelopeMetadata {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  return (
    Number.isSafeInteger(m.seq) &&
    typeof m.stream === 'string' &&
    Number.isSafeInteger(m.schema) &&
    typeof m.meta === 'object' &&
    m.meta !== null &&
    typeof m.recorded_at === 'string' &&
    typeof m.content_hash === 'string' &&
    typeof m.prev_hash === 'string' &&
    typeof m.hash === 'string'
  );
}

function toPositioned(resolved: ResolvedEvent): Positioned {
  const recorded = resolved.event;
  if (!recorded) throw new UnreadableLedgerEvent(-1n, 'a link with no event');
  if (!recorded.isJson) throw new UnreadableLedgerEvent(recorded.revision, 'data is not JSON');
  const m: unknown = recorded.metadata;
  if (!isEnvelopeMetadata(m))
    throw new UnreadableLedgerEvent(recorded.revision, 'metadata is not an envelope');
  const event: SealedEvent = {
    seq: m.seq,
    id: recorded.id,
    stream: m.stream,
    type: recorded.type,
    schema: m.schema,
    data: recorded.data,
    meta: m.meta,
    recorded_at: m.recorded_at,
    content_hash: m.content_hash,
    prev_hash: m.prev_hash,
    hash: m.hash,
  };
  return { event, revision: Number(recorded.revision) };
}

/** WrongExpectedVersion reports the stream's last revision; the ledger head is one more. */
function headSeqOf(actual: CurrentRevision): number {
  return actual === NO_STREAM ? 0 : Number(actual) + 1;
}

/** What the index keeps of an event at `seq` (for events read: their revision + 1, not metadata). */
function indexed(event: SealedEvent, seq = event.seq): IndexedEvent {
  return { seq, id: event.id, stream: event.stream, hash: event.hash };
}

function lastHead(events: readonly SealedEvent[]): LedgerHead {
  const last = events[events.length - 1]!;
  return { seq: last.seq, hash: last.hash };
}

function assertLinks(events: readonly SealedEvent[], head: LedgerHead): void {
  let prev = head;
  for (const event of events) {
    if (event.seq !== prev.seq + 1 || event.prev_hash !== prev.hash) {
      throw new InvalidAppend(`event ${event.id} does not link to seq ${prev.seq}`);
    }
    prev = { seq: event.seq, hash: event.hash };
  }
}

/** Consecutive seqs as [first, count] runs, so a stream's batches are read one request each. */
function runsOf(seqs: readonly number[]): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (const seq of [...new Set(seqs)].sort((a, b) => a - b)) {
    const run = runs[runs.length - 1];
    if (run && run[0] + run[1] === seq) run[1] += 1;
    else runs.push([seq, 1]);
  }
  return runs;
}

/** A fresh UUIDv7 (`newEventId`): random, so no other writer can hold it. Anything else may repeat. */
const FRESH_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-7/;

/** The bytes EventStoreDB counts against MaxAppendSize for one event: data + metadata. */
function appendBytes(event: SealedEvent): number {
  const { id: _id, type: _type, data, ...metadata } = event;
  return (
    Buffer.byteLength(JSON.stringify(data), 'utf8') + Buffer.byteLength(JSON.stringify(metadata), 'utf8')
  );
}

/** Consecutive runs of events, each below `maxBytes`; one event over it is refused. */
export function chunksBelow(events: readonly SealedEvent[], maxBytes: number): SealedEvent[][] {
  const chunks: SealedEvent[][] = [];
  let current: SealedEvent[] = [];
  let size = 0;
  for (const event of events) {
    const bytes = appendBytes(event);
    if (bytes > maxBytes) throw new AppendTooLarge(bytes, maxBytes);
    if (current.length > 0 && size + bytes > maxBytes) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(event);
    size += bytes;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

export class EsdbEventStore implements EventStore {
  readonly kind = 'esdb';
  /** The ESDB stream this store keeps the ledger in. */
  readonly stream: string;
  readonly #client: EventStoreDBClient;
  readonly #resubscribeMs: number;
  readonly #onSubscriptionError: ((error: unknown) => void) | undefined;
  readonly #maxAppendBytes: number;
  readonly #subscriptions = new Set<LiveSubscription>();
  readonly #index: LedgerIndexFile;
  readonly #onIndexRebuild: ((reason: string) => void) | undefined;
  #indexQueue: Promise<void> = Promise.resolve();
  /**
   * Whether the index is known to describe this stream: it was empty when opened (an empty index
   * describes every ledger) or this handle found its checkpoint's event in the stream.
   */
  #indexChecked: boolean;
  /** The last event this handle wrote or read as the head; undefined until it knows one. */
  #tail: LedgerHead | undefined;

  private constructor(client: EventStoreDBClient, opts: EsdbEventStoreOptions) {
    this.#client = client;
    this.stream = opts.stream ?? DEFAULT_LEDGER_STREAM;
    this.#resubscribeMs = opts.resubscribeDelayMs ?? 100;
    this.#onSubscriptionError = opts.onSubscriptionError;
    this.#maxAppendBytes = opts.maxAppendBytes ?? DEFAULT_MAX_APPEND_BYTES;
    this.#index = new LedgerIndexFile(opts.indexPath ?? ':memory:');
    this.#onIndexRebuild = opts.onIndexRebuild;
    this.#indexChecked = this.#index.head().seq === 0;
  }

  /**
   * A store on the server an `esdb://` (or `esdb+discover://`) connection string names, e.g.
   * `esdb://localhost:2113?tls=false`. Only the index file is opened here: the client connects on
   * first use, so an unreachable server shows up as StoreUnavailable from the first call.
   */
  static connect(url: string, opts: EsdbEventStoreOptions = {}): EsdbEventStore {
    return new EsdbEventStore(EventStoreDBClient.connectionString(url), opts);
  }

  async append(events: SealedEvent[], expectedHead: number): Promise<AppendResult> {
    try {
      return await this.#append(events, expectedHead);
    } catch (error) {
      throw translate(error);
    }
  }

  async #append(events: SealedEvent[], expectedHead: number): Promise<AppendResult> {
    if (events.length === 0) throw new InvalidAppend('append of no events');
    const odd = events.find((e) => !CANONICAL_UUID.test(e.id));
    if (odd) throw new InvalidAppend(`event id ${odd.id} is not a lower-case UUID, as ESDB would return it`);
    if (new Set(events.map((e) => e.id)).size !== events.length) {
      throw new InvalidAppend('an append carries the same event id twice');
    }
    const chunks = chunksBelow(events, this.#maxAppendBytes);
    this.#tail ??= await this.#readHead();
    if (events.every((e) => FRESH_ID.test(e.id))) {
      // Another node may have moved the head since this handle last wrote: one read tells.
      if (this.#tail.seq !== expectedHead) this.#tail = await this.#readHead();
      if (this.#tail.seq === expectedHead) {
        assertLinks(events, this.#tail);
        // A WrongExpectedVersion here is a race, never a repeat: nobody else holds fresh ids, and
        // ESDB acknowledges a repeat of these very events at their positions as a success.
        return this.#writeChunks(chunks, expectedHead);
      }
    }
    return this.#appendChecked(events, expectedHead);
  }

  /** The path with the index: duplicate ids, a head this handle has not seen, resumed chunks. */
  async #appendChecked(events: SealedEvent[], expectedHead: number): Promise<AppendResult> {
    // A fresh handle checks a file's checkpoint against the stream once, even when it is current.
    if (!this.#indexChecked || this.#index.head().seq < expectedHead) await this.#syncIndex();
    try {
      return await this.#appendIndexed(events, expectedHead);
    } catch (error) {
      if (!(error instanceof AppendConflict)) throw error;
      // Another writer moved the stream; if it stored these very ids, this is a repeat, not a race.
      const originals = await this.#storedOriginals(events);
      if (!originals) throw error;
      return originals;
    }
  }

  /** The stored originals when every id of `events` is in the ledger (index brought up to date). */
  async #storedOriginals(events: readonly SealedEvent[]): Promise<AppendResult | undefined> {
    await this.#syncIndex();
    const stored = events.map((e) => this.#index.seqOf(e.id)).filter((seq) => seq !== undefined);
    if (stored.length !== events.length) return undefined;
    return { events: await this.#readSeqs(stored), head: this.#index.head(), duplicate: true };
  }

  async #appendIndexed(events: SealedEvent[], expectedHead: number): Promise<AppendResult> {
    let known = events.map((e) => this.#index.seqOf(e.id));
    if (known.some((seq) => seq !== undefined) && known.some((seq) => seq === undefined)) {
      // Partly stored: another writer may be landing the rest of these ids right now; look again.
      await this.#syncIndex();
      known = events.map((e) => this.#index.seqOf(e.id));
    }
    const stored = known.filter((seq) => seq !== undefined);
    if (stored.length === events.length) {
      return { events: await this.#readSeqs(stored), head: this.#index.head(), duplicate: true };
    }
    // A prefix already stored at its own seqs: an earlier split append of these events stopped
    // between chunks. If the stored prefix is these very events, write the rest.
    const prefix = known.findIndex((seq) => seq === undefined);
    const resumable =
      stored.length > 0 &&
      stored.length === prefix &&
      known.every((seq, i) => (i < prefix ? seq === events[i]!.seq : seq === undefined));
    if (stored.length > 0 && !resumable) {
      throw new InvalidAppend('some but not all event ids of this append are already stored');
    }
    if (resumable) {
      const originals = await this.#readSeqs(stored);
      if (!originals.every((e, i) => e.hash === events[i]!.hash)) {
        throw new InvalidAppend('some but not all event ids of this append are already stored');
      }
    }
    const rest = events.slice(resumable ? prefix : 0);
    const restHead = resumable ? rest[0]!.seq - 1 : expectedHead;
    const indexed = this.#index.head();
    if (indexed.seq !== restHead) throw new AppendConflict(expectedHead, indexed.seq);
    assertLinks(rest, indexed);
    const written = await this.#writeChunks(chunksBelow(rest, this.#maxAppendBytes), restHead);
    return written.duplicate ? written : { ...written, events };
  }

  /**
   * Writes chunks in order, each at its exact expected revision. ESDB's idempotence compares ids
   * only: when every id of an append already sits at the positions after the expected revision,
   * it answers Success exactly as for a fresh write (and writes nothing). A chunk whose ids are
   * all fresh UUIDv7s can be acknowledged that way only for this very chunk written before, since
   * nobody else holds those ids. A chunk with an id that can repeat (UUIDv5 from an
   * Idempotency-Key or a demo seed) can be acknowledged for another writer's events sealed with
   * the same ids and other content, so its last event is read back and its hash compared — one
   * event suffices, as its hash chains over the whole chunk — before the next chunk is written on
   * top of it (a chunk written on another writer's copy would break the chain).
   */
  async #writeChunks(chunks: SealedEvent[][], expectedHead: number): Promise<AppendResult> {
    let head = expectedHead;
    for (const chunk of chunks) {
      const expectedRevision = head === 0 ? NO_STREAM : BigInt(head - 1);
      try {
        await this.#client.appendToStream(this.stream, chunk.map(toEventData), { expectedRevision });
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        this.#tail = undefined;
        throw new AppendConflict(head, headSeqOf(error.actualVersion));
      }
      head += chunk.length;
      if (chunk.every((e) => FRESH_ID.test(e.id))) continue;
      const last = chunk[chunk.length - 1]!;
      const [stored] = await this.#readRange(head, 1);
      if (!stored || stored.event.id !== last.id) {
        throw new StoreUnavailable(
          `the ledger stream does not hold the events just appended after seq ${head - chunk.length}`,
        );
      }
      if (stored.event.hash !== last.hash) {
        // Another writer stored the same ids here first: hand back its originals once all are in.
        this.#tail = undefined;
        const originals = await this.#storedOriginals(chunks.flat());
        if (!originals) throw new AppendConflict(expectedHead, this.#index.head().seq);
        return originals;
      }
    }
    const events = chunks.flat();
    // Not before this handle has checked the file's checkpoint: it might extend another history.
    if (this.#indexChecked) this.#index.add(events.map((e) => indexed(e)));
    this.#tail = lastHead(events);
    return { events, head: this.#tail, duplicate: false };
  }

  /** The stream's last event as the head (one backwards read of one event). */
  async #readHead(): Promise<LedgerHead> {
    const [last] = await this.#scan(END, 1, BACKWARDS);
    return last ? { seq: last.event.seq, hash: last.event.hash } : EMPTY_HEAD;
  }

  async head(): Promise<LedgerHead> {
    try {
      return await this.#readHead();
    } catch (error) {
      throw translate(error);
    }
  }

  async read(from: number, limit: number): Promise<SealedEvent[]> {
    try {
      return (await this.#readRange(Math.max(1, from), limit)).map((p) => p.event);
    } catch (error) {
      throw translate(error);
    }
  }

  /** ESDB keeps no canonical bytes, so the content is rebuilt; verification recomputes its hash. */
  async readRecords(from: number, limit: number): Promise<StoredRecord[]> {
    const events = await this.read(from, limit);
    return events.map((e) => ({
      seq: e.seq,
      content: contentJson(e),
      content_hash: e.content_hash,
      prev_hash: e.prev_hash,
      hash: e.hash,
    }));
  }

  /**
   * One aggregate's events. ESDB has no secondary index on the envelope `stream` field, so this
   * brings the index file up to the store's end (one read, usually empty) and then reads the
   * matching revisions, a request per run of consecutive seqs.
   */
  async readStream(stream: string, opts: ReadStreamOptions = {}): Promise<SealedEvent[]> {
    try {
      await this.#syncIndex();
      const seqs = this.#index.seqsOf(stream, opts.after ?? 0, opts.limit ?? -1);
      return await this.#readSeqs(seqs);
    } catch (error) {
      throw translate(error);
    }
  }

  subscribe(from: number, onEvent: EventHandler): Subscription {
    const subscription = new LiveSubscription(
      {
        open: (fromSeq) =>
          this.#client.subscribeToStream(this.stream, {
            // A subscription starts *after* the revision it names; seq `fromSeq` is revision fromSeq-1.
            fromRevision: fromSeq <= 1 ? START : BigInt(fromSeq - 2),
          }),
        head: () => this.head(),
        retryDelayMs: this.#resubscribeMs,
        onError: this.#onSubscriptionError,
        forget: () => this.#subscriptions.delete(subscription),
      },
      from,
      onEvent,
    );
    this.#subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#subscriptions].map((s) => s.close()));
    await this.#client.dispose();
    this.#index.close();
  }

  /** Reads everything after the index's checkpoint into it; serialized, so runs never interleave. */
  #syncIndex(): Promise<void> {
    const run = this.#indexQueue.then(() => this.#catchUpIndex());
    this.#indexQueue = run.catch(() => undefined);
    return run;
  }

  /**
   * Page by page from the checkpoint, each page one transaction. The first run of a handle starts
   * one event earlier, at the checkpoint's own event: if the stream does not hold it (a shorter,
   * reset or restored ledger) or holds another event there (another ledger under this name), the
   * file describes some other history, so it is emptied and rebuilt from the stream — it is only a
   * cache, and the ledger's integrity is for ledger:verify and the transparency log to judge.
   */
  async #catchUpIndex(): Promise<void> {
    for (;;) {
      const checkpoint = this.#index.head();
      const checking = !this.#indexChecked && checkpoint.seq > 0;
      // Only what the index keeps is held, so a page of large events costs no more than small ones.
      const page = await this.#scan(BigInt(checkpoint.seq - (checking ? 1 : 0)), INDEX_PAGE, FORWARDS, (p) =>
        indexed(p.event, p.revision + 1),
      );
      this.#indexChecked = true;
      if (checking) {
        const first = page[0];
        if (first?.seq !== checkpoint.seq || first.hash !== checkpoint.hash) {
          this.#index.reset();
          this.#onIndexRebuild?.(
            first
              ? `the ledger stream holds another event at seq ${checkpoint.seq} than the index checkpoint`
              : `the ledger stream ends before the index checkpoint (seq ${checkpoint.seq})`,
          );
          continue;
        }
      }
      this.#index.add(page);
      if (page.length < INDEX_PAGE) return;
    }
  }

  async #readRange(fromSeq: number, count: number): Promise<Positioned[]> {
    if (count <= 0) return [];
    return this.#scan(BigInt(fromSeq - 1), count, FORWARDS);
  }

  /** The events at `seqs`, in that order. */
  async #readSeqs(seqs: readonly number[]): Promise<SealedEvent[]> {
    const runs = runsOf(seqs);
    const bySeq = new Map<number, SealedEvent>();
    for (let i = 0; i < runs.length; i += READ_CONCURRENCY) {
      const pages = await Promise.all(
        runs.slice(i, i + READ_CONCURRENCY).map(([first, count]) => this.#readRange(first, count)),
      );
      for (const page of pages) for (const p of page) bySeq.set(p.revision + 1, p.event);
    }
    return seqs.map((seq) => bySeq.get(seq)).filter((e) => e !== undefined);
  }

  /**
   * A counted read of the ledger stream, keeping `keep` of each event (default: all of it); a
   * stream that does not exist yet reads as empty.
   */
  async #scan<T = Positioned>(
    fromRevision: ReadRevision,
    maxCount: number,
    direction: typeof FORWARDS | typeof BACKWARDS,
    keep: (p: Positioned) => T = (p) => p as T,
  ): Promise<T[]> {
    const out: T[] = [];
    const read = this.#client.readStream(this.stream, { fromRevision, maxCount, direction });
    try {
      for await (const resolved of read) out.push(keep(toPositioned(resolved)));
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return out;
  }
}

interface SubscriptionContext {
  /** A client subscription that delivers seq ≥ fromSeq, catch-up then live. */
  open(fromSeq: number): StreamSubscription;
  head(): Promise<LedgerHead>;
  retryDelayMs: number;
  onError: ((error: unknown) => void) | undefined;
  forget(): void;
}

/** One client subscription and the events it has handed us that the handler has not seen yet. */
interface Attempt {
  sub: StreamSubscription;
  queue: ResolvedEvent[];
  received: number;
  handled: number;
  /** How many events came before the server's caught-up signal. */
  caughtUpAt: number | undefined;
  draining: boolean;
  done: Promise<void>;
  dead: boolean;
}

const QUEUE_HIGH = 256;
const QUEUE_LOW = 32;
const MAX_RESUBSCRIBE_MS = 5000;

/**
 * Catch-up then live, in seq order, one handler call at a time. `ready` resolves at the first of:
 * the server's `caughtUp` (ESDB 23.10+; 24.2+ also for a stream that does not exist yet) once the
 * events before it are handled, or every event up to the head read at subscribe time handled —
 * which is what keeps older servers from leaving `ready` pending forever. A failure before `ready`
 * rejects it and ends the subscription; after `ready`, the subscription re-subscribes from the
 * next unhandled seq with backoff, so a server restart costs neither gaps nor repeats.
 */
class LiveSubscription implements Subscription {
  readonly ready: Promise<void>;
  readonly #ctx: SubscriptionContext;
  readonly #onEvent: EventHandler;
  #settle!: { resolve: () => void; reject: (error: unknown) => void };
  #isReady = false;
  #closed = false;
  #next: number;
  #headAtStart: number | undefined;
  #attempt: Attempt;
  #retry: NodeJS.Timeout | undefined;
  #delay: number;

  constructor(ctx: SubscriptionContext, from: number, onEvent: EventHandler) {
    this.#ctx = ctx;
    this.#onEvent = onEvent;
    this.#next = Math.max(1, from);
    this.#delay = ctx.retryDelayMs;
    this.ready = new Promise<void>((resolve, reject) => {
      this.#settle = { resolve, reject };
    });
    // Callers that never await `ready` must not turn a failed catch-up into an unhandled rejection.
    this.ready.catch(() => undefined);
    this.#attempt = this.#start();
    ctx.head().then(
      (head) => {
        this.#headAtStart = head.seq;
        this.#checkReady();
      },
      (error: unknown) => {
        if (!this.#isReady) this.#fail(this.#attempt, error);
      },
    );
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    this.#ctx.forget();
    const attempt = this.#attempt;
    if (!attempt.dead) {
      attempt.dead = true;
      await attempt.sub.unsubscribe().catch(() => undefined);
    }
    await attempt.done;
    // As with the SQLite store: closing before catch-up finished settles `ready` rather than leave it pending.
    this.#settle.resolve();
  }

  #start(): Attempt {
    const sub = this.#ctx.open(this.#next);
    const attempt: Attempt = {
      sub,
      queue: [],
      received: 0,
      handled: 0,
      caughtUpAt: undefined,
      draining: false,
      done: Promise.resolve(),
      dead: false,
    };
    sub.on('data', (resolved: ResolvedEvent) => {
      if (attempt.dead) return;
      attempt.queue.push(resolved);
      attempt.received += 1;
      if (attempt.queue.length >= QUEUE_HIGH) sub.pause();
      this.#drain(attempt);
    });
    sub.on('caughtUp', () => {
      // Events the client has parsed but not yet emitted sit in its buffer; they came first.
      attempt.caughtUpAt ??= attempt.received + sub.readableLength;
      this.#checkReady();
    });
    sub.on('error', (error: Error) => this.#fail(attempt, error));
    sub.on('end', () =>
      this.#fail(attempt, new StoreUnavailable('the server ended the ledger subscription')),
    );
    return attempt;
  }

  #drain(attempt: Attempt): void {
    if (attempt.draining || attempt.dead) return;
    attempt.draining = true;
    attempt.done = this.#drainLoop(attempt);
  }

  async #drainLoop(attempt: Attempt): Promise<void> {
    try {
      for (;;) {
        const resolved = attempt.dead ? undefined : attempt.queue.shift();
        if (resolved === undefined) break;
        if (attempt.queue.length <= QUEUE_LOW && attempt.sub.isPaused()) attempt.sub.resume();
        const { event } = toPositioned(resolved);
        // After a re-subscribe the server may start a little early; never hand an event twice.
        if (event.seq >= this.#next) {
          await this.#onEvent(event);
          this.#next = event.seq + 1;
        }
        attempt.handled += 1;
        this.#delay = this.#ctx.retryDelayMs;
        this.#checkReady();
      }
    } catch (error) {
      this.#fail(attempt, error);
    } finally {
      attempt.draining = false;
    }
  }

  #checkReady(): void {
    if (this.#isReady || this.#closed) return;
    const { caughtUpAt, handled } = this.#attempt;
    const caughtUp = caughtUpAt !== undefined && handled >= caughtUpAt;
    const pastHead = this.#headAtStart !== undefined && this.#next - 1 >= this.#headAtStart;
    if (caughtUp || pastHead) {
      this.#isReady = true;
      this.#settle.resolve();
    }
  }

  #fail(attempt: Attempt, error: unknown): void {
    if (this.#closed || attempt.dead) return;
    attempt.dead = true;
    attempt.sub.unsubscribe().catch(() => undefined);
    const reported = translate(error);
    if (!this.#isReady) {
      this.#closed = true;
      this.#ctx.forget();
      this.#settle.reject(reported);
      return;
    }
    this.#ctx.onError?.(reported);
    const delay = this.#delay;
    this.#delay = Math.min(delay * 2, MAX_RESUBSCRIBE_MS);
    this.#retry = setTimeout(() => {
      // Let the old attempt finish its current handler call first, so calls never overlap.
      void attempt.done.then(() => {
        if (!this.#closed) this.#attempt = this.#start();
      });
    }, delay);
    this.#retry.unref();
  }
}
