/**
 * ledger-index: hash → position for every event hash and every artifact hash recorded in events.
 * An event that records a result (a scan, a credit report, a notarization…) lists what it attests
 * in `data.artifacts: [{kind, hash}]`; audit-verify looks hashes up here.
 *
 * One entry per event makes this the largest index of all, so SHA-256 hex digests are kept as
 * their 32 bytes in typed arrays with an open-addressing table over them (~45 bytes an entry
 * instead of a 64-character string key in a dictionary, and nothing for the GC to trace); its
 * snapshot is those bytes. Any other hash string (not lower-case 64-hex) goes to a plain Map.
 */
import type { SealedEvent } from '../src/platform/ledger/envelope.js';
import type { DiskState, Projection } from '../src/platform/projections/runtime.js';
import type {
  DiskCollection,
  DiskDigests,
  ReadModelFile,
} from '../src/platform/projections/read-model-file.js';

export interface ArtifactRef {
  kind: string;
  hash: string;
}

export interface ArtifactLocation {
  kind: string;
  seq: number;
}

const DIGEST_BYTES = 32;
/** Two lower-case hex characters (their codes, 7 bits each) → the byte they spell, or -1. */
const PAIR = new Int16Array(1 << 14).fill(-1);
for (let hi = 0; hi < 16; hi += 1)
  for (let lo = 0; lo < 16; lo += 1)
    PAIR[('0123456789abcdef'.charCodeAt(hi) << 7) | '0123456789abcdef'.charCodeAt(lo)] = (hi << 4) | lo;

/** hash (lower-case 64-hex) → seq and a small tag, insertion-ordered; the first insert of a hash wins. */
class DigestTable {
  count = 0;
  digests: Uint8Array;
  seqs: Float64Array;
  tags: Uint16Array;
  /** entry index + 1, 0 = empty; a power-of-two size kept under half full. */
  #slots: Int32Array;

  constructor(capacity = 1024) {
    this.digests = new Uint8Array(capacity * DIGEST_BYTES);
    this.seqs = new Float64Array(capacity);
    this.tags = new Uint16Array(capacity);
    this.#slots = new Int32Array(slotsFor(capacity));
  }

  /** Index of the entry holding the digest in `scratch`, or -1. */
  #find(scratch: Uint8Array): number {
    const mask = this.#slots.length - 1;
    let slot = slotOf(scratch, 0) & mask;
    for (;;) {
      const entry = this.#slots[slot]!;
      if (entry === 0) return -1;
      if (sameDigest(this.digests, (entry - 1) * DIGEST_BYTES, scratch)) return entry - 1;
      slot = (slot + 1) & mask;
    }
  }

  get(hex: string): number {
    return toDigest(hex, SCRATCH) ? this.#find(SCRATCH) : -1;
  }

  /**
   * Adds `hex` unless present; `tag` is asked for only when it is added. False when `hex` is not a
   * lower-case 64-hex digest (the caller keeps it elsewhere).
   */
  add(hex: string, seq: number, tag: () => number): boolean {
    if (!toDigest(hex, SCRATCH)) return false;
    if (this.#find(SCRATCH) < 0) this.#append(SCRATCH, 0, seq, tag());
    return true;
  }

  #append(source: Uint8Array, at: number, seq: number, tag: number): void {
    if (this.count === this.seqs.length) this.#grow();
    if ((this.count + 1) * 2 > this.#slots.length) this.#rehash(this.#slots.length * 2);
    const index = this.count;
    this.digests.set(source.subarray(at, at + DIGEST_BYTES), index * DIGEST_BYTES);
    this.seqs[index] = seq;
    this.tags[index] = tag;
    this.count += 1;
    const mask = this.#slots.length - 1;
    let slot = slotOf(this.digests, index * DIGEST_BYTES) & mask;
    while (this.#slots[slot] !== 0) slot = (slot + 1) & mask;
    this.#slots[slot] = index + 1;
  }

  #grow(): void {
    const capacity = this.seqs.length * 2;
    const digests = new Uint8Array(capacity * DIGEST_BYTES);
    digests.set(this.digests);
    const seqs = new Float64Array(capacity);
    seqs.set(this.seqs);
    const tags = new Uint16Array(capacity);
    tags.set(this.tags);
    this.digests = digests;
    this.seqs = seqs;
    this.tags = tags;
  }

  #rehash(size: number): void {
    this.#slots = new Int32Array(size);
    const mask = size - 1;
    for (let index = 0; index < this.count; index += 1) {
      let slot = slotOf(this.digests, index * DIGEST_BYTES) & mask;
      while (this.#slots[slot] !== 0) slot = (slot + 1) & mask;
      this.#slots[slot] = index + 1;
    }
  }

  /** Exactly the first `count` entries, so equal tables give equal bytes whatever their capacity. */
  parts(): Uint8Array[] {
    const n = this.count;
    return [
      this.digests.subarray(0, n * DIGEST_BYTES),
      new Uint8Array(this.seqs.buffer, 0, n * 8),
      new Uint8Array(this.tags.buffer, 0, n * 2),
    ];
  }

  static from(count: number, digests: Uint8Array, seqs: Float64Array, tags: Uint16Array): DigestTable {
    const table = new DigestTable(Math.max(1024, count));
    table.digests.set(digests);
    table.seqs.set(seqs);
    table.tags.set(tags);
    table.count = count;
    table.#rehash(slotsFor(Math.max(1024, count)));
    return table;
  }
}

const SCRATCH = new Uint8Array(DIGEST_BYTES);

function slotsFor(capacity: number): number {
  let size = 2048;
  while (size < capacity * 2) size *= 2;
  return size;
}

/** The digest's first 8 bytes mixed: SHA-256 output is uniform already, but a fixture may not be. */
function slotOf(bytes: Uint8Array, at: number): number {
  const a = (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
  const b = (bytes[at + 4]! << 24) | (bytes[at + 5]! << 16) | (bytes[at + 6]! << 8) | bytes[at + 7]!;
  return (Math.imul(a, 0x9e3779b1) ^ Math.imul(b ^ (b >>> 15), 0x85ebca6b)) >>> 0;
}

function sameDigest(digests: Uint8Array, at: number, scratch: Uint8Array): boolean {
  for (let i = 0; i < DIGEST_BYTES; i += 1) if (digests[at + i] !== scratch[i]) return false;
  return true;
}

/** Writes a lower-case 64-hex digest's bytes into `out`; false for anything else. */
function toDigest(hex: string, out: Uint8Array): boolean {
  if (hex.length !== 64) return false;
  for (let i = 0; i < DIGEST_BYTES; i += 1) {
    const hi = hex.charCodeAt(2 * i);
    const lo = hex.charCodeAt(2 * i + 1);
    const byte = hi < 128 && lo < 128 ? PAIR[(hi << 7) | lo]! : -1;
    if (byte < 0) return false;
    out[i] = byte;
  }
  return true;
}

/** What the ledger index answers and how its fold adds to it, in the heap or on a read-model file. */
export interface LedgerIndexState {
  /** Events folded (every event has one hash). */
  count: number;
  /** The seq of the event with this hash. */
  eventSeq(hash: string): number | undefined;
  /** Where an artifact with this hash was first recorded. */
  artifact(hash: string): ArtifactLocation | undefined;
  addEvent(hash: string, seq: number): void;
  addArtifact(artifact: ArtifactRef, seq: number): void;
}

/** In the heap: digests as bytes in typed arrays (see the module comment). */
export class HeapLedgerIndex implements LedgerIndexState {
  /** Events folded (every event has one hash). */
  count = 0;
  /** event hash → seq */
  readonly events: DigestTable;
  /** artifact hash → where it was recorded (first recording wins); tag = index in `kinds`. */
  readonly artifacts: DigestTable;
  readonly kinds: string[];
  /** Hashes that are not lower-case 64-hex digests, kept as strings. */
  readonly otherEvents: Map<string, number>;
  readonly otherArtifacts: Map<string, ArtifactLocation>;

  constructor(
    parts: {
      count: number;
      events: DigestTable;
      artifacts: DigestTable;
      kinds: string[];
      otherEvents: [string, number][];
      otherArtifacts: [string, ArtifactLocation][];
    } = {
      count: 0,
      events: new DigestTable(),
      artifacts: new DigestTable(),
      kinds: [],
      otherEvents: [],
      otherArtifacts: [],
    },
  ) {
    this.count = parts.count;
    this.events = parts.events;
    this.artifacts = parts.artifacts;
    this.kinds = parts.kinds;
    this.otherEvents = new Map(parts.otherEvents);
    this.otherArtifacts = new Map(parts.otherArtifacts);
  }

  /** The seq of the event with this hash. */
  eventSeq(hash: string): number | undefined {
    const at = this.events.get(hash);
    return at >= 0 ? this.events.seqs[at] : this.otherEvents.get(hash);
  }

  /** Where an artifact with this hash was first recorded. */
  artifact(hash: string): ArtifactLocation | undefined {
    const at = this.artifacts.get(hash);
    if (at < 0) return this.otherArtifacts.get(hash);
    return { kind: this.kinds[this.artifacts.tags[at]!]!, seq: this.artifacts.seqs[at]! };
  }

  addEvent(hash: string, seq: number): void {
    if (!this.events.add(hash, seq, noTag) && !this.otherEvents.has(hash)) this.otherEvents.set(hash, seq);
  }

  addArtifact(artifact: ArtifactRef, seq: number): void {
    const kindTag = (): number => {
      const tag = this.kinds.indexOf(artifact.kind);
      return tag >= 0 ? tag : this.kinds.push(artifact.kind) - 1;
    };
    if (!this.artifacts.add(artifact.hash, seq, kindTag) && !this.otherArtifacts.has(artifact.hash))
      this.otherArtifacts.set(artifact.hash, { kind: artifact.kind, seq });
  }
}

const noTag = (): number => 0;

/**
 * On a read-model file: event and artifact hashes as digest sets (`DiskDigests`: 32-byte keys, a
 * seq and a tag; the artifact's kind is its tag, an index in `kinds`), with any other hash string
 * as a record of a plain collection, as the heap keeps those in Maps. The heap keeps the count and
 * the kinds. The first recording of a hash wins, as in the heap.
 */
class DiskLedgerIndex implements LedgerIndexState {
  count: number;
  readonly kinds: string[];
  readonly #events: DiskDigests;
  readonly #artifacts: DiskDigests;
  readonly #otherEvents: DiskCollection<number>;
  readonly #otherArtifacts: DiskCollection<ArtifactLocation>;

  constructor(file: ReadModelFile, count: number, kinds: string[]) {
    this.count = count;
    this.kinds = kinds;
    this.#events = file.digests('ledger-index.events');
    this.#artifacts = file.digests('ledger-index.artifacts');
    this.#otherEvents = file.collection('ledger-index.other_events');
    this.#otherArtifacts = file.collection('ledger-index.other_artifacts');
  }

  eventSeq(hash: string): number | undefined {
    return this.#events.get(hash)?.seq ?? this.#otherEvents.get(hash);
  }

  artifact(hash: string): ArtifactLocation | undefined {
    const found = this.#artifacts.get(hash);
    if (found) return { kind: this.kinds[found.tag]!, seq: found.seq };
    const other = this.#otherArtifacts.get(hash);
    return other === undefined ? undefined : { kind: other.kind, seq: other.seq };
  }

  /**
   * No look-up: the first recording wins as in the heap, checked by the flush (an event's hash
   * commits to its seq, so no two events of a chain share one anyway).
   */
  addEvent(hash: string, seq: number): void {
    if (!this.#events.insertIfAbsent(hash, seq, 0)) this.#otherEvents.insertIfAbsent(hash, seq);
  }

  /** The first recording wins, checked by the flush (no read of the file per artifact). */
  addArtifact(artifact: ArtifactRef, seq: number): void {
    let tag = this.kinds.indexOf(artifact.kind);
    if (tag < 0) tag = this.kinds.push(artifact.kind) - 1;
    if (!this.#artifacts.insertIfAbsent(artifact.hash, seq, tag))
      this.#otherArtifacts.insertIfAbsent(artifact.hash, { kind: artifact.kind, seq });
  }
}

function openOnDisk(
  file: ReadModelFile,
  stored: Record<string, unknown> | null,
): DiskState<LedgerIndexState> {
  const kinds = Array.isArray(stored?.kinds) ? (stored.kinds as string[]).slice() : [];
  const state = new DiskLedgerIndex(file, typeof stored?.count === 'number' ? stored.count : 0, kinds);
  return { state, aggregates: () => ({ count: state.count, kinds: state.kinds }) };
}

function artifactsOf(event: SealedEvent): ArtifactRef[] {
  const data = event.data as { artifacts?: unknown } | null;
  if (!data || typeof data !== 'object' || !Array.isArray(data.artifacts)) return [];
  return (data.artifacts as unknown[]).filter(
    (a): a is ArtifactRef =>
      typeof a === 'object' &&
      a !== null &&
      typeof (a as ArtifactRef).kind === 'string' &&
      typeof (a as ArtifactRef).hash === 'string',
  );
}

interface SnapshotHeader {
  count: number;
  events: number;
  artifacts: number;
  kinds: string[];
  otherEvents: [string, number][];
  otherArtifacts: [string, ArtifactLocation][];
}

/**
 * `[u32 header length][header JSON][events: digests, seqs (f64), tags (u16)][artifacts: same]`,
 * little-endian as the typed arrays hold them.
 */
function encode(view: LedgerIndexState): Uint8Array {
  if (!(view instanceof HeapLedgerIndex)) throw new TypeError('only the heap ledger index has a snapshot');
  const state = view;
  const header: SnapshotHeader = {
    count: state.count,
    events: state.events.count,
    artifacts: state.artifacts.count,
    kinds: state.kinds,
    otherEvents: [...state.otherEvents],
    otherArtifacts: [...state.otherArtifacts],
  };
  const head = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(head.length);
  return Buffer.concat([length, head, ...state.events.parts(), ...state.artifacts.parts()]);
}

function decode(bytes: Uint8Array): LedgerIndexState {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headLength = buffer.readUInt32LE(0);
  const header = JSON.parse(buffer.toString('utf8', 4, 4 + headLength)) as SnapshotHeader;
  let at = 4 + headLength;
  // Copies (not views): the source may be unaligned for a Float64Array, and tables grow anyway.
  const take = (n: number): Uint8Array => {
    const out = Uint8Array.prototype.slice.call(buffer, at, at + n);
    at += n;
    return out;
  };
  const table = (n: number): DigestTable => {
    const digests = take(n * DIGEST_BYTES);
    const seqs = new Float64Array(take(n * 8).buffer);
    const tags = new Uint16Array(take(n * 2).buffer);
    return DigestTable.from(n, digests, seqs, tags);
  };
  const events = table(header.events);
  const artifacts = table(header.artifacts);
  return new HeapLedgerIndex({ ...header, events, artifacts });
}

export const ledgerIndex: Projection<LedgerIndexState> = {
  name: 'ledger-index',
  // 2: hashes as bytes in typed arrays, with a binary snapshot. 3: on the read-model file, the
  // hashes as digest sets (32-byte keys) instead of JSON records keyed by their hex.
  version: 3,
  init: () => new HeapLedgerIndex(),
  evolve(state, event) {
    state.addEvent(event.hash, event.seq);
    state.count += 1;
    for (const artifact of artifactsOf(event)) state.addArtifact(artifact, event.seq);
    return state;
  },
  encode,
  decode,
  openOnDisk,
};
