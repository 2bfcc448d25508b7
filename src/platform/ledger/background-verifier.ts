/**
 * Keeps a `verified_through` watermark (ARCHITECTURE §3.4): verifies the chain once from the start,
 * then each new suffix as it arrives. A store whose head fell below the watermark — or below the
 * anchor, the position the projections reached — was truncated.
 */
import type { EventStore } from '../event-store/port.js';
import type { LedgerHead } from './envelope.js';
import type { VerifyIssue } from './verify.js';
import { verifyStore } from './verify-store.js';

export interface VerificationStatus {
  ok: boolean;
  verified_through: number;
  head: number;
  issues: VerifyIssue[];
  last_run_at: string | null;
}

export class BackgroundVerifier {
  #watermark: LedgerHead = { seq: 0, hash: '0'.repeat(64) };
  #issues: VerifyIssue[] = [];
  #head = 0;
  #lastRunAt: string | null = null;
  #running: Promise<VerificationStatus> | null = null;
  #timer: NodeJS.Timeout | null = null;

  /**
   * @param anchor a seq the ledger is known to have reached (the projections' position: they only
   *   apply stored events, and start from snapshots at most as new as the ledger was). A head
   *   below it means events were cut off the end, even right after a restart, before any watermark.
   */
  constructor(
    private readonly store: EventStore,
    private readonly now: () => Date,
    private readonly anchor: () => number = () => 0,
  ) {}

  status(): VerificationStatus {
    return {
      ok: this.#issues.length === 0,
      verified_through: this.#watermark.seq,
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
    // The anchor is read before the head: the head only grows, so a seq the projections reached
    // before the head was read is never above a genuine head.
    const reached = Math.max(this.#watermark.seq, this.anchor());
    const head = await this.store.head();
    this.#head = head.seq;
    if (head.seq < reached) {
      this.#issues = [
        {
          code: 'seq_gap',
          seq: head.seq + 1,
          expected: `head ≥ ${reached}`,
          actual: `head ${head.seq} (truncated)`,
        },
      ];
    } else if (this.#issues.length === 0 && head.seq > this.#watermark.seq) {
      const result = await verifyStore(this.store, {
        from: this.#watermark,
        pageSize: 2000,
        betweenPages: () => new Promise<void>((resolve) => setImmediate(resolve)),
      });
      this.#issues = result.issues;
      const throughEvents = await this.store.read(result.verified_through, 1);
      const through = throughEvents[0];
      if (through && through.seq === result.verified_through)
        this.#watermark = { seq: through.seq, hash: through.hash };
    }
    this.#lastRunAt = this.now().toISOString();
    return this.status();
  }

  /** Re-runs every `ms` in the background (unref'd: never keeps the process alive). */
  start(ms: number): void {
    void this.run().catch(() => undefined);
    this.#timer = setInterval(() => void this.run().catch(() => undefined), ms);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    await this.#running?.catch(() => undefined);
  }
}
