import { expect } from 'chai';
import fc from 'fast-check';
import { canonicalJson, referenceCanonicalJson } from '../../../src/platform/ledger/canonical.js';

/** What a canonicalization gives: its text, or the kind and message of what it threw. */
function outcome(f: (value: unknown) => string, value: unknown): { text: string } | { threw: string } {
  try {
    return { text: f(value) };
  } catch (error) {
    return { threw: `${(error as Error).constructor.name}: ${(error as Error).message}` };
  }
}

const agree = (value: unknown): void => {
  expect(outcome(canonicalJson, value)).to.deep.equal(outcome(referenceCanonicalJson, value));
};

/** Strings with every kind of code unit: ASCII, escapes, astral pairs and lone surrogates. */
const anyString = fc.string({ unit: 'binary', maxLength: 12 });
const loneSurrogates = fc.constantFrom('\ud800', 'a\udc00b', '\udbff\ud800', '\ud83d\ude00\ud83d');

describe('canonicalJson (RFC 8785) against the reference implementation', () => {
  it('gives the reference bytes for any JSON value, full Unicode included', () => {
    fc.assert(fc.property(fc.jsonValue(), agree), { numRuns: 2000 });
    fc.assert(
      fc.property(
        fc.letrec((tie) => ({
          value: fc.oneof(
            { depthSize: 'small' },
            anyString,
            loneSurrogates,
            fc.double(),
            fc.integer(),
            fc.boolean(),
            fc.constant(null),
            fc.array(tie('value'), { maxLength: 5 }),
            fc.dictionary(fc.oneof(anyString, loneSurrogates), tie('value'), { maxKeys: 5 }),
          ),
        })).value,
        agree,
      ),
      { numRuns: 2000 },
    );
  });

  it('answers or throws as the reference does for what JSON lacks (NaN, undefined, dates, cycles…)', () => {
    fc.assert(
      fc.property(fc.anything({ withDate: true, withNullPrototype: true, withSparseArray: true }), agree),
      {
        numRuns: 1000,
      },
    );
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    const sparse: unknown[] = new Array(3);
    sparse[0] = 1;
    sparse[2] = 3;
    const deep: unknown[] = [];
    let at = deep;
    for (let i = 0; i < 400; i += 1) {
      const inner: unknown[] = [];
      at[0] = inner;
      at = inner;
    }
    for (const value of [
      NaN,
      -Infinity,
      -0,
      undefined,
      () => 1,
      Symbol('s'),
      [undefined, () => 1, Symbol('s')],
      { a: undefined, b: Symbol('s'), c: () => 1 },
      new Date(0),
      { when: new Date(0), n: sparse },
      { toJSON: () => ({ z: 1, a: [2] }) },
      cycle,
      deep,
      '\ud800',
      { '\udc00': 1 },
      1e21,
      5e-324,
    ])
      agree(value);
  });

  it('throws where the reference has no canonical form, never hashing something else', () => {
    expect(() => canonicalJson(undefined)).to.throw(TypeError);
    expect(() => canonicalJson({ s: 'a\ud800' })).to.throw(/surrogate/i);
    expect(() => canonicalJson([NaN])).to.throw(/NaN/);
  });
});
