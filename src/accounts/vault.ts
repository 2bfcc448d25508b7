/**
 * The account vault (docs/duties.md, crypto-shredding): account numbers are personal financial
 * data and the ledger is immutable, so they never enter it. Each is encrypted with AES-256-GCM
 * under its subject's data key — a subject is one payee (or the lender org) of one org — and the
 * keys live outside the ledger in `DATA_DIR/vault/keys.json` (mode 0600), the ciphertexts in
 * `DATA_DIR/vault/accounts.json` (mode 0600). Erasing a subject deletes its key: every account
 * of that subject becomes undecryptable, and its HMAC (the `number_hmac` events carry, keyed by
 * the same data key) can no longer be linked to any number.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomically } from '../platform/atomic-file.js';
import { own } from '../platform/records.js';

interface Sealed {
  subject: string;
  iv: string;
  tag: string;
  ciphertext: string;
}

const keysFile = (dir: string) => join(dir, 'keys.json');
const accountsFile = (dir: string) => join(dir, 'accounts.json');

/** The file's contents, read afresh: what a writer changes and writes back. */
function readJson<T>(path: string): Record<string, T> {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, T>) : {};
}

/**
 * The files as last parsed, with the identity they were read at (device, inode, size, change time
 * in ns). Both files hold every account and key of the node, so a read-only look-up parsed ~110 KB
 * twice at 1M bench events, and listing an org's ~140 accounts took 249 ms (issue 19). Every write
 * replaces a file by rename (a new inode), and this module's writers also drop the entry, so an
 * erased key is gone from the heap as soon as it is from the disk.
 */
const parsed = new Map<string, { identity: string; value: Record<string, unknown> }>();

/** The file's contents for reading only (never changed by the caller: they are shared). */
function readShared<T>(path: string): Readonly<Record<string, T>> {
  let identity: string;
  try {
    const st = statSync(path, { bigint: true });
    identity = `${st.dev}:${st.ino}:${st.size}:${st.ctimeNs}:${st.mtimeNs}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    parsed.delete(path);
    return {};
  }
  const hit = parsed.get(path);
  if (hit?.identity === identity) return hit.value as Record<string, T>;
  const value = JSON.parse(readFileSync(path, 'utf8')) as Record<string, T>;
  parsed.set(path, { identity, value });
  return value;
}

/** Writes a vault file, forgetting what was parsed of it. */
function writeVaultFile(path: string, value: Record<string, unknown>): void {
  parsed.delete(path);
  writeFileAtomically(path, JSON.stringify(value), 0o600);
}

/** The vault directory of a data directory. */
export const vaultDir = (dataDir: string): string => join(dataDir, 'vault');

/** HMAC-SHA256 of the normalized number under the subject's data key (null when erased). */
export function accountHmac(dir: string, subject: string, number: string): string | null {
  const key = own(readShared<string>(keysFile(dir)), subject);
  return key === undefined
    ? null
    : createHmac('sha256', Buffer.from(key, 'base64')).update(number).digest('hex');
}

/** Encrypts the number under the subject's key (created on first use); answers its HMAC. */
export function sealAccount(dir: string, subject: string, account_id: string, number: string): string {
  const keys = readJson<string>(keysFile(dir));
  if (keys[subject] === undefined) {
    keys[subject] = randomBytes(32).toString('base64');
    writeVaultFile(keysFile(dir), keys);
  }
  const key = Buffer.from(keys[subject], 'base64');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(account_id, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(number, 'utf8'), cipher.final()]);
  const accounts = readJson<Sealed>(accountsFile(dir));
  accounts[account_id] = {
    subject,
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    ciphertext: ciphertext.toString('base64'),
  };
  writeVaultFile(accountsFile(dir), accounts);
  return createHmac('sha256', key).update(number).digest('hex');
}

/** Drops a sealed number whose registration was not recorded. */
export function discardAccount(dir: string, account_id: string): void {
  const accounts = readJson<Sealed>(accountsFile(dir));
  if (accounts[account_id] === undefined) return;
  delete accounts[account_id];
  writeVaultFile(accountsFile(dir), accounts);
}

/** The account number, or null when its subject was erased (or it was never sealed here). */
export function revealAccount(dir: string, account_id: string): string | null {
  const sealed = own(readShared<Sealed>(accountsFile(dir)), account_id);
  if (sealed === undefined) return null;
  const key = own(readShared<string>(keysFile(dir)), sealed.subject);
  if (key === undefined) return null;
  const decipher = createDecipheriv(
    'aes-256-gcm',
    Buffer.from(key, 'base64'),
    Buffer.from(sealed.iv, 'base64'),
  );
  decipher.setAAD(Buffer.from(account_id, 'utf8'));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  return Buffer.concat([
    decipher.update(Buffer.from(sealed.ciphertext, 'base64')),
    decipher.final(),
  ]).toString('utf8');
}

/** Deletes the subject's data key (crypto-shredding). Answers whether a key was deleted. */
export function eraseSubject(dir: string, subject: string): boolean {
  const keys = readJson<string>(keysFile(dir));
  if (keys[subject] === undefined) return false;
  delete keys[subject];
  writeVaultFile(keysFile(dir), keys);
  return true;
}

export function subjectHasKey(dir: string, subject: string): boolean {
  return readJson<string>(keysFile(dir))[subject] !== undefined;
}
