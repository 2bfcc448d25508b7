/**
 * Ed25519 (RFC 8032) signatures of signed duties (docs/duties.md), through node:crypto: raw
 * 32-byte public keys and 64-byte signatures in standard padded base64, the message being the
 * 32-byte SHA-256 of a signing document's RFC 8785 canonical JSON (src/sdk/duties.ts).
 */
import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { canonicalJson } from '../ledger/canonical.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Strict standard base64 (one text form per value), or null. */
export function strictBase64(text: string): Buffer | null {
  if (!BASE64.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : null;
}

/** The key object of a base64 raw Ed25519 public key, or null when it is not one. */
export function ed25519PublicKey(base64: string): KeyObject | null {
  const raw = strictBase64(base64);
  if (raw === null || raw.length !== 32) return null;
  try {
    return createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') },
      format: 'jwk',
    });
  } catch {
    return null;
  }
}

/** `sk_` + the first 16 hex digits of SHA-256 of the raw public key: a public key's stable name. */
export function ed25519KeyId(base64: string): string {
  const raw = strictBase64(base64) ?? Buffer.alloc(0);
  return `sk_${createHash('sha256').update(raw).digest('hex').slice(0, 16)}`;
}

/** SHA-256 (hex) of a signing document's canonical JSON: what the signature covers. */
export function signingDigestHex(document: unknown): string {
  return createHash('sha256').update(canonicalJson(document), 'utf8').digest('hex');
}

/** Whether `signature` (base64) is the key's Ed25519 signature over the document's SHA-256. */
export function verifyDocumentSignature(
  publicKeyBase64: string,
  document: unknown,
  signature: string,
): boolean {
  const key = ed25519PublicKey(publicKeyBase64);
  const sig = strictBase64(signature);
  if (key === null || sig === null || sig.length !== 64) return false;
  try {
    return verify(null, Buffer.from(signingDigestHex(document), 'hex'), key, sig);
  } catch {
    return false;
  }
}
