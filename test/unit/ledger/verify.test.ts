import { expect } from 'chai';
import fc from 'fast-check';
import { verifyLedger, type SealedEvent } from '../../../src/platform/ledger/index.js';
import { linkHash, linkJson } from '../../../src/platform/ledger/envelope.js';
import { ChainVerifier, type StoredRow } from '../../../src/platform/ledger/verify.js';
import { leafHash } from '../../../src/platform/tlog/merkle.js';
import { sha256Hex } from '../../../src/platform/crypto/hash.js';
import { chain } from '../../support/events.js';

function copy(events: SealedEvent[]): SealedEvent[] {
  return JSON.parse(JSON.stringify(events)) as SealedEvent[];
}

describe('verifyLedger (ARCHITECTURE §3.4)', () => {
  it('accepts an untouched chain and reports the watermark', () => {
    const result = verifyLedger(chain(10));
    expect(result).to.deep.equal({ ok: true, checked: 10, verified_through: 10, issues: [] });
  });

  it('detects a changed content byte at its seq', () => {
    const events = copy(chain(6));
    (events[3]!.data as { note: string }).note = 'event 5';
    const result = verifyLedger(events);
    expect(result.ok).to.equal(false);
    expect(result.issues.map((i) => [i.code, i.seq])).to.deep.equal([['content_hash_mismatch', 4]]);
    expect(result.verified_through).to.equal(3);
  });

  it('detects a changed hash at its seq and the link it breaks after it', () => {
    const events = copy(chain(6));
    events[2]!.hash = 'f'.repeat(64);
    const result = verifyLedger(events);
    expect(result.issues.map((i) => [i.code, i.seq])).to.deep.equal([
      ['hash_mismatch', 3],
      ['broken_link', 4],
    ]);
    expect(result.verified_through).to.equal(2);
  });

  it('detects a broken link when prev_hash no longer names the previous event', () => {
    const events = copy(chain(4));
    events[1]!.prev_hash = 'a'.repeat(64);
    const codes = verifyLedger(events).issues.map((i) => [i.code, i.seq]);
    expect(codes).to.deep.include(['broken_link', 2]);
  });

  it('detects a gap where an event was removed', () => {
    const events = copy(chain(5));
    events.splice(2, 1);
    const issues = verifyLedger(events).issues;
    expect(issues[0]).to.include({ code: 'seq_gap', seq: 4, expected: '3', actual: '4' });
    expect(issues.map((i) => i.code)).to.include('broken_link');
  });

  it('detects reordering', () => {
    const events = copy(chain(5));
    [events[1], events[2]] = [events[2]!, events[1]!];
    expect(verifyLedger(events).issues[0]).to.include({ code: 'seq_gap', seq: 3 });
  });

  it('never throws, whatever it is handed', () => {
    fc.assert(
      fc.property(fc.array(fc.anything(), { maxLength: 5 }), (junk) => {
        const result = verifyLedger(junk as SealedEvent[]);
        expect(result.ok).to.equal(junk.length === 0);
      }),
      { numRuns: 200 },
    );
  });

  it('flags any single-field mutation of any event (property)', () => {
    const base = chain(8);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 7 }),
        fc.constantFrom('content_hash', 'prev_hash', 'hash', 'stream', 'type', 'recorded_at'),
        (index, field) => {
          const events = copy(base);
          const target = events[index]! as unknown as Record<string, string>;
          target[field] = `${target[field]}x`;
          const result = verifyLedger(events);
          expect(result.ok).to.equal(false);
          expect(result.issues[0]!.seq).to.equal(index + 1);
        },
      ),
      { numRuns: 200 },
    );
  });

  describe('the raw-row walk of ledger:verify (ChainVerifier.pushRow)', () => {
    // Anything a tampered row could hold: hex, any unicode (astral, escapes, quotes, NUL, lone
    // surrogates), numbers as seq.
    const text = fc.oneof(
      fc.stringMatching(/^[0-9a-f]{64}$/),
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: 'binary' }),
      fc.constantFrom('\u0000', '"\\', '\ud800', 'x\udc00y', '\u2028', 'é'.repeat(64)),
    );
    const row = fc.tuple(fc.integer({ min: -5, max: Number.MAX_SAFE_INTEGER }), text, text, text, text);

    it("hands over each row's Merkle leaf hash as 32 latin1 characters, the bytes of leafHash(link JSON)", () => {
      fc.assert(
        fc.property(
          row,
          fc.array(fc.string({ minLength: 32, maxLength: 32 }), { maxLength: 3 }),
          (r, before) => {
            const leaves = [...before];
            new ChainVerifier().pushRow(r, leaves);
            const want = leafHash(linkJson(r[0], r[3], r[2]));
            // One digest appended, nothing else touched.
            expect(leaves.slice(0, before.length)).to.deep.equal(before);
            expect(leaves).to.have.length(before.length + 1);
            const got = Buffer.from(leaves.at(-1)!, 'latin1');
            expect(got.equals(want) && leaves.at(-1)!.length === 32).to.equal(true);
          },
        ),
        { numRuns: 500 },
      );
    });

    it("hashes a sound chain's link JSON from its reused buffer byte for byte, at any seq length", () => {
      // Sound rows take pushRow's buffer path: its leaves and link hashes must be the string path's.
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER - 8 }),
          fc.array(text, { minLength: 1, maxLength: 8 }),
          (start, contents) => {
            const from = { seq: start, hash: sha256Hex(String(start)) };
            const rows = sealChain(
              contents.map((c) => [0, c, '', '', ''] as StoredRow),
              from,
            );
            const digests: string[] = [];
            const verifier = new ChainVerifier(from);
            rows.forEach((r) => expect(verifier.pushRow(r, digests)).to.deep.equal([]));
            const leaves = Buffer.from(digests.join(''), 'latin1');
            expect(leaves).to.have.length(32 * rows.length);
            expect(verifier.result()).to.include({ ok: true, verified_through: start + rows.length });
            rows.forEach((r, i) => {
              const want = leafHash(linkJson(r[0], r[3], r[2]));
              expect(leaves.subarray(32 * i, 32 * i + 32).equals(want)).to.equal(true);
            });
          },
        ),
        { numRuns: 300 },
      );
    });

    it('finds exactly the issues pushStored finds, row after row, whatever the rows hold', () => {
      fc.assert(
        fc.property(fc.array(row, { maxLength: 6 }), fc.boolean(), (rows, sealed) => {
          // Half the runs are honest chains (then mutated by the generator only where it chose to).
          const chained: StoredRow[] = sealed ? sealChain(rows) : rows;
          const a = new ChainVerifier();
          const b = new ChainVerifier();
          for (const [seq, content, content_hash, prev_hash, hash] of chained) {
            const viaRow = a.pushRow([seq, content, content_hash, prev_hash, hash], []);
            const viaRecord = b.pushStored({ seq, content, content_hash, prev_hash, hash });
            expect(viaRow).to.deep.equal(viaRecord);
          }
          expect(a.result()).to.deep.equal(b.result());
          if (sealed) expect(a.result().ok).to.equal(true);
        }),
        { numRuns: 300 },
      );
    });
  });
});

/** Rows re-sealed into a valid chain after `from` (the genesis by default), their contents kept. */
function sealChain(rows: StoredRow[], from = { seq: 0, hash: '0'.repeat(64) }): StoredRow[] {
  let prev = from.hash;
  return rows.map(([, content], i) => {
    const contentHash = sha256Hex(content);
    const hash = linkHash(from.seq + i + 1, prev, contentHash);
    const out: StoredRow = [from.seq + i + 1, content, contentHash, prev, hash];
    prev = hash;
    return out;
  });
}
