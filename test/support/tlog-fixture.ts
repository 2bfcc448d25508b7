/**
 * A stand-in transparency log for client-side tests (witness, monitor, audit): leaves in memory,
 * checkpoints signed with a fixed Ed25519 log key, and RFC 9162 proofs from the log's own tree code
 * (src/platform/tlog/merkle.ts), so the client verifiers are checked against the server's proofs.
 */
import { createHash } from 'node:crypto';
import {
  consistencyProof,
  inclusionProof,
  leafHash,
  memorySource,
  rootOfLeafHashes,
} from '../../src/platform/tlog/merkle.js';
import { linkInputOf } from '../../src/sdk/chain.js';
import type { LedgerReceipt } from '../../src/sdk/index.js';
import { keyFromSeed, type CosignerKey } from '../../src/witness/key.js';

export const LOG_ORIGIN = 'plumbline.test/ledger';

/** Fixed test keys (seeds of 32 equal bytes), so runs are reproducible. */
const fixedKey = (name: string, fill: number): CosignerKey =>
  keyFromSeed(name, new Uint8Array(32).fill(fill));

export const logKey = (origin = LOG_ORIGIN): CosignerKey => fixedKey(origin, 0x01);
export const witnessKey = (name = 'witness.test/w1'): CosignerKey => fixedKey(name, 0x02);

export interface ChainLink {
  seq: number;
  prev_hash: string;
  content_hash: string;
  hash: string;
}

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Hash-chained ledger links whose content hashes derive from `contents` (one per event). */
export function chainLinks(contents: readonly string[], after: ChainLink | null = null): ChainLink[] {
  const links: ChainLink[] = [];
  let prev = after;
  for (const content of contents) {
    const seq = (prev?.seq ?? 0) + 1;
    const prevHash = prev?.hash ?? '0'.repeat(64);
    const contentHash = sha256Hex(content);
    const link = {
      seq,
      prev_hash: prevHash,
      content_hash: contentHash,
      hash: sha256Hex(linkInputOf(seq, prevHash, contentHash)),
    };
    links.push(link);
    prev = link;
  }
  return links;
}

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

  /** Appends ledger links as the server does: leaf input = the link's JCS line. */
  appendLinks(links: readonly ChainLink[]): this {
    return this.append(...links.map((l) => linkInputOf(l.seq, l.prev_hash, l.content_hash)));
  }

  /** A receipt for `link` (leaf seq − 1) against the checkpoint of `size`. */
  receipt(link: ChainLink, size = this.size): LedgerReceipt {
    return {
      event: { ...link },
      leaf_index: link.seq - 1,
      tree_size: size,
      inclusion_proof: inclusionProof(memorySource(this.leaves), link.seq - 1, size).map((h) =>
        h.toString('base64'),
      ),
      checkpoint: this.checkpoint(size),
    };
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
