/**
 * `POST /api/audit-verify` (SPEC §6): is this hash something the ledger recorded, and does the
 * record still verify? An event hash or an artifact hash (scan, compilation, credit report…) is
 * looked up in the ledger-index, then the recording event's stored bytes and both of its chain
 * links are re-checked against the store — not against memory — so a tampered row is caught.
 */
import { z } from 'zod';
import { ledgerIndex } from '../../projections/ledger-index.js';
import { sha256Hex } from '../platform/crypto/hash.js';
import { linkHash, type SealedEvent } from '../platform/ledger/envelope.js';
import type { StoredRecord } from '../platform/ledger/verify.js';
import { authOf } from '../platform/http/context.js';
import { projectGuard, type Service } from '../platform/http/service.js';
import { parseWith } from '../platform/http/validate.js';
import {
  receiptFor,
  ReceiptLeafMismatch,
  ReceiptLogTruncated,
  receiptPath,
  ReceiptUnavailable,
  type Receipt,
} from '../platform/tlog/receipt.js';
import { visibleTo } from './ledger-routes.js';

export const AuditVerifyBody = z.strictObject({
  hash: z.string().regex(/^[0-9a-fA-F]{64}$/, 'a SHA-256 hex digest (64 hex characters)'),
});

interface Located {
  kind: string;
  seq: number;
}

/** What is wrong with the stored record at `seq` for the hash it should attest, or null. */
async function recheck(
  s: Service,
  at: Located,
  hash: string,
): Promise<{ reason: 'CONTENT_MISMATCH' | 'CHAIN_BROKEN'; seq: number } | null> {
  const rows = (await s.ledger.store.readRecords(Math.max(1, at.seq - 1), 3)).filter(
    (r) => r.seq >= at.seq - 1 && r.seq <= at.seq + 1,
  );
  const bySeq = new Map<number, StoredRecord>(rows.map((r) => [r.seq, r]));
  const row = bySeq.get(at.seq);
  if (!row) return { reason: 'CHAIN_BROKEN', seq: at.seq };
  if (sha256Hex(row.content) !== row.content_hash) return { reason: 'CONTENT_MISMATCH', seq: at.seq };
  if (at.kind === 'event' && row.hash !== hash) return { reason: 'CHAIN_BROKEN', seq: at.seq };
  if (at.kind !== 'event') {
    const content = JSON.parse(row.content) as { data?: { artifacts?: { hash?: unknown }[] } };
    if (!(content.data?.artifacts ?? []).some((a) => a.hash === hash))
      return { reason: 'CONTENT_MISMATCH', seq: at.seq };
  }
  if (linkHash(row.seq, row.prev_hash, row.content_hash) !== row.hash)
    return { reason: 'CHAIN_BROKEN', seq: at.seq };
  const prev = bySeq.get(at.seq - 1);
  const expectedPrev = at.seq === 1 ? '0'.repeat(64) : prev?.hash;
  if (row.prev_hash !== expectedPrev) return { reason: 'CHAIN_BROKEN', seq: at.seq };
  const next = bySeq.get(at.seq + 1);
  if (next && next.prev_hash !== row.hash) return { reason: 'CHAIN_BROKEN', seq: at.seq + 1 };
  return null;
}

export function mountAuditVerify(s: Service): void {
  s.routes.add(
    'POST',
    '/api/audit-verify',
    ...projectGuard(s, 'governance:read', { body: true }),
    async (req, res) => {
      const hash = parseWith(AuditVerifyBody, req.body).hash.toLowerCase();
      const index = s.runtime.state(ledgerIndex);
      const head = await s.ledger.store.head();
      const chain = { verified_through: s.verifier.status().verified_through, head: head.seq };
      const eventSeq = index.eventSeq(hash);
      const artifact = index.artifact(hash);
      const at: Located | null =
        eventSeq !== undefined
          ? { kind: 'event', seq: eventSeq }
          : artifact
            ? { kind: artifact.kind, seq: artifact.seq }
            : null;
      if (!at) {
        res.json({
          verdict: 'TAMPERED',
          reason: 'UNKNOWN_HASH',
          detail: 'nothing recorded in this ledger has that hash',
          chain,
        });
        return;
      }
      const problem = await recheck(s, at, hash);
      const [event] = await s.ledger.store.read(at.seq, 1);
      const shown: SealedEvent | undefined = event && event.seq === at.seq ? event : undefined;
      const visible = shown !== undefined && visibleTo(shown, authOf(req).org_id);
      const match = {
        kind: at.kind,
        seq: at.seq,
        event_id: visible ? shown.id : null,
        type: visible ? shown.type : 'Redacted',
        recorded_at: shown?.recorded_at ?? null,
      };
      if (problem) {
        res.json({ verdict: 'TAMPERED', reason: problem.reason, seq: problem.seq, match, chain });
        return;
      }
      // The receipt proves the recording event against a signed checkpoint: checkable offline with
      // the log's verifier key alone (docs/transparency-log.md).
      let receipt: Receipt | null = null;
      if (shown) {
        try {
          receipt = await receiptFor(s.tlog, shown);
        } catch (error) {
          // The chain verifies but the log committed to another event at this seq: the chain was
          // re-hashed after an edit. Not authentic, whatever the re-hashed links say.
          if (error instanceof ReceiptLeafMismatch) {
            res.json({ verdict: 'TAMPERED', reason: 'TREE_MISMATCH', seq: at.seq, match, chain });
            return;
          }
          // The log signed more than the ledger holds (a cut tail): this event's record verifies,
          // but no proof up to the signed root exists; its receipt URL says why (503).
          if (!(error instanceof ReceiptUnavailable || error instanceof ReceiptLogTruncated)) throw error;
        }
      }
      res.json({
        verdict: 'AUTHENTIC',
        reason: at.kind === 'event' ? 'EVENT_VERIFIED' : 'ARTIFACT_VERIFIED',
        match,
        chain,
        receipt,
        ...(receipt || !shown ? {} : { receipt_url: receiptPath(shown.hash) }),
      });
    },
  );
}
