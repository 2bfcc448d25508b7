/**
 * RFC 8785 (JCS) canonical JSON: every hash in the ledger, every provenance digest and every report
 * hash is taken over these bytes.
 *
 * The `canonicalize` package is the reference implementation and stays the authority. The fast path
 * is `safe-stable-stringify` (deterministic, strict): for JSON data — plain objects and arrays of
 * strings, finite numbers, booleans and null — it writes exactly JCS's bytes (keys sorted by UTF-16
 * code units, strings as `JSON.stringify` escapes them, numbers as ECMAScript's Number::toString,
 * `undefined` members left out, `toJSON` honoured), two to three times faster: `canonicalize` checks
 * every string for lone surrogates character by character and tracks cycles in a Set per object,
 * which made it ~5 % of a `score` (a 3 KB report and its event canonicalized per call).
 *
 * Everything the fast path does not take as plain JSON goes to the reference, which answers as it
 * always did — the same bytes, or the same error: anything the strict stringifier refuses (NaN,
 * ±Infinity, BigInt, functions, symbols, cycles) and any output holding an escaped UTF-16
 * surrogate (`\ud…`: a lone surrogate in the input, which JCS refuses, or a literal backslash-u text,
 * which it keeps). A property test holds the two equal over arbitrary JSON values
 * (test/unit/ledger/canonical.test.ts). This wrapper only adds a loud failure where JCS has no answer
 * at all (a top-level undefined or function).
 */
import canonicalizeImpl from 'canonicalize';
import { configure } from 'safe-stable-stringify';

// Depth and breadth are unbounded by default: nothing is ever cut short.
const stableStringify = configure({ deterministic: true, strict: true, circularValue: Error });

/** The reference encoder's answer, or its error. */
function reference(value: unknown): string {
  const out = canonicalizeImpl(value);
  if (out === undefined) throw new TypeError('value has no canonical JSON form');
  return out;
}

export function canonicalJson(value: unknown): string {
  let out: string | undefined;
  try {
    out = stableStringify(value);
  } catch {
    return reference(value);
  }
  if (out === undefined || out.includes('\\ud')) return reference(value);
  return out;
}
