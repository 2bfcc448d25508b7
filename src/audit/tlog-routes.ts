/**
 * The transparency log's read API (docs/transparency-log.md): C2SP tlog-tiles under `/tlog`
 * (checkpoint, hash tiles, entry bundles of leaf inputs — hashes only, so no tenant's content is
 * shown) and the JSON conveniences: inclusion proofs and receipts, consistency proofs.
 */
import type { Response } from 'express';
import { z } from 'zod';
import { ledgerIndex } from '../../projections/ledger-index.js';
import type { SealedEvent } from '../platform/ledger/envelope.js';
import { ProblemError } from '../platform/http/problem.js';
import { tlogGuard, type Service } from '../platform/http/service.js';
import { decimalPosition, parseWith } from '../platform/http/validate.js';
import {
  receiptFor,
  ReceiptLeafMismatch,
  ReceiptLogTruncated,
  ReceiptUnavailable,
  type Receipt,
} from '../platform/tlog/receipt.js';
import { encodeEntryBundle, parseTilePath, TILE_WIDTH } from '../platform/tlog/tiles.js';
import { leafInput } from '../platform/tlog/tree.js';

const HEX64 = z.string().regex(/^[0-9a-fA-F]{64}$/, 'a SHA-256 hex digest (64 hex characters)');
export const EventQuery = z
  .strictObject({ seq: decimalPosition(1).optional(), hash: HEX64.optional() })
  .refine((q) => (q.seq === undefined) !== (q.hash === undefined), {
    message: 'give exactly one of seq and hash',
  });
export const ConsistencyQuery = z.strictObject({
  from: decimalPosition(0),
  to: decimalPosition(0).optional(),
});

/**
 * A full tile never changes. `public` only when the log is (TLOG_PUBLIC=1): an answer marked public
 * may be kept by a shared cache and served to anyone asking for the URL, so behind a CDN or proxy a
 * tile fetched with a key was handed to requests without one — the access rule undone. Restricted,
 * it is `private`: the client's own cache keeps it for good, no shared cache does.
 */
const immutable = (isPublic: boolean): string =>
  `${isPublic ? 'public' : 'private'}, max-age=31536000, immutable`;

function sendText(res: Response, body: string): void {
  res.set('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send(body);
}

export function mountTlog(s: Service): void {
  /** The latest checkpoint; signed now when no publisher runs (tests, one-shot tools). */
  const latest = async () => {
    if (!s.tlog.publishing || !s.tlog.latest) await s.tlog.publish();
    return s.tlog.latest;
  };

  /**
   * The latest checkpoint, covering at least the store's head as read now when several nodes may
   * share the ledger (EventStoreDB). Each node signs the checkpoints of the tree it has folded, so
   * one a few events behind another served a smaller log to a client that had just read a larger
   * one — a monitor going round the nodes (a load balancer) was told ROLLBACK, and a consistency
   * proof to a size another node had signed answered 404. A checkpoint is signed for the head (at
   * most RECEIPT_SIGN_SPACING_MS after the last) when this node's is behind it.
   */
  const current = async () => {
    const checkpoint = await latest();
    if (s.ledger.store.kind !== 'esdb') return checkpoint;
    const { seq } = await s.ledger.store.head();
    if (checkpoint && checkpoint.size >= seq) return checkpoint;
    const covering = await s.tlog.checkpointCovering(seq);
    if (!covering)
      throw new ProblemError(
        'UNAVAILABLE',
        `no checkpoint covering the ledger's head (seq ${seq}) was signed in time`,
        {},
        { 'Retry-After': '1' },
      );
    return covering;
  };

  s.routes.add('GET', '/tlog/checkpoint', ...tlogGuard(s), async (_req, res) => {
    if (!(await current())) throw new ProblemError('NOT_FOUND', 'the ledger is empty: no checkpoint yet');
    sendText(res, s.tlog.servedCheckpoint()!);
  });

  s.routes.add('GET', '/tlog/checkpoint/cosigned', ...tlogGuard(s), (_req, res) => {
    const cosigned = s.tlog.cosigned;
    if (!cosigned)
      throw new ProblemError('NOT_FOUND', 'no checkpoint cosigned by every configured witness yet');
    sendText(res, cosigned);
  });

  s.routes.add('GET', '/tlog/tile/*path', ...tlogGuard(s), async (req, res) => {
    const raw = (req.params as { path?: string[] | string }).path;
    const rest = Array.isArray(raw) ? raw.join('/') : String(raw ?? '');
    const ref = parseTilePath(rest);
    if (!ref) throw new ProblemError('NOT_FOUND', `no tile at ${req.path}`);
    const full = ref.width === TILE_WIDTH;
    let body: Buffer | null;
    if (ref.level === 'entries') {
      const first = ref.index * TILE_WIDTH + 1;
      if (first + ref.width - 1 > s.tlog.tree.size) body = null;
      else {
        const records = await s.ledger.store.readRecords(first, ref.width);
        body =
          records.length === ref.width && records[0]?.seq === first
            ? encodeEntryBundle(records.map((r) => Buffer.from(leafInput(r), 'utf8')))
            : null;
      }
    } else {
      body = s.tlog.tree.tile(ref.level, ref.index, ref.width);
    }
    if (!body) throw new ProblemError('NOT_FOUND', `tile ${rest} does not exist (yet)`);
    res
      .set('Cache-Control', full ? immutable(s.tlogPublic) : 'no-store')
      .type('application/octet-stream')
      .send(body);
  });

  /** The event a query names, by seq or (through the ledger index) by its hash. */
  const eventOf = async (query: unknown): Promise<SealedEvent> => {
    const q = parseWith(EventQuery, query, 'query');
    const seq = q.seq ?? s.runtime.state(ledgerIndex).eventSeq(q.hash!.toLowerCase());
    const [event] = seq === undefined ? [] : await s.ledger.store.read(seq, 1);
    if (!event || event.seq !== seq || (q.hash !== undefined && event.hash !== q.hash.toLowerCase()))
      throw new ProblemError('NOT_FOUND', 'no event in this ledger has that seq or hash');
    return event;
  };
  const receipt = async (event: SealedEvent): Promise<Receipt> => {
    try {
      return await receiptFor(s.tlog, event);
    } catch (error) {
      if (error instanceof ReceiptUnavailable)
        throw new ProblemError('UNAVAILABLE', error.message, {}, { 'Retry-After': '1' });
      // Not a wait: a retry gets the same disagreement, so no Retry-After.
      if (error instanceof ReceiptLeafMismatch || error instanceof ReceiptLogTruncated)
        throw new ProblemError('LEDGER_INTEGRITY', `${error.message} (see /readyz)`, {
          reason: error.type,
          seq: error.seq,
        });
      throw error;
    }
  };

  for (const path of ['/api/ledger/receipt', '/api/ledger/proof/inclusion']) {
    s.routes.add('GET', path, ...tlogGuard(s), async (req, res) => {
      res.json(await receipt(await eventOf(req.query)));
    });
  }

  s.routes.add('GET', '/api/ledger/proof/consistency', ...tlogGuard(s), async (req, res) => {
    const q = parseWith(ConsistencyQuery, req.query, 'query');
    const checkpoint = await current();
    const to = q.to ?? checkpoint?.size ?? 0;
    if (q.from > to) throw new ProblemError('INVALID_REQUEST', `from (${q.from}) is beyond to (${to})`);
    if (to > s.tlog.tree.size) {
      // A size the log signed but no longer holds: the ledger lost signed events (an integrity
      // failure, not a size to wait for).
      if (checkpoint && to <= checkpoint.size) {
        const lost = new ReceiptLogTruncated(checkpoint.size, s.tlog.tree.size);
        throw new ProblemError('LEDGER_INTEGRITY', `${lost.message} (see /readyz)`, {
          reason: lost.type,
          seq: lost.seq,
        });
      }
      throw new ProblemError('NOT_FOUND', `the log has no tree of size ${to} yet`);
    }
    // A size no signed checkpoint vouches for proves nothing to a client (docs/transparency-log.md).
    if (to > (checkpoint?.size ?? 0))
      throw new ProblemError(
        'NOT_FOUND',
        `the log has signed no checkpoint of size ${to} yet (the latest is ${checkpoint?.size ?? 0})`,
      );
    res.json({
      from: q.from,
      to,
      consistency_proof: s.tlog.tree.consistencyProof(q.from, to).map((h) => h.toString('base64')),
      checkpoint: checkpoint && checkpoint.size === to ? s.tlog.servedCheckpointFor(checkpoint) : null,
    });
  });
}
