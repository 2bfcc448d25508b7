/**
 * The payment outbox (issue 14 item 6): a recorded `PaymentPushed` carries everything its pain.001
 * needs, so the instruction is generated from the event (same bytes every time) and delivered
 * after the fact, never before it. Driven by the ledger subscription: every applied
 * `PaymentPushed` (this node's or another writer's) wakes it; a failed delivery is recorded
 * (`PaymentInstructionFailed`, with the next attempt's time) and retried with exponential
 * backoff; a success is recorded once (`PaymentInstructionDelivered`, under an event id derived
 * from the payment, so two nodes delivering the same payment record it once). The file rail is
 * idempotent (temp + rename, named by message id), so a repeated delivery rewrites the same bytes.
 */
import { governance, type GovernanceState } from '../../projections/governance.js';
import type { Clock } from '../platform/clock.js';
import { sha256Hex } from '../platform/crypto/hash.js';
import { derivedEventId } from '../platform/ids.js';
import type { Ledger } from '../platform/ledger/ledger.js';
import type { Logger } from '../platform/log.js';
import type { ProjectionRuntime } from '../platform/projections/runtime.js';
import { drawStream, governanceEvent } from '../governance/events.js';
import { accountsProjection, revealAccount, vaultDir } from '../accounts/index.js';
import { instructionOf, type PaymentPushedPayload } from './push.js';
import type { RailAdapter } from './rail-adapter.js';
import { entriesOf, valuesOf } from '../platform/projections/index.js';

/** First retry after 1 s, doubling up to 5 minutes. */
export const OUTBOX_RETRY_BASE_MS = 1_000;
export const OUTBOX_RETRY_MAX_MS = 300_000;

export function backoffMs(attempt: number): number {
  return Math.min(OUTBOX_RETRY_MAX_MS, OUTBOX_RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1));
}

export interface OutboxDeps {
  ledger: Ledger;
  runtime: ProjectionRuntime;
  clock: Clock;
  logger: Logger;
  /** Where the account vault is (`DATA_DIR`): instructions carry the numbers it reveals. */
  dataDir?: string;
}

/**
 * Payments whose instruction is not delivered yet and whose next attempt is due on `now`, in the
 * order they were recorded. Read from the pending ones alone: a pass costs what is pending, not
 * every payment ever made.
 */
export function duePayments(state: GovernanceState, now: Date): string[] {
  return entriesOf(state.pending_deliveries)
    .filter(([, d]) => d.next_attempt_at === null || Date.parse(d.next_attempt_at) <= now.getTime())
    .map(([id]) => id);
}

/** When the earliest pending delivery that failed is due again (ms since the epoch), or undefined. */
export function nextRetryAt(state: GovernanceState): number | undefined {
  let next: number | undefined;
  for (const d of valuesOf(state.pending_deliveries)) {
    if (d.next_attempt_at === null) continue;
    const at = Date.parse(d.next_attempt_at);
    if (next === undefined || at < next) next = at;
  }
  return next;
}

export class PaymentOutbox {
  readonly #deps: OutboxDeps;
  readonly #adapter: RailAdapter;
  #running: Promise<void> | null = null;
  #again = false;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #stopped = false;

  constructor(deps: OutboxDeps, adapter: RailAdapter) {
    this.#deps = deps;
    this.#adapter = adapter;
  }

  /** Subscribes to applied events and delivers what is already pending. */
  start(): void {
    this.#deps.runtime.onApplied((event) => {
      if (event.type === 'PaymentPushed') void this.kick();
    });
    void this.kick();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Delivers every due instruction; resolves when this pass (and any it absorbed) is done. Never throws. */
  kick(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      do {
        this.#again = false;
        await this.#pass();
      } while (this.#again && !this.#stopped);
    })()
      .catch((error: unknown) => {
        this.#deps.logger.error('payment outbox pass failed', { error: String(error) });
      })
      .finally(() => {
        this.#running = null;
        this.#schedule();
      });
    return this.#running;
  }

  async #pass(): Promise<void> {
    const now = this.#deps.clock.now();
    for (const payment_id of duePayments(this.#deps.runtime.state(governance), now)) {
      if (this.#stopped) return;
      await this.#deliver(payment_id);
    }
  }

  async #deliver(payment_id: string): Promise<void> {
    const state = this.#deps.runtime.state(governance);
    const payment = state.payments[payment_id];
    const delivery = state.deliveries[payment_id];
    if (!payment || delivery?.status !== 'PENDING') return;
    const attempt = delivery.attempts + 1;
    const meta = { org_id: payment.org_id, actor: 'payment-outbox', request_id: `outbox-${payment_id}` };
    const base = { payment_id, draw_id: payment.draw_id, message_id: payment.message_id, attempt };
    const failed = (error: string, retry: boolean) => {
      const failedAt = this.#deps.clock.now();
      return governanceEvent(
        'PaymentInstructionFailed',
        drawStream(payment.draw_id),
        {
          ...base,
          error,
          failed_at: failedAt.toISOString(),
          next_attempt_at: retry ? new Date(failedAt.getTime() + backoffMs(attempt)).toISOString() : null,
        },
        derivedEventId(`${payment_id}/instruction-failed/${attempt}`),
      );
    };
    // An account the instruction names was erased in the ledger (AccountSubjectErased): its number
    // is gone from every vault for good, so no retry can build the instruction. Recorded once, as
    // final, instead of a failure every five minutes for ever; the payment needs a person now. (A
    // number merely missing from this node's vault is retried: another node's may hold it.)
    const erased = erasedAccountOf(payment, this.#deps.runtime.state(accountsProjection).accounts);
    let outcome;
    if (erased !== null)
      outcome = failed(
        `the account ${erased} was erased: no instruction can be built for this payment`,
        false,
      );
    else
      try {
        outcome = await this.#submit(payment, base);
      } catch (error) {
        outcome = failed(error instanceof Error ? error.message : String(error), true);
      }
    // Decided at the head: a delivery another writer already recorded is not recorded twice.
    await this.#deps.ledger.commit(() => {
      const current = this.#deps.runtime.state(governance).deliveries[payment_id];
      const still = current?.status === 'PENDING' && current.attempts < attempt;
      return { events: still ? [outcome] : [], result: null };
    }, meta);
  }

  /** Builds the instruction from the event and the vault, hands it to the rail: the delivery event. */
  async #submit(
    payment: PaymentPushedPayload & { draw_id: string },
    base: { payment_id: string; draw_id: string; message_id: string; attempt: number },
  ) {
    const dataDir = this.#deps.dataDir;
    const xml = instructionOf(payment, (id) =>
      dataDir === undefined ? null : revealAccount(vaultDir(dataDir), id),
    );
    const submitted = await this.#adapter.submit({ format: 'pain.001', message_id: payment.message_id, xml });
    return governanceEvent(
      'PaymentInstructionDelivered',
      drawStream(payment.draw_id),
      {
        ...base,
        location: submitted.location,
        sha256: sha256Hex(xml),
        delivered_at: this.#deps.clock.now().toISOString(),
      },
      derivedEventId(`${base.payment_id}/instruction-delivered`),
    );
  }

  /** Wakes up when the earliest failed delivery is due again (real time; the clock decides what is due). */
  #schedule(): void {
    if (this.#stopped) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const next = nextRetryAt(this.#deps.runtime.state(governance));
    if (next === undefined) return;
    // Already due (time passed while the pass ran, e.g. a slow bank call for another payment):
    // nothing else would wake the outbox until the next payment, so try again shortly — after
    // OUTBOX_RETRY_BASE_MS, not at once, so a pass that cannot record its outcome (the ledger
    // down) does not spin.
    const due = next - this.#deps.clock.now().getTime();
    const delay = due > 0 ? due : OUTBOX_RETRY_BASE_MS;
    this.#timer = setTimeout(() => void this.kick(), delay);
    this.#timer.unref();
  }
}

/** The first account of the payment's instruction that the ledger records as erased, or null. */
export function erasedAccountOf(
  payment: PaymentPushedPayload,
  accounts: Readonly<Record<string, { erased: boolean }>>,
): string | null {
  for (const party of [payment.instruction.debtor, payment.instruction.creditor]) {
    const id = party.account_id;
    if (id !== undefined && accounts[id]?.erased === true) return id;
  }
  return null;
}
