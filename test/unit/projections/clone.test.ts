import { expect } from 'chai';
import fc from 'fast-check';
import { cloneJson } from '../../../src/platform/projections/clone.js';

describe('cloneJson (the folds’ copy of event data)', () => {
  it('equals structuredClone on any JSON value, key order included, and shares no object with its input (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copy = cloneJson(value);
        expect(JSON.stringify(copy)).to.equal(JSON.stringify(structuredClone(value)));
        expect(copy).to.deep.equal(value);
        if (typeof value === 'object' && value !== null) expect(copy).to.not.equal(value);
      }),
      { seed: 20261121, numRuns: 300 },
    );
  });

  it('copies deeply: writing into the copy leaves the original untouched', () => {
    const data = { lines: [{ line: 1, amount: 5 }], meta: { a: [1, 2] } };
    const copy = cloneJson(data);
    copy.lines[0]!.amount = 99;
    copy.meta.a.push(3);
    expect(data).to.deep.equal({ lines: [{ line: 1, amount: 5 }], meta: { a: [1, 2] } });
  });

  it('hands anything that is not plain data (a Date) to structuredClone, so it stays a Date', () => {
    const at = new Date('2026-01-02T03:04:05Z');
    const copy = cloneJson({ at });
    expect(copy.at).to.be.instanceOf(Date);
    expect(copy.at.getTime()).to.equal(at.getTime());
    expect(copy.at).to.not.equal(at);
  });
});
