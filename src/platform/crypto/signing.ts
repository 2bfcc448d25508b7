/**
 * Response signatures (SPEC §2). Every authenticated response carries
 * `Plumbline-Signature: t=<unix>,kid=<key id>,v1=<hex>` with
 * `v1 = HMAC-SHA256(signing_secret, "<t>.<sha256 hex of the exact body bytes>")`, and an RFC 9530
 * `Content-Digest`. Signing the body's digest rather than the body keeps the MAC input small and
 * lets a client check the digest header and the signature independently.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export type SignableBody = Buffer | Uint8Array | string;

/** Clients should refuse signatures further than this from their clock (SPEC §2). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const HEX64 = /^[0-9a-f]{64}$/;
const UNIX_SECONDS = /^\d{1,12}$/;
const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;

function bodyBytes(body: SignableBody): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
}

function mac(secret: string, t: number, body: SignableBody): string {
  const bodyHash = createHash('sha256').update(bodyBytes(body)).digest('hex');
  return createHmac('sha256', secret).update(`${t}.${bodyHash}`, 'utf8').digest('hex');
}

export interface SignResponseInput {
  /** The key's `plsig_…` signing secret. */
  secret: string;
  /** The key id (`key_…`) the client uses to pick the secret. */
  kid: string;
  /** The exact bytes sent; a string is signed as its UTF-8 encoding. */
  body: SignableBody;
  /** Signing time in unix seconds, from the injected clock. */
  t: number;
}

/** The value of the `Plumbline-Signature` header. */
export function signResponse({ secret, kid, body, t }: SignResponseInput): string {
  if (!Number.isSafeInteger(t) || t < 0) throw new RangeError(`t must be unix seconds, got ${t}`);
  if (!KEY_ID.test(kid)) throw new RangeError(`kid has characters the header cannot carry: ${kid}`);
  return `t=${t},kid=${kid},v1=${mac(secret, t, body)}`;
}

/** RFC 9530 `Content-Digest` value: `sha-256=:<base64>:`. */
export function contentDigest(body: SignableBody): string {
  return `sha-256=:${createHash('sha256').update(bodyBytes(body)).digest('base64')}:`;
}

/** Both headers a signed response carries, ready for `res.set(...)`. */
export function signatureHeaders(input: SignResponseInput): {
  'Plumbline-Signature': string;
  'Content-Digest': string;
} {
  return { 'Plumbline-Signature': signResponse(input), 'Content-Digest': contentDigest(input.body) };
}

export interface VerifySignatureInput {
  /** The `Plumbline-Signature` header as received. */
  header: string;
  /** The exact body bytes received. */
  body: SignableBody;
  secret: string;
  now: Date;
  /** Largest accepted |now − t|, seconds. Default {@link SIGNATURE_TOLERANCE_SECONDS}. */
  toleranceSeconds?: number;
}

export type SignatureVerification =
  | { status: 'ok'; t: number; kid: string }
  /** The header is not `t=…,kid=…,v1=<64 hex>`. */
  | { status: 'bad_format' }
  /** Authentic, but signed too long ago (or ahead): a replay or a badly skewed clock. */
  | { status: 'stale'; t: number; kid: string; skew_s: number }
  /** Wrong secret or altered body. */
  | { status: 'mismatch'; t: number; kid: string };

interface SignatureParts {
  t: number;
  kid: string;
  v1: string;
}

/** Order-free `name=value` pairs; unknown names are ignored so 1.x may add fields (SPEC §2). */
function parseSignatureHeader(header: string): SignatureParts | undefined {
  const fields = new Map<string, string>();
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return undefined;
    const name = part.slice(0, eq).trim();
    if (fields.has(name)) return undefined;
    fields.set(name, part.slice(eq + 1).trim());
  }
  const t = fields.get('t');
  const kid = fields.get('kid');
  const v1 = fields.get('v1');
  if (t === undefined || !UNIX_SECONDS.test(t)) return undefined;
  if (kid === undefined || !KEY_ID.test(kid)) return undefined;
  if (v1 === undefined || !HEX64.test(v1)) return undefined;
  return { t: Number(t), kid, v1 };
}

/**
 * Checks a response signature. The MAC is checked before freshness, so `stale` is only ever
 * reported for a signature that is otherwise authentic.
 */
export function verifySignature(input: VerifySignatureInput): SignatureVerification {
  const parts = parseSignatureHeader(input.header);
  if (!parts) return { status: 'bad_format' };
  const { t, kid, v1 } = parts;
  const expected = Buffer.from(mac(input.secret, t, input.body), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(v1, 'hex'))) return { status: 'mismatch', t, kid };
  const skew = Math.floor(input.now.getTime() / 1000) - t;
  if (Math.abs(skew) > (input.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS)) {
    return { status: 'stale', t, kid, skew_s: skew };
  }
  return { status: 'ok', t, kid };
}
