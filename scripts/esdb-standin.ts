/**
 * `npm run esdb:standin`: the EventStoreDB gRPC stand-in (test/support/esdb-standin) as its own
 * process, so several service nodes and CLIs can share one ledger stream in tests and on a laptop.
 * THIS IS A TEST DOUBLE: memory only, no TLS, ACLs, clustering or persistence (see its module
 * comment); production needs a real EventStoreDB (docs/production.md).
 *
 *   npm run esdb:standin -- [--port 2113] [--host 127.0.0.1] [--max-append-size 1048576]
 *
 * Prints `esdb stand-in listening on esdb://host:port?tls=false` once it accepts connections and
 * runs until SIGINT/SIGTERM.
 */
import { decimalInteger, EXIT_USAGE, parseCli } from './lib/cli.js';
import { DEFAULT_MAX_APPEND_SIZE, startEsdbStandin } from '../test/support/esdb-standin/index.js';

const USAGE = `
usage: npm run esdb:standin -- [--port N] [--host ADDR] [--max-append-size BYTES]

Runs the in-memory EventStoreDB gRPC stand-in (a test double, not a database).
  --port N                  port to listen on (default 2113; 0 = any free port)
  --host ADDR               address to bind (default 127.0.0.1)
  --max-append-size BYTES   the server's MaxAppendSize (default ${DEFAULT_MAX_APPEND_SIZE}, EventStoreDB's default)
`;

const { values } = parseCli(USAGE, {
  port: { type: 'string', default: '2113' },
  host: { type: 'string', default: '127.0.0.1' },
  'max-append-size': { type: 'string', default: String(DEFAULT_MAX_APPEND_SIZE) },
});

function integer(name: string, text: string, min: number, max: number): number {
  const n = decimalInteger(text);
  if (!Number.isInteger(n) || n < min || n > max) {
    process.stderr.write(`--${name} must be an integer from ${min} to ${max}\n\n${USAGE.trim()}\n`);
    process.exit(EXIT_USAGE);
  }
  return n;
}

const port = integer('port', values.port, 0, 65535);
const maxAppendSize = integer('max-append-size', values['max-append-size'], 1, 2 ** 31 - 1);
const standin = await startEsdbStandin({ port, host: values.host, behaviour: { maxAppendSize } });
process.stdout.write(`esdb stand-in listening on ${standin.url}\n`);

async function stop(): Promise<void> {
  await standin.stop();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
