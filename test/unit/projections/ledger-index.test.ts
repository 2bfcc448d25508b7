import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ledgerIndex, type LedgerIndexState } from '../../../projections/ledger-index.js';
import { decodeState, encodeState, ReadModelFile } from '../../../src/platform/projections/index.js';
import type { SealedEvent } from '../../../src/platform/ledger/index.js';
import { chain } from '../../support/events.js';
import { foldingOn } from '../../support/read-model.js';

function fold(events: SealedEvent[], from = ledgerIndex.init()): LedgerIndexState {
  return events.reduce((s, e) => ledgerIndex.evolve(s, e), from);
}

/** `events` with `data.artifacts` as given per seq (the chain's hashes stay the sealed ones). */
function withArtifacts(events: SealedEvent[], bySeq: Record<number, unknown>): SealedEvent[] {
  return events.map((e) =>
    bySeq[e.seq] === undefined ? e : { ...e, data: { ...(e.data as object), artifacts: bySeq[e.seq] } },
  );
}

const A = 'a'.repeat(64);
const B = `${'0'.repeat(63)}b`;

describe('ledger-index projection', () => {
  it('finds every event hash at its seq, across table growth, and nothing else', () => {
    const events = chain(5000);
    const state = fold(events);
    for (const e of events) expect(state.eventSeq(e.hash)).to.equal(e.seq);
    expect(state.count).to.equal(5000);
    expect(state.eventSeq('f'.repeat(64))).to.equal(undefined);
    expect(state.eventSeq(events[0]!.hash.toUpperCase())).to.equal(undefined);
    expect(state.eventSeq('not a hash')).to.equal(undefined);
  });

  it('keeps the first recording of an artifact hash, with its kind', () => {
    const events = withArtifacts(chain(4), {
      1: [{ kind: 'scan', hash: A }],
      2: [
        { kind: 'credit_report', hash: A },
        { kind: 'notarization', hash: B },
      ],
      3: [{ kind: 'odd', hash: 'UPPER-or-other' }, { kind: 7, hash: 'ignored' }, 'junk'],
      4: [{ kind: 'odd-again', hash: 'UPPER-or-other' }],
    });
    const state = fold(events);
    expect(state.artifact(A)).to.deep.equal({ kind: 'scan', seq: 1 });
    expect(state.artifact(B)).to.deep.equal({ kind: 'notarization', seq: 2 });
    expect(state.artifact('UPPER-or-other')).to.deep.equal({ kind: 'odd', seq: 3 });
    expect(state.artifact('ignored')).to.equal(undefined);
    expect(state.artifact(A.toUpperCase())).to.equal(undefined);
  });

  it('round-trips its binary snapshot: same answers, same bytes, and folds on identically', () => {
    const events = withArtifacts(chain(3000), {
      10: [{ kind: 'scan', hash: A }],
      2500: [{ kind: 'other', hash: 'x' }],
    });
    const snapshot = encodeState(ledgerIndex, fold(events.slice(0, 2000)));
    const resumed = fold(events.slice(2000), decodeState(ledgerIndex, snapshot));
    const scratch = fold(events);
    expect(Buffer.from(encodeState(ledgerIndex, resumed))).to.deep.equal(
      Buffer.from(encodeState(ledgerIndex, scratch)),
    );
    for (const e of events) expect(resumed.eventSeq(e.hash)).to.equal(e.seq);
    expect(resumed.artifact(A)).to.deep.equal({ kind: 'scan', seq: 10 });
    expect(resumed.artifact('x')).to.deep.equal({ kind: 'other', seq: 2500 });
  });
});

/**
 * On a read-model file (issue 19) the hashes are digest sets: 32-byte keys written at each flush,
 * any other hash string a plain record. Folded in batches with a flush after each and the file
 * reopened halfway, it answers exactly as the heap fold of the same events.
 */
describe('ledger-index projection on a read-model file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'plumbline-ledger-index-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Folds `events` onto the file at `path` in batches of `batch`, flushing after each. */
  function foldOnDisk(path: string, events: SealedEvent[], batch: number): LedgerIndexState {
    let file = ReadModelFile.own(path);
    let opened = ledgerIndex.openOnDisk!(file, null);
    for (let at = 0; at < events.length; at += batch) {
      if (at === Math.floor(events.length / batch / 2) * batch) {
        // Reopened halfway: what it answers comes from the file and its stored aggregates.
        file.close();
        file = ReadModelFile.own(path);
        opened = ledgerIndex.openOnDisk!(file, file.stored(ledgerIndex.name)?.aggregates ?? null);
      }
      const fold = foldingOn(file);
      fold(() => {
        for (const e of events.slice(at, at + batch)) ledgerIndex.evolve(opened.state, e);
      });
      file.flush([
        {
          name: ledgerIndex.name,
          version: ledgerIndex.version,
          checkpoint: at + batch,
          aggregates: opened.aggregates(),
        },
      ]);
    }
    return opened.state;
  }

  it('answers as the heap does, first recordings and odd hash strings included, across flushes and a reopen', () => {
    const events = withArtifacts(chain(600), {
      1: [{ kind: 'scan', hash: A }],
      2: [
        { kind: 'credit_report', hash: A },
        { kind: 'notarization', hash: B },
      ],
      3: [{ kind: 'odd', hash: 'UPPER-or-other' }, { kind: 7, hash: 'ignored' }, 'junk'],
      // Recorded again after the flush that stored them: the first recordings still win.
      450: [
        { kind: 'odd-again', hash: 'UPPER-or-other' },
        { kind: 'late', hash: A },
      ],
      451: [{ kind: 'new-kind', hash: 'c'.repeat(64) }],
    });
    const heap = fold(events);
    const disk = foldOnDisk(join(dir, 'rm.db'), events, 100);
    for (const e of events) expect(disk.eventSeq(e.hash)).to.equal(e.seq);
    for (const hash of [A, B, 'c'.repeat(64), 'UPPER-or-other', 'ignored', A.toUpperCase(), 'f'.repeat(64)])
      expect(disk.artifact(hash), hash).to.deep.equal(heap.artifact(hash));
    expect(disk.artifact(A)).to.deep.equal({ kind: 'scan', seq: 1 });
    expect(disk.artifact('c'.repeat(64))).to.deep.equal({ kind: 'new-kind', seq: 451 });
    expect(disk.eventSeq(events[0]!.hash.toUpperCase())).to.equal(undefined);
    expect(disk.eventSeq('not a hash')).to.equal(undefined);
    expect(disk.count).to.equal(600);
  });

  it('keeps an event hash that is not a lower-case digest as a record, as the heap keeps it in a Map', () => {
    const events = chain(3).map((e, i) => (i === 1 ? { ...e, hash: e.hash.toUpperCase() } : e));
    const disk = foldOnDisk(join(dir, 'rm.db'), events, 2);
    for (const e of events) expect(disk.eventSeq(e.hash)).to.equal(e.seq);
    expect(disk.eventSeq(events[1]!.hash.toLowerCase())).to.equal(undefined);
  });
});
