/**
 * SHA-256 digests (lower-case 64-hex in, 32 bytes kept) → a seq and a small tag, in typed arrays with
 * an open-addressing table over them: ~45 bytes an entry instead of a 64-character string key in a
 * dictionary, and nothing for the GC to trace. The heap ledger index keeps its hashes in two of
 * these; a read-model file's digest sets keep their additions between flushes in one.
 */
export const DIGEST_BYTES = 32;
/** Two lower-case hex characters (their codes, 7 bits each) → the byte they spell, or -1. */
const PAIR = new Int16Array(1 << 14).fill(-1);
for (let hi = 0; hi < 16; hi += 1)
  for (let lo = 0; lo < 16; lo += 1)
    PAIR[('0123456789abcdef'.charCodeAt(hi) << 7) | '0123456789abcdef'.charCodeAt(lo)] = (hi << 4) | lo;

/** hash (lower-case 64-hex) → seq and a small tag, insertion-ordered; the first insert of a hash wins. */
export class DigestTable {
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

  /**
   * Adds the digest at `bytes[at…at+32)` unless present (the first addition wins); true when added.
   * For digests already held as bytes (another table's, a stored row's).
   */
  addBytes(bytes: Uint8Array, at: number, seq: number, tag: number): boolean {
    SCRATCH.set(bytes.subarray(at, at + DIGEST_BYTES));
    if (this.#find(SCRATCH) >= 0) return false;
    this.#append(SCRATCH, 0, seq, tag);
    return true;
  }

  /** Whether the table holds the digest at `bytes[at…at+32)`. */
  hasBytes(bytes: Uint8Array, at: number): boolean {
    SCRATCH.set(bytes.subarray(at, at + DIGEST_BYTES));
    return this.#find(SCRATCH) >= 0;
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

  /** The digest of entry `index` (a view of the table's bytes: valid until the next addition). */
  digestAt(index: number): Uint8Array {
    return this.digests.subarray(index * DIGEST_BYTES, (index + 1) * DIGEST_BYTES);
  }

  /** Entry indexes in their digests' byte order (SQLite's order for BLOB keys). */
  inDigestOrder(): number[] {
    const d = this.digests;
    const lead = new Uint32Array(this.count);
    for (let i = 0; i < this.count; i += 1) {
      const at = i * DIGEST_BYTES;
      lead[i] = ((d[at]! << 24) | (d[at + 1]! << 16) | (d[at + 2]! << 8) | d[at + 3]!) >>> 0;
    }
    const order = Array.from({ length: this.count }, (_, i) => i);
    return order.sort((a, b) => {
      if (lead[a] !== lead[b]) return lead[a]! < lead[b]! ? -1 : 1;
      for (let k = 4; k < DIGEST_BYTES; k += 1) {
        const x = d[a * DIGEST_BYTES + k]!;
        const y = d[b * DIGEST_BYTES + k]!;
        if (x !== y) return x < y ? -1 : 1;
      }
      return 0;
    });
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
