/**
 * A state's JSON in parts of a few MiB, byte for byte `JSON.stringify(value)` concatenated: a
 * snapshot of a large read model is written part by part, so a save never holds the whole text as
 * one string, again as one buffer and again in the database driver (three copies of hundreds of MiB
 * beside the state itself). The walk descends two levels (the state, then its collections); anything
 * deeper, and anything that is not a plain object or array, is left to `JSON.stringify`.
 */

const DEPTH = 2;

function isPlainContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  if (Array.isArray(value)) return true;
  if (typeof value !== 'object' || value === null) return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** What `JSON.stringify` omits from an object and writes as `null` in an array. */
function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

export function* jsonParts(value: unknown, partChars = 4 * 2 ** 20): Generator<Uint8Array> {
  let text = '';
  function* flushIfFull(): Generator<Uint8Array> {
    if (text.length < partChars) return;
    yield Buffer.from(text, 'utf8');
    text = '';
  }
  const isLeaf = (v: unknown, depth: number): boolean => depth >= DEPTH || !isPlainContainer(v);
  function* write(v: unknown, depth: number): Generator<Uint8Array> {
    if (depth >= DEPTH || !isPlainContainer(v)) {
      text += JSON.stringify(v);
      yield* flushIfFull();
      return;
    }
    if (Array.isArray(v)) {
      text += '[';
      for (let i = 0; i < v.length; i += 1) {
        if (i > 0) text += ',';
        const item: unknown = v[i];
        if (isSkipped(item)) text += 'null';
        else if (isLeaf(item, depth + 1)) text += JSON.stringify(item);
        else yield* write(item, depth + 1);
        if (text.length >= partChars) yield* flushIfFull();
      }
      text += ']';
      return;
    }
    text += '{';
    let first = true;
    for (const key of Object.keys(v)) {
      const item = v[key];
      if (isSkipped(item)) continue;
      text += `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      if (isLeaf(item, depth + 1)) text += JSON.stringify(item);
      else yield* write(item, depth + 1);
      if (text.length >= partChars) yield* flushIfFull();
    }
    text += '}';
  }
  yield* write(value, 0);
  if (text.length > 0) yield Buffer.from(text, 'utf8');
}
