/**
 * The Merkle tree of RFC 9162 §2.1 (the tree of RFC 6962): leaf hash = SHA-256(0x00 ‖ input),
 * interior node = SHA-256(0x01 ‖ left ‖ right), the left subtree of n leaves holding the largest
 * power of two smaller than n. Pure: proofs are built from a `HashSource` that answers the hash of
 * any complete (perfect, aligned) subtree, so the same algorithms run over tiles in a database, an
 * in-memory array, or the RFC's test vectors.
 */
import { hash } from 'node:crypto';

export const HASH_SIZE = 32;

const LEAF_PREFIX = Buffer.from([0x00]);
const NODE_PREFIX = Buffer.from([0x01]);

export function leafHash(input: string | Uint8Array): Buffer {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  return hash('sha256', Buffer.concat([LEAF_PREFIX, bytes]), 'buffer');
}

/**
 * One 65-byte input reused for every interior node: a tree of n leaves hashes n − 1 of them, and
 * concatenating into a fresh buffer each time cost about as much as the hash (ledger:verify).
 */
export const NODE_INPUT_SIZE = 1 + 2 * HASH_SIZE;
const NODE_INPUT = Buffer.alloc(NODE_INPUT_SIZE, 0x01);

export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  if (left.length !== HASH_SIZE || right.length !== HASH_SIZE)
    return hash('sha256', Buffer.concat([NODE_PREFIX, left, right]), 'buffer');
  NODE_INPUT.set(left, 1);
  NODE_INPUT.set(right, 1 + HASH_SIZE);
  return hash('sha256', NODE_INPUT, 'buffer');
}

/** MTH({}) = SHA-256 of the empty string. */
export const EMPTY_ROOT: Buffer = hash('sha256', Buffer.alloc(0), 'buffer');

/**
 * The hash of the complete subtree of height `level` whose leftmost leaf is `index << level`
 * (level 0: the leaf hash of leaf `index`). Only ever asked for subtrees entirely inside the tree.
 */
export interface HashSource {
  node(level: number, index: number): Buffer;
}

/** The largest power of two strictly smaller than n (n ≥ 2). */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * MTH(D[start:end]) for a range that is a subtree of the RFC's recursion (start a multiple of the
 * largest power of two ≤ end − start): its complete subtrees from the left, folded from the right.
 */
export function rangeRoot(src: HashSource, start: number, end: number): Buffer {
  if (end <= start) return EMPTY_ROOT;
  const parts: Buffer[] = [];
  let at = start;
  while (at < end) {
    let level = 0;
    // The largest aligned complete subtree starting at `at` that ends at or before `end`.
    while (at % 2 ** (level + 1) === 0 && at + 2 ** (level + 1) <= end) level += 1;
    parts.push(src.node(level, at / 2 ** level));
    at += 2 ** level;
  }
  let root = parts[parts.length - 1]!;
  for (let i = parts.length - 2; i >= 0; i -= 1) root = nodeHash(parts[i]!, root);
  return root;
}

/** MTH over a list of leaf hashes (tests, small trees). */
export function rootOfLeafHashes(leaves: readonly Buffer[]): Buffer {
  return rangeRoot(memorySource(leaves), 0, leaves.length);
}

/** A HashSource over leaf hashes held in memory (interior nodes computed on demand). */
export function memorySource(leaves: readonly Buffer[]): HashSource {
  const node = (level: number, index: number): Buffer =>
    level === 0 ? leaves[index]! : nodeHash(node(level - 1, 2 * index), node(level - 1, 2 * index + 1));
  return { node };
}

/** PATH(m, D[0:n]) of RFC 9162 §2.1.3.1: the audit path of leaf `index` in the tree of `size`. */
export function inclusionProof(src: HashSource, index: number, size: number): Buffer[] {
  if (!(index >= 0 && index < size)) throw new RangeError(`leaf ${index} is not in a tree of size ${size}`);
  const proof: Buffer[] = [];
  const walk = (m: number, a: number, b: number): void => {
    const n = b - a;
    if (n === 1) return;
    const k = splitPoint(n);
    if (m - a < k) {
      walk(m, a, a + k);
      proof.push(rangeRoot(src, a + k, b));
    } else {
      walk(m, a + k, b);
      proof.push(rangeRoot(src, a, a + k));
    }
  };
  walk(index, 0, size);
  return proof;
}

/** PROOF(m, D[0:n]) of RFC 9162 §2.1.4.1: consistency of the tree of size m with that of size n. */
export function consistencyProof(src: HashSource, m: number, n: number): Buffer[] {
  if (!(m >= 0 && m <= n)) throw new RangeError(`no consistency proof from ${m} to ${n}`);
  if (m === 0 || m === n) return [];
  const proof: Buffer[] = [];
  // SUBPROOF(m, D[a:b], isStart) with m relative to a.
  const sub = (mm: number, a: number, b: number, isStart: boolean): void => {
    const n2 = b - a;
    if (mm === n2) {
      if (!isStart) proof.push(rangeRoot(src, a, b));
      return;
    }
    const k = splitPoint(n2);
    if (mm <= k) {
      sub(mm, a, a + k, isStart);
      proof.push(rangeRoot(src, a + k, b));
    } else {
      sub(mm - k, a + k, b, false);
      proof.push(rangeRoot(src, a, a + k));
    }
  };
  sub(m, 0, n, true);
  return proof;
}

/** The root an inclusion proof leads to (RFC 9162 §2.1.3.2), or null when the proof is malformed. */
export function rootFromInclusionProof(
  index: number,
  size: number,
  leaf: Uint8Array,
  proof: readonly Uint8Array[],
): Buffer | null {
  if (!(Number.isSafeInteger(index) && Number.isSafeInteger(size) && index >= 0 && index < size)) return null;
  let fn = index;
  let sn = size - 1;
  let r: Buffer = Buffer.from(leaf);
  for (const p of proof) {
    if (p.length !== HASH_SIZE || sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : null;
}

export function verifyInclusion(
  index: number,
  size: number,
  leaf: Uint8Array,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  const computed = rootFromInclusionProof(index, size, leaf, proof);
  return computed !== null && computed.equals(root);
}

/** RFC 9162 §2.1.4.2; size 0 is consistent with anything (empty proof), equal sizes need equal roots. */
export function verifyConsistency(
  first: number,
  second: number,
  firstRoot: Uint8Array,
  secondRoot: Uint8Array,
  proof: readonly Uint8Array[],
): boolean {
  if (!(Number.isSafeInteger(first) && Number.isSafeInteger(second) && first >= 0 && first <= second))
    return false;
  if (proof.some((p) => p.length !== HASH_SIZE)) return false;
  if (first === 0) return proof.length === 0;
  if (first === second) return proof.length === 0 && Buffer.from(firstRoot).equals(secondRoot);
  if (proof.length === 0) return false;
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr: Buffer = Buffer.from(path[0]!);
  let sr: Buffer = Buffer.from(path[0]!);
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && fr.equals(firstRoot) && sr.equals(secondRoot);
}

function isPowerOfTwo(n: number): boolean {
  let k = 1;
  while (k < n) k *= 2;
  return k === n;
}
