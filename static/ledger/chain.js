// Chain verification for the explorer: walks the ledger from seq 1 up to the page shown, in API
// pages, with the SDK's verifyChain (SHA-256 via @noble/hashes, RFC 8785 canonical JSON), and
// remembers how far it got, so paging back costs nothing and paging forward verifies only the rest.
import { verifyChain } from '/sdk/plumbline.js';
import { fetchPage, MAX_PAGE } from './api.js';

const GENESIS = Object.freeze({ seq: 0, hash: '0'.repeat(64) });

/** The SDK's issue codes in words. */
export const ISSUE_TEXT = {
  content_hash_mismatch: 'content hash mismatch',
  hash_mismatch: 'link hash mismatch',
  broken_link: 'prev_hash does not match the previous event’s hash',
  seq_gap: 'gap in the sequence',
};

export class ChainCheck {
  #key;
  #queue = Promise.resolve();
  /** The last verified event ({seq, hash}); seq 0 before anything is verified. */
  tip = GENESIS;
  /** The first bad link found ({seq, code, text}), after which nothing is verified. */
  broken = null;
  /** Redacted events among the verified ones (link-level check only). */
  redacted = 0;

  constructor(key) {
    this.#key = key;
  }

  get verifiedThrough() {
    return this.tip.seq;
  }

  /**
   * Verifies up to seq `through`. `page` ({after, events}) is the page on screen: when it starts
   * right at the tip it is verified as fetched, so the rows shown are the rows checked. Calls are
   * queued so fast paging never verifies the same range twice.
   */
  extendTo(through, page, onProgress) {
    const run = () => this.#extend(through, page, onProgress);
    this.#queue = this.#queue.then(run, run);
    return this.#queue;
  }

  async #extend(through, page, onProgress) {
    while (this.broken === null && this.tip.seq < through) {
      const events =
        page && page.after === this.tip.seq && page.events.length > 0
          ? page.events
          : (await fetchPage(this.#key, this.tip.seq, Math.min(MAX_PAGE, through - this.tip.seq))).events;
      if (events.length === 0) return; // the ledger ends before `through`
      this.#check(events);
      onProgress?.(this.tip.seq, through);
    }
  }

  #check(events) {
    const result = verifyChain(events, { from: this.tip });
    const firstBad = result.ok ? null : result.issues[0];
    for (const event of events) {
      if (firstBad && event.seq >= firstBad.seq) break;
      if (event.type === 'Redacted') this.redacted += 1;
      this.tip = { seq: event.seq, hash: event.hash };
    }
    if (firstBad) {
      this.broken = {
        seq: firstBad.seq,
        code: firstBad.code,
        text: ISSUE_TEXT[firstBad.code] ?? firstBad.code,
      };
    }
  }

  /** 'verified' | 'broken' | 'after-break' | 'pending' for one seq. */
  statusOf(seq) {
    if (seq <= this.tip.seq) return 'verified';
    if (this.broken === null) return 'pending';
    return seq === this.broken.seq ? 'broken' : 'after-break';
  }
}
