/**
 * Builders for ledger tests: sealed chains with fixed ids and a pinned clock, never randomness.
 */
import {
  GENESIS_HASH,
  seal,
  type EventMeta,
  type LedgerHead,
  type SealedEvent,
} from '../../src/platform/ledger/index.js';

export const TEST_META: EventMeta = { org_id: 'org_test', actor: 'system', request_id: 'req-test-0001' };

/** A deterministic UUID-shaped id for the n-th test event of a family. */
export function testId(n: number, family = 0): string {
  const hex = (family * 1_000_000 + n).toString(16).padStart(12, '0');
  return `00000000-0000-4000-8000-${hex}`;
}

/**
 * A deterministic id shaped like a fresh UUIDv7 (`newEventId`), which stores may treat as one
 * that no other writer can hold (the EventStoreDB adapter's fast path).
 */
export function freshId(n: number, family = 0): string {
  const hex = (family * 1_000_000 + n).toString(16).padStart(12, '0');
  return `00000000-0000-7000-8000-${hex}`;
}

/** Like `chain`, with v7-shaped ids and `pad` characters of filler in each event's data. */
export function freshChain(
  count: number,
  after: LedgerHead = { seq: 0, hash: GENESIS_HASH },
  opts: { family?: number; pad?: number } = {},
): SealedEvent[] {
  return chain(count, after, opts.family ?? 0, 'test-stream', freshId, opts.pad ?? 0);
}

/** Seals `count` events after `after`, on `stream`, with ids from `family`. */
export function chain(
  count: number,
  after: LedgerHead = { seq: 0, hash: GENESIS_HASH },
  family = 0,
  stream = 'test-stream',
  idOf: (n: number, family: number) => string = testId,
  pad = 0,
): SealedEvent[] {
  const out: SealedEvent[] = [];
  let prev = after;
  for (let i = 0; i < count; i += 1) {
    const n = prev.seq + 1;
    const { event } = seal(
      {
        id: idOf(n, family),
        stream,
        type: 'TestHappened',
        schema: 1,
        data: pad > 0 ? { n, note: `event ${n}`, pad: 'x'.repeat(pad) } : { n, note: `event ${n}` },
        meta: TEST_META,
        recorded_at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
      },
      prev,
    );
    out.push(event);
    prev = { seq: event.seq, hash: event.hash };
  }
  return out;
}

export function headOf(events: readonly SealedEvent[]): LedgerHead {
  const last = events[events.length - 1];
  return last ? { seq: last.seq, hash: last.hash } : { seq: 0, hash: GENESIS_HASH };
}

/** Polls until `check` holds or `ms` pass (for live-subscription assertions). */
export async function eventually(check: () => boolean, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
