/**
 * A stand-in transparency log for client-side tests (witness, monitor, audit): leaves in memory,
 * checkpoints signed with a fixed Ed25519 log key, and RFC 9162 §2.1.3.1/§2.1.4.1 proofs built by
 * the plain recursive definitions (independent of the verifiers under test).
 */
import { createHash } from 'node:crypto';
import { keyFromSeed, type CosignerKey } from '../../src/witness/key.js';

export const LOG_ORIGIN = 'plumbline.test/ledger';

/** Fixed test keys (seeds of 32 equal bytes), so runs are reproducible. */
const fixedKey = (name: string, fill: number): CosignerKey =>
  keyFromSeed(name, new Uint8Array(32).fill(fill));

export const logKey = (origin = LOG_ORIGIN): CosignerKey => fixedKey(origin, 0x01);
export const witnessKey = (name = 'witness.test/w1'): CosignerKey => fixedKey(name, 0x02);

const sha256 = (...parts: Uint8Array[]): Buffer => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};
export const leafHashOf = (data: Uint8Array): Buffer => sha256(Buffer.from([0]), data);
const node = (l: Uint8Array, r: Uint8Array): Buffer => sha256(Buffer.from([1]), l, r);
const split = (n: number): number => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};

export function mth(leaves: readonly Buffer[]): Buffer {
  if (leaves.length === 0) return sha256();
  if (leaves.length === 1) return leaves[0]!;
  const k = split(leaves.length);
  return node(mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}

export function inclusionPath(leaves: readonly Buffer[], m: number): Buffer[] {
  if (leaves.length <= 1) return [];
  const k = split(leaves.length);
  return m < k
    ? [...inclusionPath(leaves.slice(0, k), m), mth(leaves.slice(k))]
    : [...inclusionPath(leaves.slice(k), m - k), mth(leaves.slice(0, k))];
}

function subproof(m: number, leaves: readonly Buffer[], isStart: boolean): Buffer[] {
  const n = leaves.length;
  if (m === n) return isStart ? [] : [mth(leaves)];
  const k = split(n);
  return m <= k
    ? [...subproof(m, leaves.slice(0, k), isStart), mth(leaves.slice(k))]
    : [...subproof(m - k, leaves.slice(k), false), mth(leaves.slice(0, k))];
}

export function consistencyPath(leaves: readonly Buffer[], m: number, n: number): Buffer[] {
  if (m > n) throw new RangeError(`no consistency proof from ${m} to ${n}`);
  return m === 0 || m === n ? [] : subproof(m, leaves.slice(0, n), true);
}

/** An in-memory log of string entries. */
export class TestLog {
  readonly leaves: Buffer[] = [];
  constructor(
    readonly key: CosignerKey = logKey(),
    readonly origin = LOG_ORIGIN,
  ) {}

  append(...entries: string[]): this {
    for (const e of entries) this.leaves.push(leafHashOf(Buffer.from(e, 'utf8')));
    return this;
  }

  get size(): number {
    return this.leaves.length;
  }

  /** The checkpoint text of the first `size` leaves. */
  text(size = this.size): string {
    return `${this.origin}\n${size}\n${mth(this.leaves.slice(0, size)).toString('base64')}\n`;
  }

  /** The signed checkpoint note of the first `size` leaves. */
  checkpoint(size = this.size): string {
    const text = this.text(size);
    return `${text}\n${this.key.signNote(text)}\n`;
  }

  consistency(from: number, to = this.size): string[] {
    return consistencyPath(this.leaves, from, to).map((h) => h.toString('base64'));
  }

  /** A tlog-witness add-checkpoint body. */
  addCheckpointBody(oldSize: number, size = this.size): string {
    const proof = this.consistency(oldSize, size);
    return `old ${oldSize}\n${proof.map((p) => `${p}\n`).join('')}\n${this.checkpoint(size)}`;
  }
}
