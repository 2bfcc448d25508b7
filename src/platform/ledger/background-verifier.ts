/**
 * Keeps a `verified_through` watermark (ARCHITECTURE §3.4): verifies the chain once from the start,
 * then each new suffix as it arrives. A store whose head fell below the watermark — or below the
 * anchor, the position the projections reached — was truncated. Each run also re-verifies a slice
 * of the already verified prefix (a rolling cursor that wraps around), so a row edited, deleted or
 * swapped behind the watermark is found within head / recheckPerRun runs, not only at a restart.
 */
import type { EventStore } from '../event-store/port.js';
import { GENESIS_HASH, type LedgerHead } from './envelope.js';
import type { VerifyIssue } from './verify.js';
import { verifyStore, type VerifyStoreOptions } from './verify-store.js';

/** What the transparency log adds to each run (src/platform/tlog). */
export interface VerifierLogChecks {
  /** The tree's leaves, checked against each verified event (VerifyStoreOptions.tree). */
  tree: NonNullable<VerifyStoreOptions['tree']>;
  /**
   * The last signed checkpoint against the tree and the ledger head, after each clean run. The
   * head is read through `readHead` after the checkpoint was taken: the ledger never shrinks, so a
   * head below it is a truncation, not a race.
   */
  checkpoint(readHead: () => Promise<number>): Promise<VerifyIssue | null>;
}

export interface VerifierOptions {
  log?: VerifierLogChecks;
  /** A failure recorded before this start and not overridden: it stands until an operator acts. */
  recorded?: VerifyIssue | null;
  /** Called once, when the first integrity failure is found. */
  onFailure?: (issue: VerifyIssue) => void;
  /**
   * Walks a long stretch past the watermark off this thread (src/platform/tlog/verify-thread.ts):
   * the same checks, answering only the stored head it verified through, or null when anything did
   * not verify (this verifier's own pass then walks the stretch and names the issue).
   */
  offload?: VerifierOffload;
}

export interface VerifierOffload {
  /** Stretches shorter than this stay on this thread. */
  readonly minEvents: number;
  verify(from: LedgerHead, to: number): Promise<LedgerHead | null>;
  /** Ends a running `verify` (it resolves null). */
  cancel(): Promise<void>;
}

export interface VerificationStatus {
  ok: boolean;
  verified_through: number;
  head: number;
  issues: VerifyIssue[];
  last_run_at: string | null;
}

/** Small pages, yielding to the event loop between them: the server keeps answering meanwhile. */
const PACED = {
  pageSize: 2000,
  betweenPages: () => new Promise<void>((resolve) => setImmediate(resolve)),
};

export class BackgroundVerifier {
  #watermark: LedgerHead = { seq: 0, hash: '0'.repeat(64) };
  #issues: VerifyIssue[] = [];
  #head = 0;
  #lastRunAt: string | null = null;
  #running: Promise<VerificationStatus> | null = null;
  #timer: NodeJS.Timeout | null = null;
  /** Where the next re-verification slice of the verified prefix starts. */
  #recheckFrom = 1;
  /** Set by `stop`: a running pass ends after its page, and no pass starts after it. */
  #stopping = false;
  /** The paced walk's options, ended by `stop`. */
  readonly #paced = { ...PACED, stopped: () => this.#stopping };

  /**
   * @param anchor a seq the ledger is known to have reached (the projections' position: they only
   *   apply stored events, and start from snapshots at most as new as the ledger was). A head
   *   below it means events were cut off the end, even right after a restart, before any watermark.
   * @param recheckPerRun events of the verified prefix re-verified per run (0: never re-check).
   */
  constructor(
    private readonly store: EventStore,
    private readonly now: () => Date,
    private readonly anchor: () => number = () => 0,
    private readonly recheckPerRun = 50_000,
    private readonly options: VerifierOptions = {},
  ) {
    if (options.recorded) this.#issues = [options.recorded];
  }

  /** The first integrity issue standing, or null (cheap: the append path asks it every commit). */
  get failure(): VerifyIssue | null {
    return this.#issues[0] ?? null;
  }

  /**
   * `verified_through` never reaches past a standing failure: an edit behind the watermark (found by
   * a re-check slice, or recorded before this start) leaves the chain verified only up to the seq
   * before it — the watermark alone answered 2,920 for a ledger tampered at seq 2,000.
   */
  status(): VerificationStatus {
    const failure = this.#issues[0];
    return {
      ok: this.#issues.length === 0,
      verified_through: failure
        ? Math.max(0, Math.min(this.#watermark.seq, ...this.#issues.map((i) => i.seq - 1)))
        : this.#watermark.seq,
      head: this.#head,
      issues: [...this.#issues],
      last_run_at: this.#lastRunAt,
    };
  }

  /** Verifies what arrived since the watermark (all of it the first time). */
  run(): Promise<VerificationStatus> {
    this.#running ??= this.#runNow().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  async #runNow(): Promise<VerificationStatus> {
    const before = this.#issues.length;
    let status = await this.#verify();
    if (before === 0 && this.#issues.length > 0) {
      await this.#locateFirst();
      status = this.status();
      this.options.onFailure?.(this.#issues[0]!);
    }
    return status;
  }

  async #verify(): Promise<VerificationStatus> {
    // The anchor is read before the head: the head only grows, so a seq the projections reached
    // before the head was read is never above a genuine head.
    const reached = Math.max(this.#watermark.seq, this.anchor());
    const head = await this.store.head();
    this.#head = head.seq;
    if (this.options.recorded && this.#issues[0] === this.options.recorded) {
      // A recorded failure stands (sticky) until the operator restarts with the override.
    } else if (head.seq < reached) {
      this.#issues = [
        {
          code: 'seq_gap',
          seq: head.seq + 1,
          expected: `head ≥ ${reached}`,
          actual: `head ${head.seq} (truncated)`,
        },
      ];
    } else if (this.#issues.length === 0) {
      const fullPass = this.#watermark.seq === 0;
      this.#watermark = await this.#offloaded(this.#watermark, head.seq);
      if (head.seq > this.#watermark.seq) {
        const result = await verifyStore(this.store, {
          from: this.#watermark,
          ...this.#paced,
          ...(this.options.log ? { tree: this.options.log.tree } : {}),
        });
        this.#issues = result.issues;
        const throughEvents = await this.store.read(result.verified_through, 1);
        const through = throughEvents[0];
        if (through && through.seq === result.verified_through)
          this.#watermark = { seq: through.seq, hash: through.hash };
      }
      // Stopped part way (a shutdown): what was verified stands; no re-check, no checkpoint signed
      // on a pass that did not reach the head (the log signs its own at shutdown).
      if (this.#stopping) {
        this.#lastRunAt = this.now().toISOString();
        return this.status();
      }
      if (!fullPass && this.#issues.length === 0) await this.#recheck();
      const signed =
        this.#issues.length === 0
          ? await this.options.log?.checkpoint(async () => (await this.store.head()).seq)
          : null;
      if (signed) this.#issues = [signed];
    }
    this.#lastRunAt = this.now().toISOString();
    return this.status();
  }

  /**
   * How far the offload verified a long stretch (from, to]: where this thread's paced walk starts,
   * `from` itself when the stretch is short or the offload declined it. Nothing it declines is an
   * issue here: the paced walk from `from` names what is wrong.
   */
  async #offloaded(from: LedgerHead, to: number): Promise<LedgerHead> {
    const offload = this.options.offload;
    if (!offload || to - from.seq < offload.minEvents) return from;
    const through = await offload.verify(from, to).catch(() => null);
    return through && through.seq > from.seq && through.seq <= to ? through : from;
  }

  /**
   * A failure found past the watermark may follow an earlier one (a chain re-hashed from an edit
   * further back links cleanly up to the watermark's old hash): one pass from the genesis, once,
   * names the first bad seq.
   */
  async #locateFirst(): Promise<void> {
    const found = this.#issues[0]!;
    const from = await verifyStore(this.store, {
      stopAtFirstIssue: true,
      to: found.seq,
      ...this.#paced,
      ...(this.options.log ? { tree: this.options.log.tree } : {}),
    });
    const earliest = from.issues[0];
    if (earliest && earliest.seq < found.seq) this.#issues = [earliest, ...this.#issues];
  }

  /** Re-verifies the next slice of the verified prefix, linking from the stored row before it. */
  async #recheck(): Promise<void> {
    if (this.recheckPerRun <= 0 || this.#watermark.seq === 0) return;
    const from = this.#recheckFrom > this.#watermark.seq ? 1 : this.#recheckFrom;
    const to = Math.min(this.#watermark.seq, from + this.recheckPerRun - 1);
    let start: LedgerHead = { seq: 0, hash: GENESIS_HASH };
    if (from > 1) {
      const [row] = await this.store.readRecords(from - 1, 1);
      // A missing row before the slice leaves nothing to link to: the slice's first row then fails.
      start = { seq: from - 1, hash: row?.seq === from - 1 ? row.hash : 'missing' };
    }
    // A long slice on the offload's thread first; what it leaves (or declines) is walked here.
    start = await this.#offloaded(start, to);
    if (start.seq < to && !this.#stopping) {
      const result = await verifyStore(this.store, {
        from: start,
        to,
        ...this.#paced,
        ...(this.options.log ? { tree: this.options.log.tree } : {}),
      });
      if (result.issues.length > 0) this.#issues = result.issues;
    }
    this.#recheckFrom = to >= this.#watermark.seq ? 1 : to + 1;
  }

  /** Re-runs every `ms` in the background (unref'd: never keeps the process alive). */
  start(ms: number): void {
    void this.run().catch(() => undefined);
    this.#timer = setInterval(() => void this.run().catch(() => undefined), ms);
    this.#timer.unref();
  }

  /**
   * Ends the schedule and a running pass after the page it is at (a first pass over a million
   * events took 12.6 s to finish, all of it in a shutdown); a pass started later stops after one.
   */
  async stop(): Promise<void> {
    this.#stopping = true;
    if (this.#timer) clearInterval(this.#timer);
    await this.options.offload?.cancel();
    await this.#running?.catch(() => undefined);
  }
}
