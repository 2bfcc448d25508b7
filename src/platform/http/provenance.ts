/**
 * Provenance of a governance result (ARCHITECTURE §7): three digests over the JCS of the payload
 * (without its provenance) and the ledger position that anchors it.
 */
import { multiHash, type MultiHash } from '../crypto/hash.js';
import type { LedgerHead } from '../ledger/envelope.js';
import { canonicalJson } from '../ledger/canonical.js';

export interface Provenance {
  sha256: string;
  sha3_256: string;
  blake2b_256: string;
  ledger: LedgerHead;
}

/** `digests`: the payload's, when the caller already has them (a recorded result's). */
export function provenanceOf(
  payload: unknown,
  ledger: LedgerHead,
  digests: MultiHash = multiHash(canonicalJson(payload)),
): Provenance {
  return {
    sha256: digests.sha256,
    sha3_256: digests.sha3_256,
    blake2b_256: digests.blake2b_256,
    ledger: { seq: ledger.seq, hash: ledger.hash },
  };
}
