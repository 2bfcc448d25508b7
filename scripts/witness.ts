/**
 * `npm run witness -- --key <file> --state <file> --log <log verifier key> [--log …]` — runs a C2SP
 * tlog-witness (POST /add-checkpoint) with its own Ed25519 key and durable state. `--generate-key
 * --name <witness name>` creates the key file first if it does not exist. Prints the listening URL
 * and the witness's cosignature verifier key (give that to log clients and monitors).
 * Exit 0 on SIGINT/SIGTERM, 1 when it cannot start, 2 for bad flags.
 */
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { systemClock } from '../src/platform/clock.js';
import {
  createWitnessServer,
  generateCosignerKey,
  openStateFile,
  parseCosignerKey,
  Witness,
} from '../src/witness/index.js';
import { parseVerifierKey } from '../src/sdk/index.js';
import { decimalInteger, EXIT_FAILED, EXIT_USAGE, parseCli } from './lib/cli.js';

const USAGE = `
npm run witness -- --key <file> --state <file> --log <verifier key> [--log …] [options]

  --key <file>        the witness's signer key (PRIVATE+KEY+<name>+<id>+<base64>, mode 0600)
  --generate-key      create --key first if it does not exist (needs --name)
  --name <name>       the witness's key name, e.g. witness.example.com/w1
  --state <file>      JSON state: the latest checkpoint cosigned per log (written atomically)
  --log <vkey>        a log to witness: its Ed25519 verifier key; the origin is the key's name
  --host <host>       listen address (default 127.0.0.1)
  --port <port>       listen port (default 7380; 0 picks a free one)
`;

const { values } = parseCli(USAGE, {
  key: { type: 'string' },
  'generate-key': { type: 'boolean' },
  name: { type: 'string' },
  state: { type: 'string' },
  log: { type: 'string', multiple: true },
  host: { type: 'string', default: '127.0.0.1' },
  port: { type: 'string', default: '7380' },
});

function usage(message: string): never {
  process.stderr.write(`${message}\n${USAGE}`);
  process.exit(EXIT_USAGE);
}

if (values.key === undefined || values.state === undefined) usage('--key and --state are required');
const logs = (values.log ?? []).map((vkey) => {
  try {
    const key = parseVerifierKey(vkey);
    return { origin: key.name, keys: [key.vkey] };
  } catch (error) {
    return usage(`--log ${vkey}: ${(error as Error).message}`);
  }
});
if (logs.length === 0) usage('at least one --log is required');
const port = decimalInteger(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) usage('--port is 0–65535');

try {
  if (values['generate-key'] && !existsSync(values.key)) {
    if (values.name === undefined) usage('--generate-key needs --name');
    writeFileSync(values.key, `${generateCosignerKey(values.name).skey}\n`, { mode: 0o600, flag: 'wx' });
  }
  const key = parseCosignerKey(readFileSync(values.key, 'utf8'));
  if (values.name !== undefined && values.name !== key.name)
    usage(`--name ${values.name} is not the key's name ${key.name}`);
  const witness = new Witness({ key, state: openStateFile(values.state), clock: systemClock, logs });
  const server = createWitnessServer(witness);
  server.listen(port, values.host);
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  process.stdout.write(
    `witness ${key.name} listening on http://${values.host}:${address.port}\n` +
      `verifier key: ${key.vkey}\n` +
      logs.map((l) => `witnessing: ${l.origin}\n`).join(''),
  );
  const stop = () => {
    server.close();
    server.closeAllConnections();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  process.stderr.write(`witness: ${(error as Error).message}\n`);
  process.exit(EXIT_FAILED);
}
