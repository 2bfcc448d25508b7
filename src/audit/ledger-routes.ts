/**
 * The ledger read API (SPEC §9): pages of envelopes, one envelope, and the verification watermark.
 * Another org's events are redacted to their chain fields, so anyone can still verify every link.
 */
import { z } from 'zod';
import type { SealedEvent } from '../platform/ledger/envelope.js';
import { authOf } from '../platform/http/context.js';
import { ProblemError } from '../platform/http/problem.js';
import { ledgerGuard, type Service } from '../platform/http/service.js';
import { parseWith } from '../platform/http/validate.js';

export interface RedactedEvent {
  seq: number;
  type: 'Redacted';
  recorded_at: string;
  content_hash: string;
  prev_hash: string;
  hash: string;
}

/** Platform-wide facts (org_id null: registry imports) are visible to every org. */
export function visibleTo(event: SealedEvent, orgId: string): boolean {
  return event.meta.org_id === null || event.meta.org_id === orgId;
}

export function redactFor(event: SealedEvent, orgId: string): SealedEvent | RedactedEvent {
  if (visibleTo(event, orgId)) return event;
  return {
    seq: event.seq,
    type: 'Redacted',
    recorded_at: event.recorded_at,
    content_hash: event.content_hash,
    prev_hash: event.prev_hash,
    hash: event.hash,
  };
}

const PageQuery = z.strictObject({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
const SeqParams = z.strictObject({ seq: z.coerce.number().int().min(1) });

export function mountLedgerApi(s: Service): void {
  s.routes.add('GET', '/api/ledger', ...ledgerGuard(s), async (req, res) => {
    const { after, limit } = parseWith(PageQuery, req.query, 'query');
    const org = authOf(req).org_id;
    const events = await s.ledger.store.read(after + 1, limit);
    const head = await s.ledger.store.head();
    res.json({ events: events.map((e) => redactFor(e, org)), head });
  });

  s.routes.add('GET', '/api/ledger/verify', ...ledgerGuard(s), async (_req, res) => {
    const status = s.verifier.status();
    const head = await s.ledger.store.head();
    res.json({
      ok: status.ok,
      verified_through: status.verified_through,
      head,
      issues: status.issues,
      last_run_at: status.last_run_at,
    });
  });

  s.routes.add('GET', '/api/ledger/:seq', ...ledgerGuard(s), async (req, res) => {
    const { seq } = parseWith(SeqParams, req.params, 'params');
    const [event] = await s.ledger.store.read(seq, 1);
    if (!event || event.seq !== seq) throw new ProblemError('NOT_FOUND', `no event at seq ${seq}`);
    res.json(redactFor(event, authOf(req).org_id));
  });
}
