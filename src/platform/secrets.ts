/**
 * Server secrets: the key pepper (API keys are stored only as HMAC digests under it) and the
 * signing key (response-signing secrets are derived from it per key). Taken from the environment
 * when set, else generated once into DATA_DIR/secrets.json (mode 0600) and reused.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ServerSecrets {
  keyPepper: string;
  signingKey: string;
}

export function loadOrCreateSecrets(
  dataDir: string,
  fromEnv: { KEY_PEPPER?: string | undefined; LEDGER_SIGNING_KEY?: string | undefined },
): ServerSecrets {
  const file = join(dataDir, 'secrets.json');
  let stored: Partial<ServerSecrets> = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<ServerSecrets>;
  const secrets: ServerSecrets = {
    keyPepper: fromEnv.KEY_PEPPER ?? stored.keyPepper ?? randomBytes(32).toString('hex'),
    signingKey: fromEnv.LEDGER_SIGNING_KEY ?? stored.signingKey ?? randomBytes(32).toString('hex'),
  };
  if (stored.keyPepper !== secrets.keyPepper || stored.signingKey !== secrets.signingKey) {
    mkdirSync(dataDir, { recursive: true });
    const toStore = {
      keyPepper: stored.keyPepper ?? secrets.keyPepper,
      signingKey: stored.signingKey ?? secrets.signingKey,
    };
    writeFileSync(file, `${JSON.stringify(toStore, null, 2)}\n`, { mode: 0o600 });
  }
  return secrets;
}
