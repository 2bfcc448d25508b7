import { createHash } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { blake2b } from '@noble/hashes/blake2.js';
import { sha3_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { blake2b256Hex, multiHash, sha256Hex, sha3_256Hex } from '../../../src/platform/crypto/hash.js';

/**
 * The server hashes with node:crypto and hash-wasm; the browser (SDK, ledger page) with
 * @noble/hashes. Both sides must give the same digests for the same bytes.
 */
describe('digests', () => {
  it('BLAKE2b-256 of the empty input and of "abc" (RFC 7693 parameters, 32-byte digest)', () => {
    expect(blake2b256Hex('')).to.equal('0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
    expect(blake2b256Hex('abc')).to.equal('bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319');
  });

  it('agrees with @noble/hashes on strings (as UTF-8) and bytes, for all three digests', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'grapheme', maxLength: 3000 }), fc.uint8Array({ maxLength: 9000 })),
        (input) => {
          const bytes = typeof input === 'string' ? utf8ToBytes(input) : input;
          expect(blake2b256Hex(input)).to.equal(bytesToHex(blake2b(bytes, { dkLen: 32 })));
          expect(sha3_256Hex(input)).to.equal(bytesToHex(sha3_256(bytes)));
          expect(sha256Hex(input)).to.equal(createHash('sha256').update(bytes).digest('hex'));
          expect(multiHash(input)).to.deep.equal({
            sha256: sha256Hex(bytes),
            sha3_256: sha3_256Hex(bytes),
            blake2b_256: blake2b256Hex(bytes),
          });
        },
      ),
      { numRuns: 500 },
    );
  });
});
