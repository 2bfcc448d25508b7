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
import { DIGEST_BYTES, DigestTable } from '../src/platform/projections/digest-table.js';
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
