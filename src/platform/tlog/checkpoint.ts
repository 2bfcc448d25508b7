/**
 * C2SP tlog-checkpoint: the note text `<origin>\n<size>\n<base64 root>\n` (no extension lines
 * here), signed as a signed-note. Sizes are ASCII decimal without leading zeros.
 */
import { HASH_SIZE } from './merkle.js';
import { parseNote, signNote, verifyNote, type NoteSigner, type NoteVerifier } from './note.js';

export interface Checkpoint {
  origin: string;
  size: number;
  root: Buffer;
}

export function checkpointText(c: Checkpoint): string {
  if (c.origin.length === 0 || c.origin.includes('\n')) throw new Error('bad checkpoint origin');
  if (c.root.length !== HASH_SIZE) throw new Error('a checkpoint root is 32 bytes');
  return `${c.origin}\n${c.size}\n${c.root.toString('base64')}\n`;
}

/** Parses checkpoint note text (extension lines allowed and ignored); null when malformed. */
export function parseCheckpointText(text: string): Checkpoint | null {
  const lines = text.split('\n');
  if (lines.length < 4 || lines[lines.length - 1] !== '') return null;
  const [origin, size, root] = lines as [string, string, string];
  if (origin.length === 0 || !/^(0|[1-9]\d*)$/.test(size) || !Number.isSafeInteger(Number(size))) return null;
  const bytes = Buffer.from(root, 'base64');
  if (bytes.length !== HASH_SIZE || bytes.toString('base64') !== root) return null;
  return { origin, size: Number(size), root: bytes };
}

export function signCheckpoint(c: Checkpoint, signer: NoteSigner): string {
  return signNote(checkpointText(c), signer);
}

/** Opens a signed checkpoint: parsed when `verifier` signed it and its origin matches, else null. */
export function openCheckpoint(note: string, verifier: NoteVerifier, origin?: string): Checkpoint | null {
  const parsed = parseNote(note);
  if (!parsed || !verifyNote(note, verifier)) return null;
  const c = parseCheckpointText(parsed.text);
  if (!c || (origin !== undefined && c.origin !== origin)) return null;
  return c;
}
