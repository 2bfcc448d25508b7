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
import { ProblemError } from './problem.js';

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
 * retry re-appends the same ids and the store answers with the original events — when they are
 * what this decision recorded. Past the 24 h replay window the key may come back with a request
 * that decides otherwise (a push refused then, paid now: `PaymentPushBlocked` stored,
 * `PaymentPushed` decided); the store keeps the first and appends nothing, so the answer is 422
 * IDEMPOTENCY_KEY_REUSED, never the new decision's result as if it had been recorded.
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
  const requestHash = ctx.idempotency_request_hash ?? '';
  const keyed = idemKey !== null && keyId !== undefined;
  // The first event's id is fixed before deciding: resource ids are minted from it.
  const eventId = keyed ? idempotencyEventId(keyId, idemKey, requestHash, 0) : newEventId();
  let decided: readonly { type: string }[] = [];
  const committed = ledger.commit(
    async (head) => {
      const decision = await decide(head, eventId);
      decided = decision.events;
      if (!keyed) return decision;
      return {
        ...decision,
        events: decision.events.map((event, index) => ({
          ...event,
          id: event.id ?? idempotencyEventId(keyId, idemKey, requestHash, index),
        })),
      };
    },
    on_behalf_of ? { ...commandMeta(req), org_id: on_behalf_of.org_id } : commandMeta(req),
  );
  // Every response that records something says where its receipt is: the one place for all routes.
  return committed.then((result) => {
    if (result.duplicate && !sameEvents(result.events, decided))
      throw new ProblemError(
        'IDEMPOTENCY_KEY_REUSED',
        'this Idempotency-Key already recorded a different request; nothing was recorded — send a new key',
      );
    const last = result.events[result.events.length - 1];
    if (last && req.res && !req.res.headersSent) req.res.setHeader(RECEIPT_HEADER, receiptPath(last.hash));
    return result;
  });
}

/**
 * Whether the stored events record what was decided: the same types, in order. Types, not streams:
 * a true retry may mint its stream anew (an issued key's stream is named by a random key id).
 */
function sameEvents(stored: readonly { type: string }[], decided: readonly { type: string }[]): boolean {
  return stored.length === decided.length && stored.every((e, i) => e.type === decided[i]!.type);
}
