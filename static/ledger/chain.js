// Page verification against the transparency log (docs/transparency-log.md): the page's events are
// checked on their own — content and link hashes with the SDK's verifyChain — and then anchored in
// the log: the last good event's receipt (its inclusion proof under a checkpoint signed by the log's
// key) verifies with the SDK's verifyReceipt, and since every event's hash commits to the one before
// it, that one proof covers every event of the page before it. Each newer checkpoint must be
// consistent with the last one verified in this tab (verifyConsistency), so paging can never be
// shown two histories. Nothing is rehashed from seq 1.
import {
  parseVerifierKey,
  verifyChain,
  verifyCheckpoint,
  verifyConsistency,
  verifyReceipt,
} from '/sdk/plumbline.js';
import { fetchConsistency, fetchReceipt } from './api.js';

/** The SDK's issue and failure codes in words. */
export const ISSUE_TEXT = {
  content_hash_mismatch: 'content hash mismatch',
  hash_mismatch: 'link hash mismatch',
  broken_link: 'prev_hash does not match the previous event’s hash',
  seq_gap: 'gap in the sequence',
  malformed: 'the log answered no receipt for it',
  bad_checkpoint: 'the checkpoint is not signed by the log key',
  event_hash_mismatch: 'the receipt’s event does not hash to its own hash',
  size_mismatch: 'the receipt and its checkpoint disagree on the tree size',
  index_mismatch: 'the receipt names another leaf',
  not_included: 'not in the log: the inclusion proof does not lead to the signed root',
  other_event: 'the log holds another event at this seq',
  other_page: 'the ledger answered events other than the page asked for',
  rollback: 'rollback: the log shows a smaller tree than it signed before',
  split_view: 'split view: the log’s checkpoints are not one append-only history',
  origin_mismatch: 'the checkpoint is another log’s',
  malformed_proof: 'the consistency proof is malformed',
};

const SAME_LINK = (a, b) =>
  a.seq === b.seq && a.hash === b.hash && a.prev_hash === b.prev_hash && a.content_hash === b.content_hash;

export class LogCheck {
  #key;
  #logKey;
  /** The newest checkpoint verified in this tab ({origin, size, root}); each later one must extend it. */
  checkpoint = null;
  /** For the page shown: the last seq verified, the first problem ({seq, code, text}), redacted count. */
  verifiedThrough = 0;
  broken = null;
  redacted = 0;
  #pageFirst = 0;

  /** `logKey` is the log's verifier key text; throws the SDK's NoteError when it is not one. */
  constructor(key, logKey) {
    this.#key = key;
    this.#logKey = parseVerifierKey(logKey);
  }

  get origin() {
    return this.#logKey.name;
  }

  /** Verifies the page ({after, events}) shown. */
  async verifyPage(page) {
    const events = page.events;
    // The page asked for starts at after + 1, whatever the server answered.
    this.#pageFirst = page.after + 1;
    this.verifiedThrough = page.after;
    this.broken = null;
    this.redacted = 0;
    if (events.length === 0) return;
    // Rows from further back than asked read as verified before any anchor (verifiedThrough starts
    // at `after`): a server answering them — a tampered one among them — had them all shown
    // '✓ verified', the tampered one too, under a banner calling it broken.
    if (events[0].seq !== page.after + 1) {
      this.broken = { seq: events[0].seq, code: 'other_page', text: ISSUE_TEXT.other_page };
      return;
    }
    const chain = verifyChain(events);
    const issue = chain.ok ? null : chain.issues[0];
    const good = issue ? events.filter((e) => e.seq < issue.seq) : events;
    if (issue) this.broken = { seq: issue.seq, code: issue.code, text: ISSUE_TEXT[issue.code] ?? issue.code };
    const anchor = good.at(-1);
    if (!anchor) return;
    const failure = await this.anchor(anchor);
    if (failure) {
      this.broken = { seq: anchor.seq, code: failure, text: ISSUE_TEXT[failure] ?? failure };
      return;
    }
    this.verifiedThrough = anchor.seq;
    this.redacted = good.filter((e) => e.type === 'Redacted').length;
  }

  /** Null when `event` is proven in the log under a checkpoint consistent with the ones seen; else why not. */
  async anchor(event) {
    const receipt = await fetchReceipt(this.#key, event.seq);
    const result = await verifyReceipt(receipt, this.#logKey);
    if (!result.valid) return result.reason;
    if (!SAME_LINK(receipt.event, event)) return 'other_event';
    const next = result.checkpoint;
    const prev = this.checkpoint;
    if (prev && next.size < prev.size) return 'rollback';
    if (prev && next.size === prev.size) {
      const same = verifyConsistency(prev, next, []);
      if (!same.ok) return same.reason;
    } else if (prev) {
      const proof = await fetchConsistency(this.#key, prev.size, next.size);
      if (typeof proof.checkpoint === 'string') {
        let signed;
        try {
          signed = await verifyCheckpoint(proof.checkpoint, this.#logKey);
        } catch {
          return 'bad_checkpoint';
        }
        const same = verifyConsistency(next, signed, []);
        if (!same.ok) return same.reason;
      }
      const consistent = verifyConsistency(prev, next, proof.consistency_proof ?? []);
      if (!consistent.ok) return consistent.reason;
    }
    this.checkpoint = { origin: next.origin, size: next.size, root: next.root };
    return null;
  }

  /** 'verified' | 'broken' | 'after-break' | 'pending' for one seq of the page. */
  statusOf(seq) {
    if (seq >= this.#pageFirst && seq <= this.verifiedThrough) return 'verified';
    if (this.broken === null) return 'pending';
    if (seq === this.broken.seq) return 'broken';
    return seq > this.broken.seq ? 'after-break' : 'pending';
  }
}
