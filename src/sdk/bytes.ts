/**
 * Byte helpers shared by the SDK's verifiers: strict RFC 4648 §4 base64 (what signed notes,
 * checkpoints and proofs use), hex, comparison and concatenation. Browser-safe (no Buffer).
 */
import { bytesToHex as nobleBytesToHex, hexToBytes as nobleHexToBytes } from '@noble/hashes/utils.js';

export const bytesToHex = (bytes: Uint8Array): string => nobleBytesToHex(bytes);
export const hexToBytes = (hex: string): Uint8Array => nobleHexToBytes(hex);

/** Standard base64 with padding (RFC 4648 §4). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Decodes standard padded base64, refusing anything else (whitespace, URL-safe letters, missing
 * padding, non-canonical trailing bits), so one value has exactly one text form. Null if refused.
 */
export function fromBase64(text: string): Uint8Array | null {
  if (!BASE64.test(text)) return null;
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return toBase64(bytes) === text ? bytes : null;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
