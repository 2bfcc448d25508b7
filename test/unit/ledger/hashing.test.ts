import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import fc from 'fast-check';
import {
  canonicalJson,
  contentJson,
  GENESIS_HASH,
  linkHash,
  linkJson,
  seal,
  type EventContent,
} from '../../../src/platform/ledger/index.js';
import { sha256Hex } from '../../../src/platform/crypto/hash.js';

interface Vector {
  seq: number;
  content: EventContent;
  canonical_content: string;
  content_hash: string;
  prev_hash: string;
  canonical_link: string;
  hash: string;
}
const { vectors } = JSON.parse(readFileSync(new URL('./vectors.json', import.meta.url), 'utf8')) as {
  vectors: Vector[];
};

describe('ledger hashing (ARCHITECTURE §3.1)', () => {
  it('has published vectors to check against', () => {
    expect(vectors).to.have.length.greaterThanOrEqual(3);
  });

  for (const v of vectors) {
    it(`reproduces known-answer vector seq ${v.seq}: canonical bytes, content_hash, link and hash`, () => {
      expect(contentJson(v.content)).to.equal(v.canonical_content);
      expect(sha256Hex(v.canonical_content)).to.equal(v.content_hash);
      expect(linkJson(v.seq, v.prev_hash, v.content_hash)).to.equal(v.canonical_link);
      expect(linkHash(v.seq, v.prev_hash, v.content_hash)).to.equal(v.hash);
    });
  }

  it('seals the vector chain from the genesis hash to the same hashes', () => {
    let prev = { seq: 0, hash: GENESIS_HASH };
    for (const v of vectors) {
      const { event } = seal(v.content, prev);
      expect(event.seq).to.equal(v.seq);
      expect(event.prev_hash).to.equal(v.prev_hash);
      expect(event.content_hash).to.equal(v.content_hash);
      expect(event.hash).to.equal(v.hash);
      prev = { seq: event.seq, hash: event.hash };
    }
    expect(vectors[0]!.prev_hash).to.equal('0'.repeat(64));
  });

  it('builds the link JSON exactly as RFC 8785 canonicalization would, for any position and hashes', () => {
    const hex64 = fc.stringMatching(/^[0-9a-f]{64}$/);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        hex64,
        hex64,
        (seq, prev, content) => {
          expect(linkJson(seq, prev, content)).to.equal(
            canonicalJson({ seq, prev_hash: prev, content_hash: content }),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses values with no canonical form instead of hashing something else', () => {
    expect(() => canonicalJson(undefined)).to.throw(TypeError);
  });
});
