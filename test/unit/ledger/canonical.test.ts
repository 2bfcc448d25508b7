import { expect } from 'chai';
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { canonicalJson } from '../../../src/platform/ledger/index.js';

/** The reference's answer as a comparable value: its bytes, or the error it throws. */
function answerOf(encode: (v: unknown) => string | undefined, value: unknown): string {
  try {
    const out = encode(value);
    return out === undefined ? 'no form' : `ok ${out}`;
  } catch (error) {
    return `throws ${(error as Error).message}`;
  }
}

/** What canonicalJson always answered: the reference's bytes, and a loud refusal where it has none. */
const reference = (v: unknown) =>
  answerOf((x) => {
    const out = canonicalize(x);
    if (out === undefined) throw new TypeError('value has no canonical JSON form');
    return out;
  }, v);
const ours = (v: unknown) => answerOf(canonicalJson, v);

/** Strings with every kind of character JCS treats specially: controls, quotes, astral, surrogates. */
const nastyString = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.string({
    unit: fc.constantFrom('"', '\\', '\u0000', '\u001f', '\u007f', '\u2028', 'é', '😀', 'u', 'd', '8'),
  }),
  fc.constantFrom('\ud800', 'a\udc00b', '\\ud800', '\\\\ud800', '\ud83d\ude00', '\ud83d', '__proto__', ''),
);

const number = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(0, -0, 1e21, 1e-7, 5e-324, Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, 0.1 + 0.2, NaN, Infinity),
);

/** JSON-like values, plus the non-JSON members the reference either skips or refuses. */
const value = fc.letrec((tie) => ({
  leaf: fc.oneof(
    nastyString,
    number,
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.date({ noInvalidDate: true }),
  ),
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('leaf'),
    fc.array(tie('node'), { maxLength: 6 }),
    fc.dictionary(nastyString, tie('node'), { maxKeys: 6 }),
  ),
})).node;

/** RFC 8785 §3.2.3's input, written as the RFC writes it (its first number is rounded on purpose). */
function rfcExample(): unknown {
  return {
    // eslint-disable-next-line no-loss-of-precision -- the RFC's own literal, rounded by design
    numbers: [333333333.33333329, 1e30, 4.5, 2e-3, 0.000000000000000000000000001],
    string: '\u20ac$\u000F\u000aA\'\u0042\u0022\u005c\\"/',
    literals: [null, true, false],
  };
}

describe('canonical JSON (RFC 8785 JCS)', () => {
  it('writes exactly the reference’s bytes — or throws its error — for arbitrary JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(ours(v)).to.equal(reference(v));
      }),
      { numRuns: 3000 },
    );
  });

  it('answers as the reference for nasty strings, numbers, undefined, dates, NaN and lone surrogates', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(ours(v)).to.equal(reference(v));
      }),
      { numRuns: 5000 },
    );
  });

  const CASES: [string, unknown][] = [
    ['NaN', { a: NaN }],
    ['Infinity', [1, -Infinity]],
    ['a BigInt', { a: 1n }],
    ['a lone high surrogate', { a: 'x\ud800' }],
    ['a lone surrogate key', { '\udc00': 1 }],
    ['a literal backslash-u text', { a: '\\ud800 is text' }],
    [
      'a cycle',
      (() => {
        const o: Record<string, unknown> = { a: 1 };
        o.self = o;
        return o;
      })(),
    ],
    ['a function member', { f: () => 1 }],
    ['a symbol member and element', { s: Symbol('x'), a: [Symbol('y')] }],
    ['undefined members and elements', { u: undefined, a: [undefined, 1] }],
    ['a toJSON', { d: new Date(0), t: { toJSON: () => ({ z: 1, a: [2] }) } }],
    ['a top-level undefined', undefined],
    ['a top-level string', 'plain'],
    ['keys in UTF-16 code-unit order', { é: 1, e: 2, Z: 3, '😀': 4, '\uffff': 5, '': 6 }],
    ['numbers at ECMAScript’s edges', [-0, 1e21, 1e-7, 5e-324, 2 ** 53 + 2, 0.1 + 0.2, 123e-20]],
    ['RFC 8785 §3.2.3’s example', rfcExample()],
  ];
  for (const [what, v] of CASES) {
    it(`answers as the reference for ${what}`, () => {
      expect(ours(v)).to.equal(reference(v));
    });
  }

  it('writes RFC 8785 §3.2.3’s published output', () => {
    expect(canonicalJson(rfcExample())).to.equal(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });
});
