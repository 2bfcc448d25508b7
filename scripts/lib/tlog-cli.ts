/**
 * The transparency-log side of the operations CLIs: reading a saved checkpoint and the key its
 * signature is checked with.
 */
import { readFileSync } from 'node:fs';
import type { Config } from '../../src/config.js';
import { loadOrCreateSecrets } from '../../src/platform/secrets.js';
import { openCheckpoint, parseCheckpointText, type Checkpoint } from '../../src/platform/tlog/checkpoint.js';
import { ed25519Signer, parseNote, parseVerifierKey } from '../../src/platform/tlog/note.js';
import { EXIT_USAGE } from './cli.js';

/** A checkpoint note's contents, unverified (the service's own stored one). */
export function checkpointOfNote(note: string): Checkpoint | null {
  const parsed = parseNote(note);
  return parsed ? parseCheckpointText(parsed.text) : null;
}

/**
 * `--checkpoint <file>` opened with `--key` (or the key of DATA_DIR's secrets, named after the
 * checkpoint's origin); refuses (exit 2) a file that is not a checkpoint signed by that key.
 */
export function checkpointsToCheck(
  cfg: Config,
  file: string | undefined,
  key: string | undefined,
  usage: string,
): { label: string; checkpoint: Checkpoint }[] {
  if (file === undefined) return [];
  const fail = (why: string): never => {
    process.stderr.write(`--checkpoint ${file}: ${why}\n\n${usage.trim()}\n`);
    process.exit(EXIT_USAGE);
  };
  let note = '';
  try {
    note = readFileSync(file, 'utf8');
  } catch (error) {
    fail((error as Error).message);
  }
  const unverified = checkpointOfNote(note) ?? fail('not a signed checkpoint');
  let verifier;
  try {
    verifier = key
      ? parseVerifierKey(key)
      : parseVerifierKey(
          ed25519Signer(
            unverified.origin,
            Buffer.from(
              loadOrCreateSecrets(cfg.DATA_DIR, { TLOG_SIGNING_SEED: cfg.TLOG_SIGNING_SEED }).tlogSeed,
              'hex',
            ),
          ).verifierKey,
        );
  } catch (error) {
    return fail(`bad --key: ${(error as Error).message}`);
  }
  const checkpoint = openCheckpoint(note, verifier) ?? fail('its signature does not verify with that key');
  return [{ label: `the checkpoint in ${file}`, checkpoint }];
}
