/**
 * C2SP signed-note with Ed25519 (signature type 0x01) and C2SP tlog-cosignature (type 0x04,
 * `cosignature/v1`, timestamped). A note is its text (ending in a newline), a blank line, and
 * signature lines `— <name> base64(key id ‖ signature)` (U+2014). Key id = the first 4 bytes of
 * SHA-256(name ‖ 0x0A ‖ type ‖ public key). Verifier keys read `<name>+<hex key id>+<base64(type ‖
 * public key)>`; signer keys `PRIVATE+KEY+<name>+<hex key id>+<base64(type ‖ seed)>`.
 */
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

export const SIG_ED25519 = 0x01;
export const SIG_COSIGNATURE_V1 = 0x04;
const EM_DASH = '—';
/** PKCS#8 / SPKI DER prefixes of an Ed25519 key: what node:crypto needs around the raw 32 bytes. */
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export function keyId(name: string, type: number, publicKey: Uint8Array): Buffer {
  return createHash('sha256')
    .update(Buffer.from(name, 'utf8'))
    .update(Buffer.from([0x0a, type]))
    .update(publicKey)
    .digest()
    .subarray(0, 4);
}

/** A key name: non-empty, no whitespace or '+' (signed-note). */
export function validKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+]/u.test(name);
}

export interface NoteSigner {
  name: string;
  type: number;
  keyId: Buffer;
  publicKey: Buffer;
  /** The verifier key string for this signer. */
  verifierKey: string;
  sign(message: Uint8Array): Buffer;
}

export interface NoteVerifier {
  name: string;
  type: number;
  keyId: Buffer;
  publicKey: Buffer;
  verify(message: Uint8Array, signature: Uint8Array): boolean;
}

export function ed25519PublicFromSeed(seed: Uint8Array): Buffer {
  const pub = createPublicKey(privateKeyOf(seed)).export({ format: 'der', type: 'spki' });
  return Buffer.from(pub.subarray(pub.length - 32));
}

function privateKeyOf(seed: Uint8Array): KeyObject {
  if (seed.length !== 32) throw new RangeError('an Ed25519 seed is 32 bytes');
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

function publicKeyOf(raw: Uint8Array): KeyObject {
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

export function verifierKeyString(name: string, type: number, publicKey: Uint8Array): string {
  const id = keyId(name, type, publicKey).toString('hex');
  return `${name}+${id}+${Buffer.concat([Buffer.from([type]), publicKey]).toString('base64')}`;
}

/** An Ed25519 signer from a 32-byte seed; `type` 0x01 for notes, 0x04 for cosignatures. */
export function ed25519Signer(name: string, seed: Uint8Array, type = SIG_ED25519): NoteSigner {
  if (!validKeyName(name)) throw new RangeError(`invalid key name ${JSON.stringify(name)}`);
  const key = privateKeyOf(seed);
  const publicKey = ed25519PublicFromSeed(seed);
  return {
    name,
    type,
    keyId: keyId(name, type, publicKey),
    publicKey,
    verifierKey: verifierKeyString(name, type, publicKey),
    sign: (message) => sign(null, message, key),
  };
}

/** `PRIVATE+KEY+<name>+<hex id>+<base64(type ‖ seed)>` → signer. */
export function parseSignerKey(skey: string): NoteSigner {
  // The base64 part may itself contain '+': the name and the id never do.
  const m = /^PRIVATE\+KEY\+([^+]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/.exec(skey);
  if (!m) throw new Error('malformed signer key');
  const [, name, hex, b64] = m as unknown as [string, string, string, string];
  const raw = Buffer.from(b64, 'base64');
  if (raw.length !== 33 || raw.toString('base64') !== b64) throw new Error('malformed signer key');
  const signer = ed25519Signer(name, raw.subarray(1), raw[0]);
  if (signer.keyId.toString('hex') !== hex) throw new Error('signer key id does not match');
  return signer;
}

/** `<name>+<hex id>+<base64(type ‖ key)>` → verifier (Ed25519 note or cosignature keys). */
export function parseVerifierKey(vkey: string): NoteVerifier {
  const m = /^([^+]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/.exec(vkey);
  if (!m) throw new Error('malformed verifier key');
  const [, name, hex, b64] = m as unknown as [string, string, string, string];
  if (!validKeyName(name) || !/^[0-9a-f]{8}$/.test(hex)) throw new Error('malformed verifier key');
  const raw = Buffer.from(b64, 'base64');
  if (raw.length !== 33 || raw.toString('base64') !== b64) throw new Error('malformed verifier key');
  const type = raw[0]!;
  if (type !== SIG_ED25519 && type !== SIG_COSIGNATURE_V1) throw new Error('unknown verifier key type');
  const publicKey = Buffer.from(raw.subarray(1));
  const id = keyId(name, type, publicKey);
  if (id.toString('hex') !== hex) throw new Error('verifier key id does not match');
  const key = publicKeyOf(publicKey);
  return { name, type, keyId: id, publicKey, verify: (message, sig) => verify(null, message, key, sig) };
}

export interface NoteSignature {
  name: string;
  keyId: Buffer;
  /** The bytes after the key id (64 for Ed25519, 8 + 64 for a cosignature). */
  signature: Buffer;
  line: string;
}

/** `— <name> <base64(id ‖ sig)>\n` */
export function signatureLine(name: string, id: Uint8Array, signature: Uint8Array): string {
  return `${EM_DASH} ${name} ${Buffer.concat([id, signature]).toString('base64')}\n`;
}

/** Signs note text (which must end in a newline) and returns the whole signed note. */
export function signNote(text: string, signer: NoteSigner): string {
  if (!text.endsWith('\n')) throw new Error('note text must end in a newline');
  const sig = signer.sign(Buffer.from(text, 'utf8'));
  return `${text}\n${signatureLine(signer.name, signer.keyId, sig)}`;
}

/** Splits a signed note into its text and signature lines; null when it is not well formed. */
export function parseNote(note: string): { text: string; signatures: NoteSignature[] } | null {
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) return null;
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split('\n');
  const signatures: NoteSignature[] = [];
  for (const line of lines) {
    const signature = parseSignatureLine(line);
    if (!signature) return null;
    signatures.push(signature);
  }
  return signatures.length > 0 ? { text, signatures } : null;
}

/** One signature line `— <name> <base64(key id ‖ signature)>` (no newline); null when malformed. */
export function parseSignatureLine(line: string): NoteSignature | null {
  const m = /^— (\S+) ([A-Za-z0-9+/=]+)$/u.exec(line);
  if (!m || !validKeyName(m[1]!)) return null;
  const blob = Buffer.from(m[2]!, 'base64');
  if (blob.length < 5 || blob.toString('base64') !== m[2]) return null;
  return { name: m[1]!, keyId: blob.subarray(0, 4), signature: blob.subarray(4), line: `${line}\n` };
}

/** True when a signature line of `note` by `verifier` (name and key id) verifies over its text. */
export function verifyNote(note: string, verifier: NoteVerifier): boolean {
  const parsed = parseNote(note);
  if (!parsed) return false;
  const message = Buffer.from(parsed.text, 'utf8');
  return parsed.signatures.some(
    (s) =>
      s.name === verifier.name &&
      s.keyId.equals(verifier.keyId) &&
      (verifier.type === SIG_COSIGNATURE_V1
        ? verifyCosignatureBlob(parsed.text, s.signature, verifier)
        : s.signature.length === 64 && verifier.verify(message, s.signature)),
  );
}

/** The message a cosignature/v1 signs: header, time line, then the checkpoint note text. */
export function cosignedMessage(checkpointText: string, timestamp: number): Buffer {
  return Buffer.from(`cosignature/v1\ntime ${timestamp}\n${checkpointText}`, 'utf8');
}

/** A cosignature line over a checkpoint's text at `timestamp` (seconds since the epoch). */
export function cosignatureLine(checkpointText: string, signer: NoteSigner, timestamp: number): string {
  const ts = Buffer.alloc(8);
  ts.writeBigUInt64BE(BigInt(timestamp), 0);
  const sig = signer.sign(cosignedMessage(checkpointText, timestamp));
  return signatureLine(signer.name, signer.keyId, Buffer.concat([ts, sig]));
}

function verifyCosignatureBlob(text: string, blob: Buffer, verifier: NoteVerifier): boolean {
  if (blob.length !== 72) return false;
  const timestamp = blob.readBigUInt64BE(0);
  if (timestamp > 2n ** 63n - 1n) return false;
  return verifier.verify(cosignedMessage(text, Number(timestamp)), blob.subarray(8));
}

/** The timestamp of `verifier`'s valid cosignature on `note`, or null. */
export function cosignatureTime(note: string, verifier: NoteVerifier): number | null {
  const parsed = parseNote(note);
  if (!parsed) return null;
  for (const s of parsed.signatures) {
    if (
      s.name === verifier.name &&
      s.keyId.equals(verifier.keyId) &&
      verifyCosignatureBlob(parsed.text, s.signature, verifier)
    )
      return Number(s.signature.readBigUInt64BE(0));
  }
  return null;
}
