/**
 * Provenance of a governance result (ARCHITECTURE §7): three digests over the JCS of the payload
 * (without its provenance) and the ledger position that anchors it.
 */
import { multiHash } from '../crypto/hash.js';
import type { LedgerHead } from '../ledger/envelope.js';
import { canonicalJson } from '../ledger/canonical.js';

export interface Provenance {
  sha256: string;
  sha3_256: string;
  blake2b_256: string;
  ledger: LedgerHead;
}

export function provenanceOf(payload: unknown, ledger: LedgerHead): Provenance {
  return { ...multiHash(canonicalJson(payload)), ledger: { seq: ledger.seq, hash: ledger.hash } };
}
