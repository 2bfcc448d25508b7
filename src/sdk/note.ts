/**
 * C2SP signed notes (c2sp.org/signed-note) and their Ed25519 signature types: 0x01 (a log's
 * checkpoint signature) and 0x04 (a witness's timestamped cosignature, c2sp.org/tlog-cosignature).
 * Verifier keys are `<name>+<hex key ID>+<base64(type || public key)>`; key ID =
 * SHA-256(name || 0x0A || type || public key)[:4]. Signatures are checked with WebCrypto Ed25519
 * (Node 20+, current browsers; a secure context is needed in a browser).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, fromBase64, utf8 } from './bytes.js';

/** 0x01 Ed25519 note signature; 0x04 timestamped Ed25519 cosignature (cosignature/v1). */
export type NoteKeyType = 0x01 | 0x04;

export const NOTE_KEY_ED25519: NoteKeyType = 0x01;
export const NOTE_KEY_COSIGNATURE_V1: NoteKeyType = 0x04;

export interface NoteVerifierKey {
  /** The key name (a log's origin, a witness's name). */
  name: string;
  /** The uint32 key ID. */
  keyId: number;
  type: NoteKeyType;
  /** The 32-byte Ed25519 public key. */
  publicKey: Uint8Array;
  /** The verifier key as text. */
  vkey: string;
}

export interface NoteSignature {
  name: string;
  keyId: number;
  /** The bytes after the key ID (for 0x04: 8-byte timestamp, then the signature). */
  signature: Uint8Array;
}

export interface ParsedNote {
  /** The signed text, ending in a newline. */
  text: string;
  signatures: NoteSignature[];
}

export interface VerifiedSignature {
  key: NoteVerifierKey;
  /** For a cosignature, its POSIX timestamp (seconds). */
  timestamp?: number;
}

/** A note, key or signature that is malformed or does not verify. */
export class NoteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoteError';
  }
}

const EM_DASH = '\u2014';
const MAX_SIGNATURES = 64;

/** Key names are non-empty, without Unicode spaces or '+'. */
export function isKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+]/u.test(name);
}

/** SHA-256(name || 0x0A || type || public key)[:4] as a uint32. */
export function noteKeyId(name: string, type: number, publicKey: Uint8Array): number {
  const digest = sha256(concatBytes(utf8(`${name}\n`), new Uint8Array([type]), publicKey));
  return (
    ((digest[0] ?? 0) * 2 ** 24 + ((digest[1] ?? 0) << 16) + ((digest[2] ?? 0) << 8) + (digest[3] ?? 0)) >>> 0
  );
}

export const keyIdHex = (keyId: number): string => keyId.toString(16).padStart(8, '0');

/** Parses a verifier key of type 0x01 or 0x04, checking its key ID; throws NoteError. */
export function parseVerifierKey(vkey: string): NoteVerifierKey {
  const text = vkey.trim();
  const first = text.indexOf('+');
  const second = first < 0 ? -1 : text.indexOf('+', first + 1);
  if (second < 0) throw new NoteError('a verifier key is <name>+<key id>+<base64 key>');
  const name = text.slice(0, first);
  const id = text.slice(first + 1, second);
  const raw = fromBase64(text.slice(second + 1));
  if (!isKeyName(name)) throw new NoteError(`bad key name ${JSON.stringify(name)}`);
  if (!/^[0-9a-f]{8}$/.test(id)) throw new NoteError('the key ID must be 8 lowercase hex digits');
  if (raw === null) throw new NoteError('the key material is not standard base64');
  const type = raw[0];
  if ((type !== NOTE_KEY_ED25519 && type !== NOTE_KEY_COSIGNATURE_V1) || raw.length !== 33)
    throw new NoteError('only Ed25519 keys (type 0x01 or 0x04, 32 bytes) are supported');
  const publicKey = raw.slice(1);
  const keyId = noteKeyId(name, type, publicKey);
  if (keyIdHex(keyId) !== id)
    throw new NoteError(`the key ID ${id} does not match the key (${keyIdHex(keyId)})`);
  return { name, keyId, type, publicKey, vkey: text };
}

/**
 * Splits a signed note into its text and signature lines (the text ends at the last blank line).
 * Throws NoteError for anything that is not a well-formed note.
 */
export function parseNote(note: string): ParsedNote {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0009\u000b-\u001f]/.test(note))
    throw new NoteError('a note has no control characters but newline');
  if (!note.endsWith('\n')) throw new NoteError('a note ends in a newline');
  const split = note.lastIndexOf('\n\n');
  if (split < 0) throw new NoteError('a note has a blank line before its signatures');
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split('\n');
  if (lines.length > MAX_SIGNATURES) throw new NoteError('too many signatures');
  const signatures = lines.map((line): NoteSignature => {
    const match = /^\u2014 (\S+) (\S+)$/u.exec(line);
    const name = match?.[1];
    const bytes = match?.[2] === undefined ? null : fromBase64(match[2]);
    if (
      !line.startsWith(`${EM_DASH} `) ||
      name === undefined ||
      !isKeyName(name) ||
      bytes === null ||
      bytes.length < 5
    )
      throw new NoteError(`bad signature line ${JSON.stringify(line)}`);
    const keyId =
      (((bytes[0] ?? 0) << 24) | ((bytes[1] ?? 0) << 16) | ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0)) >>> 0;
    return { name, keyId, signature: bytes.slice(4) };
  });
  if (signatures.length === 0) throw new NoteError('a note has at least one signature');
  return { text, signatures };
}

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  // Not a NoteError: nothing is wrong with the note, the environment cannot check it.
  if (s === undefined)
    throw new Error('WebCrypto is unavailable (a browser needs a secure context: https or localhost)');
  return s;
}

async function ed25519Verify(
  publicKey: Uint8Array,
  signature: Uint8Array,
  message: Uint8Array,
): Promise<boolean> {
  if (signature.length !== 64) return false;
  const s = subtle();
  const key = await s.importKey('raw', publicKey as Uint8Array<ArrayBuffer>, { name: 'Ed25519' }, false, [
    'verify',
  ]);
  return s.verify(
    { name: 'Ed25519' },
    key,
    signature as Uint8Array<ArrayBuffer>,
    message as Uint8Array<ArrayBuffer>,
  );
}

/** The cosignature/v1 signed message: header, time line, then the note text. */
export function cosignatureMessage(text: string, timestamp: number): string {
  return `cosignature/v1\ntime ${timestamp}\n${text}`;
}

/** Reads a cosignature's big-endian u64 timestamp; null when above 2^53 − 1 (or 2^63 − 1). */
function timestampOf(signature: Uint8Array): number | null {
  let t = 0;
  for (let i = 0; i < 8; i += 1) t = t * 256 + (signature[i] ?? 0);
  return Number.isSafeInteger(t) ? t : null;
}

/** Checks one signature line against one key (whose name and ID it must carry). */
export async function verifyNoteSignature(
  text: string,
  sig: NoteSignature,
  key: NoteVerifierKey,
): Promise<VerifiedSignature | null> {
  if (sig.name !== key.name || sig.keyId !== key.keyId) return null;
  if (key.type === NOTE_KEY_ED25519)
    return (await ed25519Verify(key.publicKey, sig.signature, utf8(text))) ? { key } : null;
  if (sig.signature.length !== 72) return null;
  const timestamp = timestampOf(sig.signature);
  if (timestamp === null) return null;
  const ok = await ed25519Verify(
    key.publicKey,
    sig.signature.slice(8),
    utf8(cosignatureMessage(text, timestamp)),
  );
  return ok ? { key, timestamp } : null;
}

/**
 * Verifies a note against trusted keys, ignoring signatures from unknown keys (name and ID must
 * both match a key to be known). A known key's signature that fails rejects the whole note, and so
 * does a note no known key signed. Returns the text and the signatures that verified.
 */
export async function openNote(
  note: string,
  keys: readonly NoteVerifierKey[],
): Promise<{ text: string; verified: VerifiedSignature[] }> {
  const parsed = parseNote(note);
  const verified: VerifiedSignature[] = [];
  for (const sig of parsed.signatures) {
    const key = keys.find((k) => k.name === sig.name && k.keyId === sig.keyId);
    if (key === undefined) continue;
    const result = await verifyNoteSignature(parsed.text, sig, key);
    if (result === null)
      throw new NoteError(`the signature of ${sig.name} (${keyIdHex(sig.keyId)}) does not verify`);
    verified.push(result);
  }
  if (verified.length === 0) throw new NoteError('no signature from a trusted key');
  return { text: parsed.text, verified };
}
