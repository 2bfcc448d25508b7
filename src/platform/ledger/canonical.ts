/**
 * RFC 8785 (JCS) canonical JSON. The `canonicalize` package is the reference implementation;
 * this wrapper only fails loudly where JCS has no answer (undefined, functions, BigInt).
 */
import canonicalizeImpl from 'canonicalize';

export function canonicalJson(value: unknown): string {
  const out = canonicalizeImpl(value);
  if (out === undefined) throw new TypeError('value has no canonical JSON form');
  return out;
}
