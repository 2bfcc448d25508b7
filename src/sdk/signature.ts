/**
 * Response signature verification (SPEC §2): `Plumbline-Signature: t=…,kid=…,v1=<hex>,v2=<hex>`
 * where v1 = HMAC-SHA256(signing_secret, "<t>.<sha256 hex of the exact body bytes>") and v2 also
 * binds the exchange: HMAC-SHA256(signing_secret, "v2\n<t>\n<kid>\n<METHOD>\n<path?query>\n
 * <status>\n<Request-Id>\n<sha256 hex of the body>"); and the RFC 9530 `Content-Digest`. Uses @noble/hashes rather than WebCrypto because `crypto.subtle` is missing on
 * pages served over plain http (non-localhost), and a ledger explorer may well be one.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** Clients should refuse signatures further than this from their clock (SPEC §2). */
export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300;

/** What a signature check can be handed: a fetch Response, or the parts of one already read. */
export type SignedMessage =
  | Response
  | {
      headers: Headers | Record<string, string | undefined>;
      /** The body as text (UTF-8 is what the server signs for JSON). */
      bodyText?: string;
      /** The exact body bytes (use for binary bodies such as the PDF). */
      body?: Uint8Array | ArrayBuffer;
    };

export interface VerifySignatureOptions {
  /** The clock to judge freshness by; default the system clock. */
  now?: Date;
  /** Largest accepted |now − t|, seconds (default 300). */
  toleranceSeconds?: number;
  /**
   * The request this answers. Given, the signature's v2 must be present and bind this method, this
   * URL's path and query, the answer's status and its Request-Id (so an answer cannot be replayed
   * as another request's, error answers included).
   */
  request?: { method: string; url: string };
  /** The answer's status, when `message` is not a fetch Response. */
  status?: number;
}

export type SignatureFailure =
  /** No Plumbline-Signature header (public or unauthenticated responses are unsigned). */
  | 'missing'
  /** The header is not `t=…,kid=…,v1=<64 hex>`. */
  | 'bad_format'
  /** Wrong secret or altered body. */
  | 'mismatch'
  /** Content-Digest present but not the SHA-256 of the body. */
  | 'digest_mismatch'
  /** Authentic but outside the tolerance: a replay or a badly skewed clock. */
  | 'stale'
  /** v2 missing, or it does not bind this request's method, URL, status and Request-Id. */
  | 'binding_mismatch';

export type SignatureVerification =
  | { valid: true; t: number; kid: string }
  | { valid: false; reason: SignatureFailure; t?: number; kid?: string };

/** A fetch Headers, from this realm or another fetch implementation's. */
function isHeaders(headers: Headers | Record<string, string | undefined>): headers is Headers {
  return typeof (headers as { get?: unknown }).get === 'function';
}

function headerOf(headers: Headers | Record<string, string | undefined>, name: string): string | null {
  if (isHeaders(headers)) return headers.get(name);
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers))
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  return null;
}

async function bodyBytesOf(message: SignedMessage): Promise<Uint8Array> {
  if (message instanceof Response) return new Uint8Array(await message.clone().arrayBuffer());
  if (message.body !== undefined)
    return message.body instanceof Uint8Array ? message.body : new Uint8Array(message.body);
  return utf8ToBytes(message.bodyText ?? '');
}

/** Order-free `name=value` pairs; unknown names are ignored so 1.x may add fields. */
function parseHeader(header: string): { t: number; kid: string; v1: string; v2: string | null } | null {
  const fields = new Map<string, string>();
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return null;
    fields.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const t = fields.get('t');
  const kid = fields.get('kid');
  const v1 = fields.get('v1');
  if (t === undefined || !/^\d{1,12}$/.test(t)) return null;
  if (kid === undefined || !/^[A-Za-z0-9_-]{1,64}$/.test(kid)) return null;
  if (v1 === undefined || !/^[0-9a-f]{64}$/.test(v1)) return null;
  const v2 = fields.get('v2');
  if (v2 !== undefined && !/^[0-9a-f]{64}$/.test(v2)) return null;
  return { t: Number(t), kid, v1, v2: v2 ?? null };
}

/** Compares without an early exit, so timing does not reveal how much of a MAC matched. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Checks a response's signature with the key's `plsig_…` secret. The MAC is checked before
 * freshness, so `stale` is only reported for a signature that is otherwise authentic.
 */
export async function verifySignature(
  message: SignedMessage,
  signingSecret: string,
  options: VerifySignatureOptions = {},
): Promise<SignatureVerification> {
  const header = headerOf(message.headers, 'plumbline-signature');
  if (header === null) return { valid: false, reason: 'missing' };
  const parts = parseHeader(header);
  if (!parts) return { valid: false, reason: 'bad_format' };
  const { t, kid } = parts;
  const body = await bodyBytesOf(message);
  const digest = sha256(body);
  const mac = bytesToHex(hmac(sha256, utf8ToBytes(signingSecret), utf8ToBytes(`${t}.${bytesToHex(digest)}`)));
  if (!constantTimeEqual(mac, parts.v1)) return { valid: false, reason: 'mismatch', t, kid };
  const contentDigest = headerOf(message.headers, 'content-digest');
  if (contentDigest !== null && contentDigest !== `sha-256=:${base64(digest)}:`)
    return { valid: false, reason: 'digest_mismatch', t, kid };
  if (options.request) {
    const status = message instanceof Response ? message.status : options.status;
    const target = new URL(options.request.url);
    const input = [
      'v2',
      String(t),
      kid,
      options.request.method.toUpperCase(),
      `${target.pathname}${target.search}`,
      String(status),
      headerOf(message.headers, 'request-id') ?? '',
      bytesToHex(digest),
    ].join('\n');
    const v2 = bytesToHex(hmac(sha256, utf8ToBytes(signingSecret), utf8ToBytes(input)));
    if (parts.v2 === null || !constantTimeEqual(v2, parts.v2))
      return { valid: false, reason: 'binding_mismatch', t, kid };
  }
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_SIGNATURE_TOLERANCE_SECONDS;
  if (Math.abs(now - t) > tolerance) return { valid: false, reason: 'stale', t, kid };
  return { valid: true, t, kid };
}
