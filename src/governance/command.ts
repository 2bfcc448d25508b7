/**
 * The edge of every governance command (ARCHITECTURE §5): inside the Ledger's serialized commit,
 * read the models at the head, run the pure decider, append what it decided, and answer. The one
 * place a recorded governance result becomes a response (provenance anchored to its event), and the
 * one place an audited rejection (`PaymentPushBlocked`) is recorded *and* answered as an error.
 */
import type { Request, Response } from 'express';
import { authOf } from '../platform/http/context.js';
import { runCommand } from '../platform/http/command.js';
import { ProblemError } from '../platform/http/problem.js';
import { provenanceOf } from '../platform/http/provenance.js';
import type { Service } from '../platform/http/service.js';
import { payloadDigests } from './events.js';
import { headOf, type CreditView, type GovernanceHead } from './head.js';
import type { GovernanceCtx, GovernanceDecided } from './record.js';

export type GovernanceDecider = (head: GovernanceHead, ctx: GovernanceCtx) => GovernanceDecided;

function problemOf(decided: Extract<GovernanceDecided, { ok: false }>): ProblemError {
  return new ProblemError(decided.error.code, decided.error.detail, decided.error.extras ?? {});
}

/** Runs `decide` at the head and answers 201 with the recorded result, or its rejection. */
export async function governanceCommand(
  s: Service,
  credit: CreditView,
  req: Request,
  res: Response,
  decide: GovernanceDecider,
  /** Runs after a successful commit, before the answer (the payment outbox's first delivery). */
  settle?: () => Promise<void>,
  /** 201 for a command; 200 for a read that is recorded (a rail scan). */
  status: 200 | 201 = 201,
): Promise<void> {
  const org_id = authOf(req).org_id;
  const committed = await runCommand(s.ledger, req, (ledgerHead, eventId) => {
    const head = headOf(s, ledgerHead, credit);
    const decided = decide(head, { org_id, now: s.clock.now(), eventId, publicBaseUrl: s.publicBaseUrl });
    if (!decided.ok && decided.events.length === 0) throw problemOf(decided);
    return { events: decided.events, result: decided };
  });
  const decided = committed.result;
  if (!decided.ok) throw problemOf(decided);
  await settle?.();
  const event = committed.events[decided.anchor]!;
  const anchor = { seq: event.seq, hash: event.hash };
  // The digests the decider recorded for this very payload: computed once (`payloadDigests`).
  const hash = decided.with_provenance_hash
    ? { provenance_hash: payloadDigests(decided.payload).sha256 }
    : {};
  const style = decided.anchor_style;
  res.status(status).json({
    ...decided.payload,
    ...hash,
    ...(style === 'ledger'
      ? {}
      : { provenance: provenanceOf(decided.payload, anchor, payloadDigests(decided.payload)) }),
    ...(style === 'provenance' ? {} : { ledger: anchor }),
  });
}

/**
 * The read models as they stand now, for read-only queries (a draw's gates, a project's findings):
 * the same `headOf` a command reads, outside any commit, so nothing may be decided on it.
 */
export function headNow(s: Service, credit: CreditView): GovernanceHead {
  return headOf(s, s.ledger.head, credit);
}
