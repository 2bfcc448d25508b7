/**
 * C2SP tlog-tiles: tiles of height 8 (256 hashes wide). The tile at level L, index N holds the
 * hashes of tree level 8·L, nodes 256·N … 256·N + W − 1, concatenated (32 bytes each); the entry
 * bundle N holds leaf inputs 256·N … as big-endian uint16 length ‖ bytes. Paths:
 * `tile/<L>/<N>[.p/<W>]` and `tile/entries/<N>[.p/<W>]`, N written in groups of three digits, every
 * group but the last prefixed with `x` (1234067 → `x001/x234/067`).
 */
export const TILE_HEIGHT = 8;
export const TILE_WIDTH = 256;

/** `x001/x234/067` for 1234067; `000` for 0. */
export function encodeTileIndex(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`bad tile index ${n}`);
  const groups: string[] = [];
  let rest = n;
  do {
    groups.unshift(String(rest % 1000).padStart(3, '0'));
    rest = Math.floor(rest / 1000);
  } while (rest > 0);
  return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join('/');
}

export interface TileRef {
  /** 'entries' for an entry bundle, else the tile level. */
  level: number | 'entries';
  index: number;
  /** 256 for a full tile, 1–255 for a partial one. */
  width: number;
}

export function tilePath(ref: TileRef): string {
  const base = `tile/${ref.level}/${encodeTileIndex(ref.index)}`;
  return ref.width === TILE_WIDTH ? base : `${base}.p/${ref.width}`;
}

const INDEX_PATH = /^((?:x\d{3}\/)*)(\d{3})(?:\.p\/([1-9]\d{0,2}))?$/;

/**
 * Parses what follows `tile/` (`0/x001/234`, `entries/005.p/12`); null for anything not in the
 * spec's canonical form (leading zero groups, widths outside 1–255, levels with leading zeros).
 */
export function parseTilePath(rest: string): TileRef | null {
  const slash = rest.indexOf('/');
  if (slash < 0) return null;
  const head = rest.slice(0, slash);
  let level: number | 'entries';
  if (head === 'entries') level = 'entries';
  else if (/^(0|[1-9]\d?)$/.test(head) && Number(head) <= 63) level = Number(head);
  else return null;
  const m = INDEX_PATH.exec(rest.slice(slash + 1));
  if (!m) return null;
  const groups = [
    ...(m[1] ?? '')
      .split('/')
      .filter(Boolean)
      .map((g) => g.slice(1)),
    m[2]!,
  ];
  if (groups.length > 1 && groups[0] === '000') return null;
  const index = Number(groups.join(''));
  if (!Number.isSafeInteger(index)) return null;
  const width = m[3] === undefined ? TILE_WIDTH : Number(m[3]);
  if (m[3] !== undefined && width > TILE_WIDTH - 1) return null;
  return { level, index, width };
}

/** How many hashes of tile level L exist in a tree of `size` leaves (complete subtrees of height 8·L). */
export function hashesAtTileLevel(size: number, level: number): number {
  return Math.floor(size / TILE_WIDTH ** level);
}

/** The width tile N of level L has in a tree of `size` (0: it does not exist yet). */
export function tileWidth(size: number, level: number | 'entries', index: number): number {
  const count = hashesAtTileLevel(size, level === 'entries' ? 0 : level);
  return Math.max(0, Math.min(TILE_WIDTH, count - index * TILE_WIDTH));
}

/** Entry bundle bytes: each entry as big-endian uint16 length followed by its bytes. */
export function encodeEntryBundle(entries: readonly Uint8Array[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    if (entry.length > 0xffff) throw new RangeError('an entry is longer than 65535 bytes');
    const len = Buffer.alloc(2);
    len.writeUInt16BE(entry.length, 0);
    parts.push(len, Buffer.from(entry));
  }
  return Buffer.concat(parts);
}

export function decodeEntryBundle(bytes: Uint8Array): Buffer[] {
  const buf = Buffer.from(bytes);
  const out: Buffer[] = [];
  let at = 0;
  while (at < buf.length) {
    if (at + 2 > buf.length) throw new RangeError('truncated entry bundle');
    const len = buf.readUInt16BE(at);
    if (at + 2 + len > buf.length) throw new RangeError('truncated entry bundle');
    out.push(buf.subarray(at + 2, at + 2 + len));
    at += 2 + len;
  }
  return out;
}
