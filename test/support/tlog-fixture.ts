/**
 * A stand-in transparency log for client-side tests (witness, monitor, audit): leaves in memory,
 * checkpoints signed with a fixed Ed25519 log key, and RFC 9162 proofs from the log's own tree code
 * (src/platform/tlog/merkle.ts), so the client verifiers are checked against the server's proofs.
 */
import {
  consistencyProof,
  leafHash,
  memorySource,
  rootOfLeafHashes,
} from '../../src/platform/tlog/merkle.js';
import { keyFromSeed, type CosignerKey } from '../../src/witness/key.js';

export const LOG_ORIGIN = 'plumbline.test/ledger';

/** Fixed test keys (seeds of 32 equal bytes), so runs are reproducible. */
const fixedKey = (name: string, fill: number): CosignerKey =>
  keyFromSeed(name, new Uint8Array(32).fill(fill));

export const logKey = (origin = LOG_ORIGIN): CosignerKey => fixedKey(origin, 0x01);
export const witnessKey = (name = 'witness.test/w1'): CosignerKey => fixedKey(name, 0x02);

/** An in-memory log of string entries. */
export class TestLog {
  readonly leaves: Buffer[] = [];
  constructor(
    readonly key: CosignerKey = logKey(),
    readonly origin = LOG_ORIGIN,
  ) {}

  append(...entries: string[]): this {
    for (const e of entries) this.leaves.push(leafHash(e));
    return this;
  }

  get size(): number {
    return this.leaves.length;
  }

  /** The checkpoint text of the first `size` leaves. */
  text(size = this.size): string {
    return `${this.origin}\n${size}\n${rootOfLeafHashes(this.leaves.slice(0, size)).toString('base64')}\n`;
  }

  /** The signed checkpoint note of the first `size` leaves. */
  checkpoint(size = this.size): string {
    const text = this.text(size);
    return `${text}\n${this.key.signNote(text)}\n`;
  }

  consistency(from: number, to = this.size): string[] {
    return consistencyProof(memorySource(this.leaves), from, to).map((h) => h.toString('base64'));
  }

  /** A tlog-witness add-checkpoint body. */
  addCheckpointBody(oldSize: number, size = this.size): string {
    const proof = this.consistency(oldSize, size);
    return `old ${oldSize}\n${proof.map((p) => `${p}\n`).join('')}\n${this.checkpoint(size)}`;
  }
}
