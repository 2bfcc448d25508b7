/**
 * The single-rail response (SPEC §7) and its provenance (ARCHITECTURE §7). Rail reads are not
 * recorded as events; they are reproducible instead: the same facts (the ledger replayed to
 * `provenance.ledger.seq`) evaluated at the same `as_of` give the same hashes.
 */
import { multiHash, sha256Hex, type MultiHash } from '../platform/crypto/hash.js';
import { canonicalJson } from '../platform/ledger/canonical.js';
import type { LedgerHead } from '../platform/ledger/envelope.js';
import type { RailFinding } from './findings.js';
import type { Posture, Rail, RailFacts, RailName } from './rail.js';

export interface Provenance extends MultiHash {
  /** The ledger head the facts were projected from. */
  ledger: LedgerHead;
}

/** The hashed part of a single-rail response. */
export interface RailPayload {
  rail: RailName;
  posture: Posture;
  score: number;
  findings: RailFinding[];
  /** ISO-8601 instant the rail was evaluated at (`now`). */
  as_of: string;
}

export interface RailResult extends RailPayload {
  /** SHA-256 hex of the JCS of the payload (everything but `provenance_hash` and `provenance`). */
  provenance_hash: string;
  provenance: Provenance;
}

export function railResult(rail: Rail, facts: RailFacts, now: Date, ledger_head: LedgerHead): RailResult {
  const { posture, score, findings } = rail.evaluate(facts, now);
  const payload: RailPayload = { rail: rail.name, posture, score, findings, as_of: now.toISOString() };
  const canonical = canonicalJson(payload);
  return {
    ...payload,
    provenance_hash: sha256Hex(canonical),
    provenance: { ...multiHash(canonical), ledger: { seq: ledger_head.seq, hash: ledger_head.hash } },
  };
}
