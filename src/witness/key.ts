/**
 * The witness's Ed25519 key. Stored in the signed-note signer-key text form of golang.org/x/mod
 * sumdb/note, `PRIVATE+KEY+<name>+<key id>+<base64(0x01 || 32-byte seed)>`, which the Go tooling
 * (transparency-dev/formats NewSignerForCosignatureV1) reads too; the witness publishes the
 * matching cosignature/v1 verifier key, `<name>+<id>+<base64(0x04 || public key)>`.
 */
import { createPrivateKey, createPublicKey, randomBytes, sign, type KeyObject } from 'node:crypto';
import { fromBase64, toBase64 } from '../sdk/bytes.js';
import {
  cosignatureMessage,
  isKeyName,
  keyIdHex,
  NOTE_KEY_COSIGNATURE_V1,
  NOTE_KEY_ED25519,
  noteKeyId,
} from '../sdk/index.js';

/** PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface CosignerKey {
  name: string;
  /** The signer key text (secret). */
  skey: string;
  /** The cosignature/v1 verifier key (type 0x04) to give to log clients. */
  vkey: string;
  /** The type-0x04 key ID that prefixes every cosignature. */
  keyId: number;
  /** The same key's plain Ed25519 (type 0x01) verifier key. */
  noteVkey: string;
  /** A plain Ed25519 (type 0x01) note signature line (without newline) on `text`. */
  signNote(text: string): string;
  /** A cosignature line (without newline) on a checkpoint's text at `timestamp` (POSIX seconds). */
  cosign(text: string, timestamp: number): string;
}

function privateKeyOf(seed: Uint8Array): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

function publicKeyOf(privateKey: KeyObject): Uint8Array {
  const der = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  return new Uint8Array(der.subarray(der.length - 32));
}

/** The key of a 32-byte Ed25519 seed (fixed test keys; `generateCosignerKey` for real ones). */
export function keyFromSeed(name: string, seed: Uint8Array): CosignerKey {
  if (seed.length !== 32) throw new Error('an Ed25519 seed is 32 bytes');
  const privateKey = privateKeyOf(seed);
  const publicKey = publicKeyOf(privateKey);
  const signerId = noteKeyId(name, NOTE_KEY_ED25519, publicKey);
  const keyId = noteKeyId(name, NOTE_KEY_COSIGNATURE_V1, publicKey);
  const skey = `PRIVATE+KEY+${name}+${keyIdHex(signerId)}+${toBase64(new Uint8Array([NOTE_KEY_ED25519, ...seed]))}`;
  const vkey = `${name}+${keyIdHex(keyId)}+${toBase64(new Uint8Array([NOTE_KEY_COSIGNATURE_V1, ...publicKey]))}`;
  const idBytes = Buffer.alloc(4);
  idBytes.writeUInt32BE(keyId);
  const signerIdBytes = Buffer.alloc(4);
  signerIdBytes.writeUInt32BE(signerId);
  return {
    name,
    skey,
    vkey,
    keyId,
    noteVkey: `${name}+${keyIdHex(signerId)}+${toBase64(new Uint8Array([NOTE_KEY_ED25519, ...publicKey]))}`,
    signNote(text) {
      const signature = sign(null, Buffer.from(text, 'utf8'), privateKey);
      return `\u2014 ${name} ${Buffer.concat([signerIdBytes, signature]).toString('base64')}`;
    },
    cosign(text, timestamp) {
      const time = Buffer.alloc(8);
      time.writeBigUInt64BE(BigInt(timestamp));
      const signature = sign(null, Buffer.from(cosignatureMessage(text, timestamp), 'utf8'), privateKey);
      return `\u2014 ${name} ${Buffer.concat([idBytes, time, signature]).toString('base64')}`;
    },
  };
}

/** A fresh key for `name`. */
export function generateCosignerKey(name: string): CosignerKey {
  if (!isKeyName(name)) throw new Error(`bad witness name ${JSON.stringify(name)} (no spaces or '+')`);
  return keyFromSeed(name, new Uint8Array(randomBytes(32)));
}

/** Reads a signer key text; throws when malformed or its key ID does not match. */
export function parseCosignerKey(skey: string): CosignerKey {
  // The base64 material may itself contain '+': split off the first four fields only.
  const parts = skey.trim().split('+');
  const [p, k, name, id] = parts;
  const material = parts.slice(4).join('+');
  const raw = fromBase64(material);
  if (parts.length < 5 || p !== 'PRIVATE' || k !== 'KEY' || name === undefined || !isKeyName(name))
    throw new Error('a witness key is PRIVATE+KEY+<name>+<key id>+<base64 seed>');
  if (raw === null || raw.length !== 33 || raw[0] !== NOTE_KEY_ED25519)
    throw new Error('the witness key material is not an Ed25519 seed');
  const key = keyFromSeed(name, raw.slice(1));
  if (key.skey !== skey.trim()) throw new Error(`the witness key ID ${id} does not match its key`);
  return key;
}
