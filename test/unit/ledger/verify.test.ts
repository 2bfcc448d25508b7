import { expect } from 'chai';
import fc from 'fast-check';
import { verifyLedger, type SealedEvent } from '../../../src/platform/ledger/index.js';
import { linkHash, linkJson } from '../../../src/platform/ledger/envelope.js';
import { ChainVerifier, type PackedRows, type StoredRow } from '../../../src/platform/ledger/verify.js';
import { verifyRows, type RowSource } from '../../../src/platform/ledger/verify-store.js';
import { SqliteEventStore } from '../../../src/platform/event-store/sqlite.js';
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

describe('the packed walk of ledger:verify (SqliteEventStore.readPacked, ChainVerifier.pushPacked)', () => {
  // Contents as a tampered row could hold them: any unicode (astral, NUL, lone surrogates), or not
  // text at all (a BLOB of the same bytes).
  const content = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 300 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constantFrom('', '\u0000', '\ud800', 'x\udc00y', 'é'.repeat(70)),
  );
  type Cell = string | Buffer;
  type Row = [seq: number, content: Cell, contentHash: Cell, prevHash: Cell, hash: Cell];
  const tamper = fc.oneof(
    fc.record({ kind: fc.constant('content' as const), text: content }),
    fc.record({ kind: fc.constant('blob' as const) }),
    fc.record({
      kind: fc.constantFrom('content_hash', 'prev_hash', 'hash'),
      text: fc.string({ maxLength: 70 }),
    }),
    fc.record({ kind: fc.constantFrom('drop', 'upper', 'swap') }),
    // Linked to another predecessor and re-hashed to match: only the link to the row before breaks.
    fc.record({ kind: fc.constant('relink' as const), text: fc.stringMatching(/^[0-9a-f]{64}$/) }),
  );

  type Tamper = typeof tamper extends fc.Arbitrary<infer T> ? T : never;

  function ledgerOf(rows: Row[]): SqliteEventStore {
    const store = SqliteEventStore.open(':memory:');
    const insert = store.database.prepare(
      `INSERT INTO events (seq, id, stream, type, org_id, recorded_at, content, content_hash, prev_hash, hash)
       VALUES (?, ?, 's', 't', NULL, '2026-11-29T00:00:00Z', ?, ?, ?, ?)`,
    );
    for (const [seq, ...cells] of rows) insert.run(seq, `e${seq}`, ...cells);
    return store;
  }

  /** The rows sealed into a chain, then each tampering applied at its row (modulo the length). */
  function tampered(contents: string[], changes: { at: number; change: Tamper }[]): Row[] {
    const rows: Row[] = sealChain(contents.map((c) => [0, c, '', '', ''] as StoredRow)).map((r) => [...r]);
    for (const { at, change } of changes) {
      const i = at % rows.length;
      const row = rows[i];
      if (!row) continue;
      if (change.kind === 'content') row[1] = change.text;
      else if (change.kind === 'blob') row[1] = Buffer.from(String(row[1]), 'utf8');
      else if (change.kind === 'content_hash') row[2] = change.text;
      else if (change.kind === 'prev_hash') row[3] = change.text;
      else if (change.kind === 'hash') row[4] = change.text;
      else if (change.kind === 'upper') row[4] = String(row[4]).toUpperCase();
      else if (change.kind === 'relink') {
        row[3] = change.text;
        row[4] = linkHash(row[0], change.text, String(row[2]));
      } else if (change.kind === 'drop') rows.splice(i, 1);
      else if (change.kind === 'swap' && rows[i + 1]) [row[0], rows[i + 1]![0]] = [rows[i + 1]![0], row[0]];
    }
    return rows;
  }

  /** verifyRows over `source`, with its leaves. */
  function walk(source: RowSource, to: number, pageSize: number, stopAtFirstIssue: boolean) {
    const leaves: string[] = [];
    const result = verifyRows(source, {
      from: { seq: 0, hash: '0'.repeat(64) },
      to,
      stopAtFirstIssue,
      leaves,
      pageSize,
    });
    return { result, leaves };
  }

  it('walks any ledger, sound or tampered, to exactly what the row-by-row walk finds, leaves included', () => {
    fc.assert(
      fc.property(
        fc.array(content, { minLength: 1, maxLength: 30 }),
        fc.array(fc.record({ at: fc.nat(), change: tamper }), { maxLength: 3 }),
        fc.integer({ min: 1, max: 12 }),
        fc.boolean(),
        (contents, changes, pageSize, stopAtFirstIssue) => {
          const rows = tampered(contents, changes);
          const store = ledgerOf(rows);
          try {
            let rowReads = 0;
            const packed: RowSource = {
              readPacked: (from, to) => store.readPacked(from, to),
              readRows: (from, limit) => {
                rowReads += 1;
                return store.readRows(from, limit);
              },
            };
            const rowsOnly: RowSource = { readRows: (from, limit) => store.readRows(from, limit) };
            const to = Math.max(contents.length, ...rows.map((r) => r[0]));
            const viaPacked = walk(packed, to, pageSize, stopAtFirstIssue);
            expect(viaPacked).to.deep.equal(walk(rowsOnly, to, pageSize, stopAtFirstIssue));
            // A sound ledger never leaves the packed path: the property does not pass by falling back.
            // (Sealed content is JSON text, which never holds a lone surrogate; SQLite keeps one as
            // bytes that are not UTF-8 — the row walk decodes them to U+FFFD, the packed one declines.)
            if (changes.length === 0 && contents.every((c) => !/\p{Cs}/u.test(c))) {
              expect(rowReads).to.equal(0);
              expect(viaPacked.result).to.include({ ok: true, checked: contents.length });
              expect(viaPacked.leaves).to.have.length(contents.length);
            }
          } finally {
            void store.close();
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('declines a run with a bad row anywhere in it and leaves the verifier and the sink untouched', () => {
    const rows = sealChain(
      ['{"a":1}', '{"b":2}', '{"c":3}', '{"d":4}'].map((c) => [0, c, '', '', ''] as StoredRow),
    );
    const packedOf = (rs: readonly StoredRow[]): PackedRows => ({
      count: rs.length,
      first: rs[0]![0],
      last: rs.at(-1)![0],
      lengths: rs.map((r) => Buffer.byteLength(r[1])).join(','),
      content: Buffer.from(rs.map((r) => r[1]).join('')),
      links: rs.map((r) => r[2] + r[3] + r[4]).join(''),
    });
    const sound = packedOf(rows);
    const broken: PackedRows[] = [
      { ...sound, links: sound.links!.slice(0, -1) + (sound.links!.endsWith('0') ? '1' : '0') }, // last hash
      {
        ...sound,
        content: Buffer.from(
          rows
            .map((r) => r[1])
            .join('')
            .replace('"c"', '"C"'),
        ),
      }, // third content
      { ...sound, lengths: '7,7,8,6' }, // lengths that do not cut the bytes where they were
      { ...sound, content: Buffer.concat([sound.content!, Buffer.from('}')]) }, // bytes past the rows
      { ...sound, first: 2, last: 5 }, // not the next seqs
      { ...sound, count: 3 },
      { ...sound, first: null },
    ];
    for (const run of broken) {
      const verifier = new ChainVerifier();
      const sink = ['kept'];
      expect(verifier.pushPacked(run, sink)).to.equal(false);
      expect(sink).to.deep.equal(['kept']);
      expect(verifier.result()).to.deep.equal(new ChainVerifier().result());
    }
    // The same run whole goes through, and then pushRow's verifier state follows on from it.
    const verifier = new ChainVerifier();
    const sink: string[] = [];
    expect(verifier.pushPacked(sound, sink)).to.equal(true);
    expect(verifier.result()).to.deep.equal({ ok: true, checked: 4, verified_through: 4, issues: [] });
    const byRow: string[] = [];
    const reference = new ChainVerifier();
    rows.forEach((r) => reference.pushRow(r, byRow));
    expect(sink).to.deep.equal(byRow);
    const next = sealChain(
      ['{"e":5}', '{"a":1}', '{"b":2}', '{"c":3}', '{"d":4}'].map((c) => [0, c, '', '', ''] as StoredRow),
    );
    expect(verifier.pushRow(next[0]!)).to.not.deep.equal([]); // sealed after genesis: a different chain
    const after = sealChain(
      ['{"e":5}'].map((c) => [0, c, '', '', ''] as StoredRow),
      { seq: 4, hash: rows[3]![4] },
    );
    const continued = new ChainVerifier();
    expect(continued.pushPacked(sound)).to.equal(true);
    expect(continued.pushRow(after[0]!)).to.deep.equal([]);
    expect(continued.result()).to.include({ ok: true, verified_through: 5 });
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
