/**
 * RFC 9162 §2.1 Merkle tree hashing and proof verification (the RFC 6962 tree): leaf hash
 * SHA-256(0x00 || data), interior SHA-256(0x01 || left || right), and the verification algorithms
 * of §2.1.3.2 (inclusion) and §2.1.4.2 (consistency), step for step, so a client checks what the
 * log proves without trusting it. Pure and synchronous (SHA-256 from @noble/hashes: WebCrypto's
 * digest is async and missing on plain-http pages).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, equalBytes } from './bytes.js';

export const HASH_SIZE = 32;

const LEAF_PREFIX = new Uint8Array([0x00]);
const NODE_PREFIX = new Uint8Array([0x01]);

/** MTH of one entry: SHA-256(0x00 || data). */
export function hashLeaf(data: Uint8Array): Uint8Array {
  return sha256(concatBytes(LEAF_PREFIX, data));
}

/** An interior node: SHA-256(0x01 || left || right). */
export function hashChildren(left: Uint8Array, right: Uint8Array): Uint8Array {
  return sha256(concatBytes(NODE_PREFIX, left, right));
}

/** The root of an empty tree: SHA-256 of the empty string. */
export const EMPTY_ROOT: Uint8Array = sha256(new Uint8Array(0));

const isHash = (h: Uint8Array): boolean => h.length === HASH_SIZE;

/** Sizes and indexes are JavaScript integers: exact up to 2^53 − 1, far beyond any ledger. */
const isIndex = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;

/** Right-shift by one for values beyond 2^31 (JavaScript's >> is 32-bit). */
const half = (n: number): number => Math.floor(n / 2);
const lsb = (n: number): boolean => n % 2 === 1;

function isPowerOfTwo(n: number): boolean {
  let m = n;
  while (m > 1 && !lsb(m)) m = half(m);
  return m === 1;
}

/**
 * RFC 9162 §2.1.3.2: the root that `inclusionPath` leads to from `leafHash` at `leafIndex` in a
 * tree of `treeSize`, or null when the path cannot be a valid one (wrong length, index ≥ size).
 */
export function rootFromInclusionProof(
  leafIndex: number,
  treeSize: number,
  leafHash: Uint8Array,
  inclusionPath: readonly Uint8Array[],
): Uint8Array | null {
  if (!isIndex(leafIndex) || !isIndex(treeSize) || leafIndex >= treeSize) return null;
  if (!isHash(leafHash) || !inclusionPath.every(isHash)) return null;
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r = leafHash;
  for (const p of inclusionPath) {
    if (sn === 0) return null;
    if (lsb(fn) || fn === sn) {
      r = hashChildren(p, r);
      if (!lsb(fn)) {
        while (!lsb(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      r = hashChildren(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 ? r : null;
}

/** RFC 9162 §2.1.3.2: does `inclusionPath` prove `leafHash` at `leafIndex` under `rootHash`? */
export function verifyInclusion(
  leafIndex: number,
  treeSize: number,
  leafHash: Uint8Array,
  inclusionPath: readonly Uint8Array[],
  rootHash: Uint8Array,
): boolean {
  const root = rootFromInclusionProof(leafIndex, treeSize, leafHash, inclusionPath);
  return root !== null && isHash(rootHash) && equalBytes(root, rootHash);
}

/**
 * RFC 9162 §2.1.4.2: does `consistencyPath` prove that the tree of `firstSize` with `firstHash`
 * is a prefix of the tree of `secondSize` with `secondHash`? The trivial cases the algorithm
 * leaves out are decided as RFC 9162 §2.1.4 implies: equal sizes need equal roots and an empty
 * proof, an empty first tree is a prefix of anything (with an empty proof), and a tree never
 * shrinks.
 */
export function verifyConsistencyProof(
  firstSize: number,
  secondSize: number,
  firstHash: Uint8Array,
  secondHash: Uint8Array,
  consistencyPath: readonly Uint8Array[],
): boolean {
  if (!isIndex(firstSize) || !isIndex(secondSize) || firstSize > secondSize) return false;
  if (!isHash(firstHash) || !isHash(secondHash) || !consistencyPath.every(isHash)) return false;
  if (firstSize === secondSize) return consistencyPath.length === 0 && equalBytes(firstHash, secondHash);
  if (firstSize === 0) return consistencyPath.length === 0;
  // 1. An empty path fails.
  if (consistencyPath.length === 0) return false;
  // 2. If first is an exact power of 2, prepend first_hash.
  const path = isPowerOfTwo(firstSize) ? [firstHash, ...consistencyPath] : [...consistencyPath];
  // 3. fn = first − 1, sn = second − 1.
  let fn = firstSize - 1;
  let sn = secondSize - 1;
  // 4. While LSB(fn) is set, right-shift fn and sn.
  while (lsb(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  // 5. fr = sr = the first value of the path.
  let fr = path[0] as Uint8Array;
  let sr = fr;
  // 6. For each subsequent value c.
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (lsb(fn) || fn === sn) {
      fr = hashChildren(c, fr);
      sr = hashChildren(c, sr);
      if (!lsb(fn)) {
        while (!lsb(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      sr = hashChildren(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  // 7. fr = first_hash, sr = second_hash, sn = 0.
  return sn === 0 && equalBytes(fr, firstHash) && equalBytes(sr, secondHash);
}
