import { expect } from 'chai';
import { ledgerIndex, type LedgerIndexState } from '../../../projections/ledger-index.js';
import { decodeState, encodeState } from '../../../src/platform/projections/index.js';
import type { SealedEvent } from '../../../src/platform/ledger/index.js';
import { chain } from '../../support/events.js';

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
