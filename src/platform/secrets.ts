/**
 * Server secrets: the key pepper (API keys are stored only as HMAC digests under it), the
 * signing key (response-signing secrets are derived from it per key) and the transparency log's
 * Ed25519 seed (its checkpoints are signed with it). Taken from the environment
 * when set, else generated once into DATA_DIR/secrets.json (mode 0600) and reused.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from './private-files.js';

export interface ServerSecrets {
  keyPepper: string;
  signingKey: string;
  /** The transparency log's Ed25519 seed (64 hex). */
  tlogSeed: string;
}

export function loadOrCreateSecrets(
  dataDir: string,
  fromEnv: {
    KEY_PEPPER?: string | undefined;
    LEDGER_SIGNING_KEY?: string | undefined;
    TLOG_SIGNING_SEED?: string | undefined;
  },
): ServerSecrets {
  ensurePrivateDir(dataDir);
  const file = join(dataDir, 'secrets.json');
  let stored: Partial<ServerSecrets> = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<ServerSecrets>;
  const secrets: ServerSecrets = {
    keyPepper: fromEnv.KEY_PEPPER ?? stored.keyPepper ?? randomBytes(32).toString('hex'),
    signingKey: fromEnv.LEDGER_SIGNING_KEY ?? stored.signingKey ?? randomBytes(32).toString('hex'),
    tlogSeed: (fromEnv.TLOG_SIGNING_SEED ?? stored.tlogSeed ?? randomBytes(32).toString('hex')).toLowerCase(),
  };
  if (
    stored.keyPepper !== secrets.keyPepper ||
    stored.signingKey !== secrets.signingKey ||
    stored.tlogSeed === undefined
  ) {
    const toStore = {
      keyPepper: stored.keyPepper ?? secrets.keyPepper,
      signingKey: stored.signingKey ?? secrets.signingKey,
      tlogSeed: stored.tlogSeed ?? secrets.tlogSeed,
    };
    writeFileSync(file, `${JSON.stringify(toStore, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
  }
  // writeFileSync's mode applies only when it creates the file; an older 0644 one is tightened.
  if (existsSync(file)) chmodSync(file, PRIVATE_FILE_MODE);
  return secrets;
}
