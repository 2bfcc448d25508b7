/**
 * `npm run ledger:audit -- <receipt.json> --key <log verifier key>` — verifies a receipt offline:
 * the checkpoint's signature, that the event's hash is SHA-256 of its leaf input, and the RFC 9162
 * inclusion proof up to the checkpoint's root. Nothing is fetched; the server is not trusted.
 * Exit 0 valid, 2 invalid (the reason named on stderr), 1 unreadable file, 64 bad flags.
 */
import { readFileSync } from 'node:fs';
import { verifyReceipt } from '../src/sdk/index.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE_EX, parseCli } from './lib/cli.js';
import { readTrustFlags } from './lib/tlog-keys.js';

const EXIT_INVALID = 2;

const USAGE = `
npm run ledger:audit -- <receipt.json> --key <log verifier key> [--witness <vkey> … --quorum <n>] [--json]

  <receipt.json>      a receipt (GET /api/ledger/receipt or /api/ledger/proof/inclusion); - for stdin
  --key <vkey|file>   the log's verifier key, <origin>+<key id>+<base64>
  --witness <vkey>    a witness's cosignature key (repeatable)
  --quorum <n>        cosignatures required from those witnesses (default: all of them)

Exit: 0 valid, 2 invalid, 1 unreadable receipt, 64 usage.
`;

const { values, positionals, json } = parseCli(
  USAGE,
  { key: { type: 'string' }, witness: { type: 'string', multiple: true }, quorum: { type: 'string' } },
  EXIT_USAGE_EX,
);

function usage(message: string): never {
  process.stderr.write(`${message}\n${USAGE}`);
  process.exit(EXIT_USAGE_EX);
}

const [file] = positionals;
if (file === undefined || positionals.length !== 1) usage('one receipt file is required');
const { key, witnesses, quorum } = readTrustFlags(values, usage);

let receipt: unknown;
try {
  receipt = JSON.parse(readFileSync(file === '-' ? 0 : file, 'utf8'));
} catch (error) {
  const detail = `cannot read ${file}: ${(error as Error).message}`;
  if (json) process.stdout.write(`${JSON.stringify({ valid: false, reason: 'unreadable', detail })}\n`);
  process.stderr.write(`${detail}\n`);
  process.exit(EXIT_FAILED);
}

const result = await verifyReceipt(receipt, key, { witnesses, quorum });
if (json) {
  const out = result.valid
    ? {
        valid: true,
        seq: result.seq,
        hash: result.hash,
        tree_size: result.tree_size,
        origin: result.checkpoint.origin,
        cosignatures: result.checkpoint.cosignatures,
      }
    : result;
  process.stdout.write(`${JSON.stringify(out)}\n`);
}
if (result.valid) {
  if (!json)
    process.stdout.write(
      `valid: seq ${result.seq} (${result.hash}) is leaf ${result.seq - 1} of the tree of size ${result.tree_size} ` +
        `signed by ${result.checkpoint.origin}` +
        (result.checkpoint.cosignatures.length > 0
          ? `, cosigned by ${result.checkpoint.cosignatures.map((c) => c.name).join(', ')}`
          : '') +
        '\n',
    );
  process.exit(EXIT_OK);
}
process.stderr.write(`INVALID (${result.reason}): ${result.detail}\n`);
process.exit(EXIT_INVALID);
