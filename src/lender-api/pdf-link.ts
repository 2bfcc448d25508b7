/**
 * Short-lived signed links to the printable credit report (issue 13 item 7, OWASP API2): instead
 * of an API key in a URL — which ends up in browser history, proxies and Referer headers — a lender
 * asks `action=pdf_link` for a link that opens one entity's report for at most PDF_LINK_TTL_S
 * seconds, as the key that asked for it. The token is HMAC-SHA256 under a key derived from the
 * server's signing key; it names the entity (as the link's `entity` parameter spells it), the key
 * id and the expiry, so it opens nothing else and nothing later.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/** A link's lifetime in seconds: long enough to click, short enough that a leaked one is dead. */
export const PDF_LINK_TTL_S = 300;

const TOKEN = /^([A-Za-z0-9_-]{1,800})\.([A-Za-z0-9_-]{43})$/;

const Claims = z.strictObject({
  v: z.literal(1),
  entity: z.string().min(1).max(200),
  key_id: z.string().min(1).max(100),
  /** Expiry, Unix seconds. */
  exp: z.number().int().positive(),
});
export type PdfLinkClaims = z.infer<typeof Claims>;

/** The link key, derived once from the server's signing key (never the key itself). */
export function pdfLinkKey(signingKey: string): Buffer {
  return createHmac('sha256', signingKey).update('plumbline pdf-link v1').digest();
}

function mac(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(payload).digest();
}

export function signPdfLink(key: Buffer, claims: Omit<PdfLinkClaims, 'v'>): string {
  const payload = Buffer.from(JSON.stringify({ v: 1, ...claims })).toString('base64url');
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

/**
 * The claims of a genuine, unexpired token, or null for anything else (forged, altered, expired,
 * malformed, or valid for longer than PDF_LINK_TTL_S, which no token this server signs is).
 */
export function verifyPdfLink(key: Buffer, token: string, now: Date): PdfLinkClaims | null {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, payload, signature] = match as unknown as [string, string, string];
  const expected = mac(key, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  // 43 characters carry 258 bits for 256: a last character differing in its two spare bits decodes
  // to the same MAC. Only the canonical spelling opens the link, so an altered token is refused.
  if (given.toString('base64url') !== signature) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const claims = Claims.safeParse(parsed);
  if (!claims.success) return null;
  const nowS = Math.floor(now.getTime() / 1000);
  if (claims.data.exp <= nowS || claims.data.exp > nowS + PDF_LINK_TTL_S) return null;
  return claims.data;
}
