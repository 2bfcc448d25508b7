/**
 * Receipts: an event's link fields, its leaf index, an inclusion proof and the signed checkpoint
 * it is proved against — everything a client needs to check, with the log's verifier key alone,
 * that the ledger recorded the event (docs/transparency-log.md, "Receipt").
 */
import { eventLeafHash, type LeafEvent } from './tree.js';
import type { SignedCheckpoint, TransparencyLog } from './log.js';

export interface ReceiptEvent extends LeafEvent {
  hash: string;
}

export interface Receipt {
  event: { seq: number; prev_hash: string; content_hash: string; hash: string };
  leaf_index: number;
  tree_size: number;
  /** RFC 9162 audit path, base64. */
  inclusion_proof: string[];
  /** The signed checkpoint (with any witness cosignatures held for it). */
  checkpoint: string;
}

/** How long a receipt waits for a checkpoint covering its event (the log signs about once a second). */
export const RECEIPT_WAIT_MS = 2500;

export class ReceiptUnavailable extends Error {
  readonly type = 'receipt_unavailable' as const;
}

/**
 * The tree's leaf for the event is not the event's: the tree and the ledger disagree, an integrity
 * failure no retry mends (the background verifier suspends appends when it reaches it).
 */
export class ReceiptLeafMismatch extends Error {
  readonly type = 'tree_mismatch' as const;
  constructor(readonly seq: number) {
    super(`the log's leaf ${seq - 1} is not the ledger's event ${seq}: the tree and the ledger disagree`);
    this.name = 'ReceiptLeafMismatch';
  }
}

/**
 * The signed checkpoint is larger than the tree: events the log signed are gone from the ledger (a
 * truncated tail), so no proof up to the signed root can be built — an integrity failure no retry
 * mends, like the leaf mismatch. `seq` is the first missing event.
 */
export class ReceiptLogTruncated extends Error {
  readonly type = 'truncated' as const;
  readonly seq: number;
  constructor(signedSize: number, treeSize: number) {
    super(
      `the log signed a checkpoint of size ${signedSize} but holds ${treeSize} events: the ledger lost signed events`,
    );
    this.name = 'ReceiptLogTruncated';
    this.seq = treeSize + 1;
  }
}

/**
 * The receipt of `event` against the latest checkpoint, waiting (bounded) for one that covers it.
 * Throws ReceiptUnavailable when no checkpoint covers it in time; ReceiptLeafMismatch when the
 * tree's leaf is not this event's and ReceiptLogTruncated when the checkpoint is larger than the
 * tree (the tree and the ledger disagree with what was signed: integrity failures, never a receipt).
 */
export async function receiptFor(log: TransparencyLog, event: ReceiptEvent): Promise<Receipt> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), RECEIPT_WAIT_MS);
    timer.unref();
  });
  const checkpoint: SignedCheckpoint | null = await Promise.race([
    log.checkpointCovering(event.seq),
    timeout,
  ]);
  clearTimeout(timer);
  if (!checkpoint) throw new ReceiptUnavailable(`no checkpoint covers seq ${event.seq} yet`);
  if (checkpoint.size > log.tree.size) throw new ReceiptLogTruncated(checkpoint.size, log.tree.size);
  const index = event.seq - 1;
  if (!log.tree.leafHash(index).equals(eventLeafHash(event))) throw new ReceiptLeafMismatch(event.seq);
  return {
    event: { seq: event.seq, prev_hash: event.prev_hash, content_hash: event.content_hash, hash: event.hash },
    leaf_index: index,
    tree_size: checkpoint.size,
    inclusion_proof: log.tree.inclusionProof(index, checkpoint.size).map((h) => h.toString('base64')),
    checkpoint: log.servedCheckpointFor(checkpoint),
  };
}

/** Where a recording response's receipt is served (the `Ledger-Receipt` header names it). */
export function receiptPath(eventHash: string): string {
  return `/api/ledger/receipt?hash=${eventHash}`;
}
