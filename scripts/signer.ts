/**
 * `npm run signer -- keygen|sign|verify` — a signer's side of signed duties (docs/duties.md), with
 * the SDK's WebCrypto helpers, so what it signs is exactly what the service verifies.
 *
 *   keygen --out <file>                         new Ed25519 key: PKCS#8 PEM (mode 0600); prints the
 *                                               public key (base64, for POST /api/signers/enroll)
 *   sign   --key <file> (--draw|--waiver|--act) <json file>
 *                                               prints the base64 signature over the document
 *                                               (`GET /api/draws/:id`, `GET /api/documents/:id`,
 *                                               or the notarial act's terms)
 *   verify --public-key <base64> (--draw|--waiver|--act) <json file> --signature <base64>
 *   digest --document <json file>              the SHA-256 (hex) of a recorded document's canonical
 *                                               JSON (`GET /api/documents/:id` as answered): the
 *                                               `document_sha256` of a notarial act's terms
 *
 * `--json` prints {public_key} / {signature, sha256} / {valid, sha256}. Exit 0 done (verify: valid),
 * 1 failed (verify: invalid), 2 bad flags.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import {
  drawSigningDocument,
  notarialActDocument,
  signDocument,
  signingDigestHex,
  verifyDocumentSignature,
  waiverSigningDocument,
  type NotarialActTerms,
  type SignableDraw,
  type SignableWaiver,
} from '../src/sdk/duties.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, parseCli } from './lib/args.js';

const USAGE = `
npm run signer -- keygen --out <key.pem>
npm run signer -- sign --key <key.pem> (--draw <draw.json> | --waiver <waiver.json> | --act <act.json>)
npm run signer -- verify --public-key <base64> (--draw … | --waiver … | --act …) --signature <base64>
npm run signer -- digest --document <document.json>
npm run signer -- public-key --key <key.pem>

keygen writes a new Ed25519 key (PKCS#8 PEM, mode 0600, never over an existing file) and prints its
public key (base64, for POST /api/signers/enroll); sign prints the base64 signature over the draw
(GET /api/draws/:id), waiver (GET /api/documents/:id) or notarial act's terms; digest prints the
SHA-256 of a recorded document (a notarial act's document_sha256); public-key prints a key file's.
  --json   print keygen {public_key, key_file}, sign {signature, sha256}, verify {valid, sha256},
           digest {sha256}, public-key {public_key} as JSON
Exit codes: 0 done (verify: valid), 1 failed (verify: invalid), 2 usage error.
`;

const { values, positionals, json } = parseCli(USAGE, {
  out: { type: 'string' },
  key: { type: 'string' },
  draw: { type: 'string' },
  waiver: { type: 'string' },
  act: { type: 'string' },
  document: { type: 'string' },
  'public-key': { type: 'string' },
  signature: { type: 'string' },
});

function usage(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE.trim()}\n`);
  process.exit(EXIT_USAGE);
}

function print(text: string, object: Record<string, unknown>): void {
  process.stdout.write(json ? `${JSON.stringify(object)}\n` : `${text}\n`);
}

/** The signing document named by --draw, --waiver or --act. */
function signingDocument(): Record<string, unknown> {
  const given = (['draw', 'waiver', 'act'] as const).filter((k) => values[k] !== undefined);
  if (given.length !== 1) usage('name exactly one of --draw, --waiver, --act');
  const kind = given[0]!;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(values[kind]!, 'utf8'));
  } catch (error) {
    usage(`cannot read ${values[kind]!}: ${(error as Error).message}`);
  }
  if (kind === 'draw') return drawSigningDocument(parsed as SignableDraw);
  if (kind === 'waiver') return waiverSigningDocument(parsed as SignableWaiver);
  return notarialActDocument(parsed as NotarialActTerms);
}

async function main(): Promise<number> {
  const command = positionals[0];
  if (command === 'keygen') {
    if (values.out === undefined) usage('keygen needs --out <file>');
    if (existsSync(values.out)) usage(`${values.out} exists; refusing to overwrite a key`);
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    writeFileSync(values.out, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
    const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url').toString('base64');
    print(raw, { public_key: raw, key_file: values.out });
    return EXIT_OK;
  }
  if (command === 'sign') {
    if (values.key === undefined) usage('sign needs --key <file>');
    const document = signingDocument();
    const pkcs8 = createPrivateKey(readFileSync(values.key, 'utf8')).export({ format: 'der', type: 'pkcs8' });
    const key = await crypto.subtle.importKey('pkcs8', new Uint8Array(pkcs8), { name: 'Ed25519' }, false, [
      'sign',
    ]);
    const signature = await signDocument(key, document);
    print(signature, { signature, sha256: await signingDigestHex(document) });
    return EXIT_OK;
  }
  if (command === 'verify') {
    const publicKey = values['public-key'];
    if (publicKey === undefined || values.signature === undefined)
      usage('verify needs --public-key and --signature');
    const document = signingDocument();
    const valid = await verifyDocumentSignature(publicKey, document, values.signature);
    print(valid ? 'valid' : 'INVALID', { valid, sha256: await signingDigestHex(document) });
    return valid ? EXIT_OK : EXIT_FAILED;
  }
  if (command === 'digest') {
    if (values.document === undefined) usage('digest needs --document <file>');
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(values.document, 'utf8'));
    } catch (error) {
      usage(`cannot read ${values.document}: ${(error as Error).message}`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      usage(`${values.document} is not a JSON object`);
    const sha256 = await signingDigestHex(parsed as Record<string, unknown>);
    print(sha256, { sha256 });
    return EXIT_OK;
  }
  // Public keys from PEM, for a signer who kept only the key file.
  if (command === 'public-key') {
    if (values.key === undefined) usage('public-key needs --key <file>');
    const jwk = createPublicKey(createPrivateKey(readFileSync(values.key, 'utf8'))).export({ format: 'jwk' });
    const raw = Buffer.from(jwk.x!, 'base64url').toString('base64');
    print(raw, { public_key: raw });
    return EXIT_OK;
  }
  usage('expected keygen, sign, verify, digest or public-key');
}

process.exitCode = await main().catch((error: unknown) => {
  process.stderr.write(`signer: ${(error as Error).message}\n`);
  return EXIT_FAILED;
});
