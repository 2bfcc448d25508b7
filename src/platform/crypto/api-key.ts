/**
 * API key format (SPEC §1): `pl_live_` | `pl_test_` + 30 base62 characters + a 6-character base62
 * CRC32 of everything before it, GitHub-token style, so a mistyped or truncated key is refused by
 * arithmetic before any lookup. Key material is never stored: the server keeps only
 * HMAC-SHA256(pepper, key) (ARCHITECTURE §4) and finds a key's record by that digest.
 */
import { createHmac, randomBytes as nodeRandomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { derivedEventId, idFromUuid } from '../ids.js';

/**
 * What a key may do (SPEC §1). `admin` is a tenant's: it implies every tenant scope, for its own
 * org only. `registry:admin` is the platform operator's (the global contractor registry, facts
 * about entities outside any project), and `platform:admin` too (registering orgs, issuing and
 * revoking any org's keys): `admin` never implies them and no tenant can be granted them.
 */
export const API_KEY_SCOPES = [
  'credit:read',
  'governance:write',
  'governance:read',
  'ledger:read',
  /** Transparency log reads only (checkpoints, tiles, proofs): witnesses and monitors. */
  'tlog:read',
  'admin',
  'registry:admin',
  /** Accepting a draw's conditions or reduced amount before payment (DOMAIN §9, issue 14). */
  'draws:approve',
  /** The platform operator's org and key administration (/api/admin/*, issue 17). */
  'platform:admin',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Scopes only the platform operator's org may hold; a tenant's `admin` does not imply them. */
export const PLATFORM_SCOPES: readonly ApiKeyScope[] = ['registry:admin', 'platform:admin'];

export function isPlatformScope(scope: ApiKeyScope): boolean {
  return PLATFORM_SCOPES.includes(scope);
}

/** Whether a key holding `held` may act under `required`: directly, or through a tenant `admin`. */
export function grantsScope(held: readonly ApiKeyScope[], required: ApiKeyScope): boolean {
  return held.includes(required) || (held.includes('admin') && !isPlatformScope(required));
}

export function isApiKeyScope(value: string): value is ApiKeyScope {
  return (API_KEY_SCOPES as readonly string[]).includes(value);
}

/** `live` keys act on real data; `test` keys are for integrations (the prefix tells them apart in logs). */
export type ApiKeyMode = 'live' | 'test';

/** Source of randomness; injectable so the demo seed and tests mint reproducible keys. */
export type RandomBytes = (size: number) => Uint8Array;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
/** ceil(256 / log2(62)): every 32-byte secret fits, so secrets have one fixed length. */
const SECRET_LENGTH = 43;
const KEY_PATTERN = /^pl_(live|test)_([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/;

function base62(value: bigint, width: number): string {
  let out = '';
  let rest = value;
  while (rest > 0n) {
    out = BASE62[Number(rest % 62n)]! + out;
    rest /= 62n;
  }
  return out.padStart(width, '0');
}

/** Uniformly random base62 characters; bytes ≥ 248 are dropped so `% 62` has no bias. */
function randomBase62(length: number, randomBytes: RandomBytes): string {
  let out = '';
  // A real source needs ~1.03 rounds; the bound turns a broken injected source into an error, not a hang.
  for (let round = 0; round < 64 && out.length < length; round += 1) {
    for (const byte of randomBytes(length)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62]!;
    }
  }
  if (out.length < length) throw new RangeError('randomBytes keeps returning bytes outside 0..247');
  return out;
}

function checksum(body: string): string {
  return base62(BigInt(crc32(body)), CHECKSUM_LENGTH);
}

function bytesToBigInt(bytes: Uint8Array): bigint {
  return BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
}

/**
 * The key's public id. A one-way function of the key (UUIDv5 of it, shortened like every other
 * id in ids.ts), not of its peppered digest, so ids survive a pepper rotation. The server never
 * needs to compute it from a presented key: it looks the record up by `keyDigest(pepper, key)`
 * and the record carries the id. Publishing it (the `kid` of response signatures, `actor` in
 * event metadata) reveals nothing usable: inverting it means guessing 178 random bits.
 */
export function keyIdFor(key: string): string {
  return idFromUuid('key_', derivedEventId(`api-key:${key}`));
}

export interface GeneratedApiKey {
  /** The secret the client sends; shown once, never stored. */
  key: string;
  /** Public id (`key_…`), see {@link keyIdFor}. */
  key_id: string;
  /** `plsig_…`: HMAC secret for verifying response signatures (SPEC §2); shown once. */
  signing_secret: string;
}

export function generateApiKey(
  mode: ApiKeyMode,
  randomBytes: RandomBytes = nodeRandomBytes,
): GeneratedApiKey {
  const body = `pl_${mode}_${randomBase62(RANDOM_LENGTH, randomBytes)}`;
  const key = body + checksum(body);
  const secret = randomBytes(32);
  if (secret.length !== 32) throw new RangeError('randomBytes(32) must return 32 bytes');
  return {
    key,
    key_id: keyIdFor(key),
    signing_secret: `plsig_${base62(bytesToBigInt(secret), SECRET_LENGTH)}`,
  };
}

export type ParsedApiKey =
  | { status: 'ok'; key: string; mode: ApiKeyMode }
  /** Wrong prefix, length or alphabet. */
  | { status: 'malformed' }
  /** Well-formed but the checksum does not match: a typo or a made-up key. */
  | { status: 'bad_checksum' };

/** Checks format and checksum only; cheap and I/O-free, so it runs before any lookup. */
export function parseApiKey(input: string): ParsedApiKey {
  const match = KEY_PATTERN.exec(input);
  if (!match) return { status: 'malformed' };
  const [, mode, random, sum] = match;
  const body = `pl_${mode}_${random}`;
  if (checksum(body) !== sum) return { status: 'bad_checksum' };
  return { status: 'ok', key: input, mode: mode as ApiKeyMode };
}

/** HMAC-SHA256(pepper, key) as lowercase hex: the only form of a key the server keeps. */
export function keyDigest(pepper: string, key: string): string {
  return createHmac('sha256', pepper).update(key, 'utf8').digest('hex');
}

/**
 * Compares two digests in time independent of where they differ. Lengths are not secret
 * (every digest is 64 hex characters), so a length mismatch may return early.
 */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Whether `key` is the key whose stored digest is `storedDigest`. */
export function keyMatchesDigest(pepper: string, key: string, storedDigest: string): boolean {
  return digestsEqual(keyDigest(pepper, key), storedDigest);
}
