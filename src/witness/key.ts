/**
 * The witness's Ed25519 key. Stored in the signed-note signer-key text form of golang.org/x/mod
 * sumdb/note, `PRIVATE+KEY+<name>+<key id>+<base64(0x01 || 32-byte seed)>`, which the Go tooling
 * (transparency-dev/formats NewSignerForCosignatureV1) reads too; the witness publishes the
 * matching cosignature/v1 verifier key, `<name>+<id>+<base64(0x04 || public key)>`. The signing
 * itself is the log's own signed-note code (src/platform/tlog/note.ts).
 */
import { randomBytes } from 'node:crypto';
import {
  cosignatureLine,
  ed25519Signer,
  SIG_COSIGNATURE_V1,
  SIG_ED25519,
  signNote,
  validKeyName,
} from '../platform/tlog/note.js';
import { fromBase64 } from '../sdk/bytes.js';

export interface CosignerKey {
  name: string;
  /** The signer key text (secret). */
  skey: string;
  /** The cosignature/v1 verifier key (type 0x04) to give to log clients. */
  vkey: string;
  /** The same key's plain Ed25519 (type 0x01) verifier key. */
  noteVkey: string;
  /** A cosignature line (without newline) on a checkpoint's text at `timestamp` (POSIX seconds). */
  cosign(text: string, timestamp: number): string;
  /** A plain Ed25519 (type 0x01) note signature line (without newline) on `text`. */
  signNote(text: string): string;
}

/** The key of a 32-byte Ed25519 seed (fixed test keys; `generateCosignerKey` for real ones). */
export function keyFromSeed(name: string, seed: Uint8Array): CosignerKey {
  if (!validKeyName(name)) throw new Error(`bad key name ${JSON.stringify(name)} (no spaces or '+')`);
  const note = ed25519Signer(name, seed, SIG_ED25519);
  const cosigner = ed25519Signer(name, seed, SIG_COSIGNATURE_V1);
  const material = Buffer.concat([Buffer.from([SIG_ED25519]), seed]).toString('base64');
  return {
    name,
    skey: `PRIVATE+KEY+${name}+${note.keyId.toString('hex')}+${material}`,
    vkey: cosigner.verifierKey,
    noteVkey: note.verifierKey,
    cosign: (text, timestamp) => cosignatureLine(text, cosigner, timestamp).slice(0, -1),
    signNote: (text) => signNote(text, note).slice(text.length + 1, -1),
  };
}

/** A fresh key for `name`. */
export function generateCosignerKey(name: string): CosignerKey {
  return keyFromSeed(name, new Uint8Array(randomBytes(32)));
}

/** Reads a signer key text; throws when malformed or its key ID does not match. */
export function parseCosignerKey(skey: string): CosignerKey {
  // The base64 material may itself contain '+': split off the first four fields only.
  const parts = skey.trim().split('+');
  const [p, k, name] = parts;
  const raw = fromBase64(parts.slice(4).join('+'));
  if (parts.length < 5 || p !== 'PRIVATE' || k !== 'KEY' || name === undefined)
    throw new Error('a witness key is PRIVATE+KEY+<name>+<key id>+<base64 seed>');
  if (raw === null || raw.length !== 33 || raw[0] !== SIG_ED25519)
    throw new Error('the witness key material is not an Ed25519 (0x01) seed');
  const key = keyFromSeed(name, raw.slice(1));
  if (key.skey !== skey.trim()) throw new Error(`the witness key ID ${parts[3]} does not match its key`);
  return key;
}
