/**
 * The single-rail response (SPEC §7) and its provenance (ARCHITECTURE §7). Every rail answer is
 * recorded (`RailScanned`, scan-command.ts) and anchored to its recording event; it is also
 * reproducible: the ledger replayed to `provenance.ledger.seq`, evaluated at `as_of`, gives the
 * same payload and hashes (rails read ledger facts only).
 */
import { multiHash, sha256Hex, type MultiHash } from '../platform/crypto/hash.js';
import { canonicalJson } from '../platform/ledger/canonical.js';
import type { LedgerHead } from '../platform/ledger/envelope.js';
import type { Coverage } from './coverage.js';
import type { RailFinding } from './findings.js';
import type { Posture, Rail, RailFacts, RailName } from './rail.js';

export interface Provenance extends MultiHash {
  /** The ledger event that recorded the result. */
  ledger: LedgerHead;
}

/** The hashed part of a single-rail response. */
export interface RailPayload {
  rail: RailName;
  posture: Posture;
  score: number;
  findings: RailFinding[];
  coverage: Coverage;
  /** ISO-8601 instant the rail was evaluated at (`now`). */
  as_of: string;
}

export interface RailResult extends RailPayload {
  /** SHA-256 hex of the JCS of the payload (everything but `provenance_hash` and `provenance`). */
  provenance_hash: string;
  provenance: Provenance;
}

/** The rail evaluated over `facts` at `now`, as the response's hashed payload. */
export function railPayload(rail: Rail, facts: RailFacts, now: Date): RailPayload {
  const { posture, score, findings, coverage } = rail.evaluate(facts, now);
  return { rail: rail.name, posture, score, findings, coverage, as_of: now.toISOString() };
}

/** The response for `payload` anchored at `anchor` (the event that recorded it). */
export function railResult(rail: Rail, facts: RailFacts, now: Date, anchor: LedgerHead): RailResult {
  const payload = railPayload(rail, facts, now);
  const canonical = canonicalJson(payload);
  return {
    ...payload,
    provenance_hash: sha256Hex(canonical),
    provenance: { ...multiHash(canonical), ledger: { seq: anchor.seq, hash: anchor.hash } },
  };
}
