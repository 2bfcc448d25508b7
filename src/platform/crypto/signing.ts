/**
 * Response signatures (SPEC §2). Every authenticated response carries
 * `Plumbline-Signature: t=<unix>,kid=<key id>,v1=<hex>` with
 * `v1 = HMAC-SHA256(signing_secret, "<t>.<sha256 hex of the exact body bytes>")`, and an RFC 9530
 * `Content-Digest`. Signing the body's digest rather than the body keeps the MAC input small and
 * lets a client check the digest header and the signature independently.
 *
 * v2 (issue 13 item 8) also binds the exchange, so a signed answer cannot be replayed as the
 * answer to another request: `v2 = HMAC-SHA256(signing_secret, "v2\n<t>\n<kid>\n<METHOD>\n
 * <path?query>\n<status>\n<Request-Id>\n<sha256 hex of the body>")`, sent beside v1 (kept for
 * clients that know only v1): `t=…,kid=…,v1=…,v2=…`.
 */
import { createHmac, hash, timingSafeEqual } from 'node:crypto';

export type SignableBody = Buffer | Uint8Array | string;

/** Clients should refuse signatures further than this from their clock (SPEC §2). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const HEX64 = /^[0-9a-f]{64}$/;
const UNIX_SECONDS = /^\d{1,12}$/;
const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * SHA-256 of the exact body bytes (a string as its UTF-8 encoding), computed once per response; the
 * one-shot `crypto.hash` (no Hash object per response).
 */
function bodyDigest(body: SignableBody): Buffer {
  return hash('sha256', body, 'buffer');
}

function mac(secret: string, t: number, bodyHash: string): string {
  return createHmac('sha256', secret).update(`${t}.${bodyHash}`, 'utf8').digest('hex');
}

/** What v2 binds besides the body: the request as the client sent it and the answer's status. */
export interface SignatureBinding {
  method: string;
  /** The request target exactly as received: path and query (`/api/projects?limit=5`). */
  target: string;
  status: number;
  requestId: string;
}

/** The v2 MAC input (the SDK builds the same string; docs/security-edge.md). */
export function signatureV2Input(
  t: number,
  kid: string,
  binding: SignatureBinding,
  bodySha256Hex: string,
): string {
  // One template (no array per response): the lines of the input, joined by \n.
  return `v2\n${t}\n${kid}\n${binding.method.toUpperCase()}\n${binding.target}\n${binding.status}\n${binding.requestId}\n${bodySha256Hex}`;
}

function macV2(secret: string, t: number, kid: string, binding: SignatureBinding, bodyHash: string): string {
  return createHmac('sha256', secret)
    .update(signatureV2Input(t, kid, binding, bodyHash), 'utf8')
    .digest('hex');
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
  /** When given, the header also carries v2 over the method, target, status and Request-Id. */
  binding?: SignatureBinding;
}

/** The header value from the body's digest (so one digest serves the header and Content-Digest). */
function signDigest({ secret, kid, t, binding }: SignResponseInput, digest: Buffer): string {
  if (!Number.isSafeInteger(t) || t < 0) throw new RangeError(`t must be unix seconds, got ${t}`);
  if (!KEY_ID.test(kid)) throw new RangeError(`kid has characters the header cannot carry: ${kid}`);
  const bodyHash = digest.toString('hex');
  const v1 = `t=${t},kid=${kid},v1=${mac(secret, t, bodyHash)}`;
  return binding ? `${v1},v2=${macV2(secret, t, kid, binding, bodyHash)}` : v1;
}

/** The value of the `Plumbline-Signature` header. */
export function signResponse(input: SignResponseInput): string {
  return signDigest(input, bodyDigest(input.body));
}

/** RFC 9530 `Content-Digest` value: `sha-256=:<base64>:`. */
export function contentDigest(body: SignableBody): string {
  return `sha-256=:${bodyDigest(body).toString('base64')}:`;
}

/** Both headers a signed response carries, ready for `res.set(...)`; the body is hashed once. */
export function signatureHeaders(input: SignResponseInput): {
  'Plumbline-Signature': string;
  'Content-Digest': string;
} {
  const digest = bodyDigest(input.body);
  return {
    'Plumbline-Signature': signDigest(input, digest),
    'Content-Digest': `sha-256=:${digest.toString('base64')}:`,
  };
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
  const expected = Buffer.from(mac(input.secret, t, bodyDigest(input.body).toString('hex')), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(v1, 'hex'))) return { status: 'mismatch', t, kid };
  const skew = Math.floor(input.now.getTime() / 1000) - t;
  if (Math.abs(skew) > (input.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS)) {
    return { status: 'stale', t, kid, skew_s: skew };
  }
  return { status: 'ok', t, kid };
}
