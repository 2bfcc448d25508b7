/**
 * Digests used across the platform. Server-side SHA-256 and SHA3-256 go through node:crypto
 * (measured 4–12× faster than @noble/hashes here). BLAKE2b-256 is not in node:crypto (Node 20's
 * OpenSSL 3.0 has BLAKE2b-512 only, and a 256-bit BLAKE2b is a different function, not a
 * truncation), so it comes from hash-wasm's WebAssembly BLAKE2b: 5 µs for a 5 KB credit report
 * where @noble/hashes took ~100 µs, the largest single cost of a `score` call. The browser side
 * (SDK, ledger page) keeps @noble/hashes; a property test holds both to the same digests.
 */
import { hash } from 'node:crypto';
import { createBLAKE2b } from 'hash-wasm';

/** One BLAKE2b-256 instance for the process: init/update/digest run synchronously, never interleaved. */
const blake2b256 = await createBLAKE2b(256);

/**
 * One-shot `crypto.hash` (Node ≥ 20.12; engines say ≥ 20.19): the same digest as
 * `createHash().update().digest()` without a Hash object per call — about 1.7× the throughput on
 * the small inputs the ledger hashes (envelopes, link JSON), which `ledger:verify` does twice per event.
 */
export function sha256Hex(input: string | Uint8Array): string {
  return hash('sha256', input, 'hex');
}

export function sha3_256Hex(input: string | Uint8Array): string {
  return hash('sha3-256', input, 'hex');
}

/** BLAKE2b with a 32-byte digest (RFC 7693, unkeyed); strings are hashed as UTF-8. */
export function blake2b256Hex(input: string | Uint8Array): string {
  blake2b256.init();
  blake2b256.update(input);
  return blake2b256.digest('hex');
}

export interface MultiHash {
  sha256: string;
  sha3_256: string;
  blake2b_256: string;
}

/** The three digests of one input; a string is encoded to UTF-8 once, not once per digest. */
export function multiHash(input: string | Uint8Array): MultiHash {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  return { sha256: sha256Hex(bytes), sha3_256: sha3_256Hex(bytes), blake2b_256: blake2b256Hex(bytes) };
}

export const HEX64 = /^[0-9a-f]{64}$/;
