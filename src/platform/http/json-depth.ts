/**
 * Nesting depth of a JSON text, measured on the raw bytes before anything parses them, so no parse
 * and no walk over request data ever recurses deeper than MAX_JSON_DEPTH (issue 13 item 1: a 10 KB
 * body of 5,000 nested arrays overflowed the stack of a recursive walk and ended the process).
 */

/**
 * The deepest nesting of arrays and objects a request body may have. Every body the HTTP contract
 * defines is at most a handful of levels deep (SPEC §3–§9), so 64 refuses nothing legitimate and
 * keeps every recursive consumer (JSON.parse, zod, RFC 8785 canonicalization) far from the stack
 * limit.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * The first nesting depth above `max` a JSON text reaches, or null when it stays within `max`.
 * One pass, no recursion: brackets inside strings do not count and `\"` does not end a string.
 * The text is UTF-8 bytes or a decoded string; the structural characters are ASCII either way, and
 * in UTF-8 no byte of a multi-byte sequence is below 0x80. A malformed text (unbalanced brackets,
 * unterminated string) is left for the parser to refuse.
 */
export function depthBeyond(text: Uint8Array | string, max: number = MAX_JSON_DEPTH): number | null {
  const at: (i: number) => number =
    typeof text === 'string' ? (i) => text.charCodeAt(i) : (i) => text[i] ?? 0;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = at(i);
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
      continue;
    }
    switch (c) {
      case QUOTE:
        inString = true;
        break;
      case OPEN_ARRAY:
      case OPEN_OBJECT:
        depth += 1;
        if (depth > max) return depth;
        break;
      case CLOSE_ARRAY:
      case CLOSE_OBJECT:
        depth -= 1;
        break;
      default:
        break;
    }
  }
  return null;
}
