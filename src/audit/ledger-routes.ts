/**
 * The ledger read API (SPEC §9): pages of envelopes, one envelope, and the verification watermark.
 * Another org's events are redacted to their chain fields, so anyone can still verify every link.
 * Pages answer `next_cursor` like every list; filters (type, stream prefix, entity, recorded_at
 * range) search the whole ledger server-side, over the caller's own and platform events only.
 */
import { z } from 'zod';
import type { SealedEvent } from '../platform/ledger/envelope.js';
import { authOf } from '../platform/http/context.js';
import { ProblemError } from '../platform/http/problem.js';
import { ledgerGuard, type Service } from '../platform/http/service.js';
import { decimalPosition, parseWith } from '../platform/http/validate.js';

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

const Instant = z.iso.datetime({ offset: true }).or(z.iso.date());
export const LedgerPageQuery = z.strictObject({
  after: decimalPosition(0).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, 'a cursor this API issued')
    .optional(),
  /** Event type(s), comma-separated, exact. */
  type: z.string().trim().min(1).max(500).optional(),
  /** Stream id prefix (e.g. `draw-DRW-…`, `project-prj_…`). */
  stream: z.string().trim().min(1).max(200).optional(),
  /** An `ent_…` id: events whose stream or data name it. */
  entity: z
    .string()
    .regex(/^ent_[a-z0-9]{4,40}$/, 'an entity id, ent_…')
    .optional(),
  /** recorded_at ≥ from, recorded_at < to (ISO instants or dates). */
  from: Instant.optional(),
  to: Instant.optional(),
});
type LedgerPageQuery = z.infer<typeof LedgerPageQuery>;

/** How many events one filtered request reads at most before answering with where it got to. */
export const FILTER_SCAN_BUDGET = 20_000;
const READ_CHUNK = 500;

const encodeCursor = (seq: number): string => Buffer.from(`s${seq}`).toString('base64url');
function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const seq = /^s(\d{1,15})$/.exec(text)?.[1];
  if (seq === undefined) throw new ProblemError('INVALID_REQUEST', 'cursor is not one this API issued');
  return Number(seq);
}

const isoStart = (v: string): string => (v.length === 10 ? `${v}T00:00:00.000Z` : new Date(v).toISOString());

/** A predicate over the events the caller can see, or null when no filter is given. */
function filterOf(q: LedgerPageQuery, org: string): ((e: SealedEvent) => boolean) | null {
  const types = q.type
    ?.split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const from = q.from === undefined ? undefined : isoStart(q.from);
  const to = q.to === undefined ? undefined : isoStart(q.to);
  if (
    types === undefined &&
    q.stream === undefined &&
    q.entity === undefined &&
    from === undefined &&
    to === undefined
  )
    return null;
  // Another org's events never match a filter: their type, stream and data are not the caller's to search.
  return (e) =>
    visibleTo(e, org) &&
    (types === undefined || types.includes(e.type)) &&
    (q.stream === undefined || e.stream.startsWith(q.stream)) &&
    (from === undefined || e.recorded_at >= from) &&
    (to === undefined || e.recorded_at < to) &&
    (q.entity === undefined ||
      e.stream.includes(q.entity) ||
      JSON.stringify(e.data).includes(`"${q.entity}"`));
}
const SeqParams = z.strictObject({ seq: decimalPosition(1) });

export function mountLedgerApi(s: Service): void {
  s.routes.add('GET', '/api/ledger', ...ledgerGuard(s), async (req, res) => {
    const q = parseWith(LedgerPageQuery, req.query, 'query');
    const org = authOf(req).org_id;
    const after = q.cursor !== undefined ? decodeCursor(q.cursor) : (q.after ?? 0);
    const head = await s.ledger.store.head();
    const matches = filterOf(q, org);
    if (matches === null) {
      const events = await s.ledger.store.read(after + 1, q.limit);
      const last = events.at(-1)?.seq ?? after;
      res.json({
        events: events.map((e) => redactFor(e, org)),
        head,
        next_cursor: last < head.seq && events.length > 0 ? encodeCursor(last) : null,
      });
      return;
    }
    // Filtered: read forward in chunks until `limit` matches, the head, or the scan budget.
    const found: SealedEvent[] = [];
    let position = after;
    while (found.length < q.limit && position < head.seq && position - after < FILTER_SCAN_BUDGET) {
      const chunk = await s.ledger.store.read(position + 1, Math.min(READ_CHUNK, head.seq - position));
      if (chunk.length === 0) break;
      for (const e of chunk) {
        position = e.seq;
        if (matches(e)) found.push(e);
        if (found.length === q.limit) break;
      }
    }
    res.json({
      events: found,
      head,
      next_cursor: position < head.seq ? encodeCursor(position) : null,
      scanned_through: position,
    });
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
