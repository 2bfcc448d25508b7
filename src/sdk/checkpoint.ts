/**
 * C2SP tlog-checkpoint (c2sp.org/tlog-checkpoint): a signed note whose text is the log's origin,
 * the tree size in decimal, the base64 root hash, then optional extension lines. Verifying one
 * checks the log's signature (the key's name must be the origin) and, when witnesses are given,
 * counts their cosignatures.
 */
import { bytesToHex, fromBase64 } from './bytes.js';
import { HASH_SIZE } from './merkle.js';
import { NoteError, openNote, parseVerifierKey, type NoteVerifierKey } from './note.js';

export interface Checkpoint {
  origin: string;
  size: number;
  /** The root hash. */
  root: Uint8Array;
  /** Extension lines, if any. */
  extensions: string[];
  /** The signed note text (origin, size, root, extensions; newline-terminated). */
  text: string;
}

export interface VerifiedCheckpoint extends Checkpoint {
  /** The whole signed note as given. */
  note: string;
  /** Witnesses whose cosignatures verified, with their timestamps. */
  cosignatures: { name: string; timestamp: number }[];
}

export interface VerifyCheckpointOptions {
  /** Witness verifier keys (type 0x04) whose cosignatures to check and report. */
  witnesses?: readonly (string | NoteVerifierKey)[];
  /** Cosignatures required from those witnesses (default 0). */
  quorum?: number;
}

const asKey = (k: string | NoteVerifierKey): NoteVerifierKey =>
  typeof k === 'string' ? parseVerifierKey(k) : k;

/** Parses a checkpoint's text (no signature check); throws NoteError when malformed. */
export function parseCheckpointText(text: string): Checkpoint {
  if (!text.endsWith('\n')) throw new NoteError('a checkpoint ends in a newline');
  const lines = text.slice(0, -1).split('\n');
  const [origin, size, root, ...extensions] = lines;
  if (origin === undefined || origin.length === 0) throw new NoteError('a checkpoint starts with its origin');
  if (size === undefined || !/^(0|[1-9][0-9]{0,15})$/.test(size) || !Number.isSafeInteger(Number(size)))
    throw new NoteError('the checkpoint size is a decimal without leading zeros');
  const rootBytes = root === undefined ? null : fromBase64(root);
  if (rootBytes === null || rootBytes.length !== HASH_SIZE)
    throw new NoteError('the checkpoint root is 32 bytes of base64');
  if (extensions.some((line) => line.length === 0))
    throw new NoteError('checkpoint extension lines are not empty');
  return { origin, size: Number(size), root: rootBytes, extensions, text };
}

/**
 * Verifies a signed checkpoint with the log's verifier key and returns it parsed. Throws NoteError
 * when the log's signature is missing or bad, the origin is not the key's name, a known witness's
 * cosignature is bad, or fewer than `quorum` witnesses cosigned.
 */
export async function verifyCheckpoint(
  note: string,
  logKey: string | NoteVerifierKey,
  options: VerifyCheckpointOptions = {},
): Promise<VerifiedCheckpoint> {
  const log = asKey(logKey);
  const witnesses = (options.witnesses ?? []).map(asKey);
  const { text, verified } = await openNote(note, [log, ...witnesses]);
  if (!verified.some((v) => v.key === log))
    throw new NoteError(`the checkpoint is not signed by ${log.name}`);
  const checkpoint = parseCheckpointText(text);
  if (checkpoint.origin !== log.name)
    throw new NoteError(`the checkpoint origin ${checkpoint.origin} is not the key's name ${log.name}`);
  const cosignatures = verified
    .filter((v) => v.key !== log && v.timestamp !== undefined)
    .map((v) => ({ name: v.key.name, timestamp: v.timestamp as number }));
  const quorum = options.quorum ?? 0;
  if (new Set(cosignatures.map((c) => c.name)).size < quorum)
    throw new NoteError(`${cosignatures.length} witness cosignature(s), ${quorum} required`);
  return { ...checkpoint, note, cosignatures };
}

/** Hex of a checkpoint's root, for messages. */
export const rootHex = (checkpoint: Pick<Checkpoint, 'root'>): string => bytesToHex(checkpoint.root);
