/**
 * Command handling at the edge (ARCHITECTURE §5): decide against projected state at the head,
 * append atomically with optimistic concurrency, and let the read side apply before responding.
 * The decision may throw a ProblemError: nothing is appended and the edge answers it.
 */
import type { Request } from 'express';
import type { Decision, CommitResult, Ledger } from '../ledger/ledger.js';
import type { LedgerHead } from '../ledger/envelope.js';
import { ctxOf } from './context.js';
import { idempotencyEventId } from './idempotency.js';
import { newEventId } from '../ids.js';
import { receiptPath } from '../tlog/receipt.js';

/** Names where the receipt of the event a response recorded is served (docs/transparency-log.md). */
export const RECEIPT_HEADER = 'Ledger-Receipt';

export function commandMeta(req: Request): { org_id: string | null; actor: string; request_id: string } {
  const ctx = ctxOf(req);
  return {
    org_id: ctx.auth?.org_id ?? null,
    actor: ctx.auth?.key_id ?? 'anonymous',
    request_id: ctx.request_id,
  };
}

/**
 * Runs `decide` through the ledger. With an Idempotency-Key, event ids are derived from it, so a
 * retry re-appends the same ids and the store answers with the original events.
 */
export function runCommand<R>(
  ledger: Ledger,
  req: Request,
  decide: (head: LedgerHead, eventId: string) => Decision<R> | Promise<Decision<R>>,
  /**
   * The org the events belong to when the request carries no key of it (a signer enrolling with
   * its token alone): events of an org are shown in full to that org only, never to every tenant.
   */
  on_behalf_of?: { org_id: string },
): Promise<CommitResult<R>> {
  const ctx = ctxOf(req);
  const idemKey = ctx.idempotency_key;
  const keyId = ctx.auth?.key_id;
  const keyed = idemKey !== null && keyId !== undefined;
  // The first event's id is fixed before deciding: resource ids are minted from it.
  const eventId = keyed ? idempotencyEventId(keyId, idemKey, 0) : newEventId();
  const committed = ledger.commit(
    async (head) => {
      const decision = await decide(head, eventId);
      if (!keyed) return decision;
      return {
        ...decision,
        events: decision.events.map((event, index) => ({
          ...event,
          id: event.id ?? idempotencyEventId(keyId, idemKey, index),
        })),
      };
    },
    on_behalf_of ? { ...commandMeta(req), org_id: on_behalf_of.org_id } : commandMeta(req),
  );
  // Every response that records something says where its receipt is: the one place for all routes.
  return committed.then((result) => {
    const last = result.events[result.events.length - 1];
    if (last && req.res && !req.res.headersSent) req.res.setHeader(RECEIPT_HEADER, receiptPath(last.hash));
    return result;
  });
}
