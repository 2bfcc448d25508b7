/**
 * `npm run keys -- create|revoke|list` — API key administration against the configured ledger
 * (EVENTSTORE_URL, else the embedded one in DATA_DIR).
 * The key and its signing secret are printed once, at creation; the ledger keeps only the digest.
 */
import { keys as keysProjection } from '../projections/keys.js';
import { allProjections } from '../projections/index.js';
import type { z } from 'zod';
import { Label, OrgName, RevocationReason } from '../src/orgs/contract.js';
import { issueKey, revokeKey } from '../src/orgs/issue.js';
import { KeyIssueRefused, PLATFORM_OPERATOR_ORG } from '../src/orgs/keys.js';
import { OPERATOR_SCOPES } from '../src/orgs/operator.js';
import { systemClock } from '../src/platform/clock.js';
import { sharedLedgerProblems } from '../src/config.js';
import { isApiKeyScope, type ApiKeyScope } from '../src/platform/crypto/api-key.js';
import { Ledger } from '../src/platform/ledger/ledger.js';
import { ProjectionRuntime } from '../src/platform/projections/runtime.js';
import { loadOrCreateSecrets } from '../src/platform/secrets.js';
import {
  config,
  EXIT_FAILED,
  EXIT_OK,
  EXIT_USAGE,
  openLedger,
  parseCli,
  readModelsForCli,
} from './lib/cli.js';
import { valuesOf } from '../src/platform/projections/index.js';

const USAGE = `
Usage:
  npm run keys -- create --org <name> --scopes <scope,scope…> [--test] [--label <text>] [--json]
  npm run keys -- create --operator [--scopes <scope,scope…>] [--label <text>] [--json]
  npm run keys -- revoke <key_id> [--reason <text>] [--json]
  npm run keys -- list [--json]

Scopes: credit:read, governance:write, governance:read, ledger:read, tlog:read, draws:approve,
admin (a tenant org's own), and the platform operator's only: registry:admin (SAM imports,
entity-level facts) and platform:admin (orgs and keys over HTTP, /api/admin/*).
create registers the organization if it is new and prints the key and its signing secret ONCE.
--operator issues to the platform operator's org (created if the ledger has none yet); its
default scopes are ${OPERATOR_SCOPES.join(',')}. Platform scopes cannot be granted to a tenant.
Over HTTP the same is POST /api/admin/orgs, /api/admin/keys (platform:admin) and /api/keys (admin).
Exit codes: 0 done, 1 refused (unknown or already revoked key; appends suspended after an integrity
failure), 2 usage or configuration error.
`;

const cli = parseCli(USAGE, {
  org: { type: 'string' },
  operator: { type: 'boolean' },
  scopes: { type: 'string' },
  test: { type: 'boolean' },
  label: { type: 'string' },
  reason: { type: 'string' },
});
const [command, ...rest] = cli.positionals;
const usage = (message: string): never => {
  process.stderr.write(`${message}\n${USAGE}`);
  process.exit(EXIT_USAGE);
};
if (command !== 'create' && command !== 'revoke' && command !== 'list')
  usage('give one of: create, revoke, list');
/** A name, label or reason as the HTTP routes take it (no control characters, bounded length). */
const checked = (flag: string, schema: z.ZodType<string>, value: string | undefined): string | undefined => {
  if (value === undefined) return undefined;
  const parsed = schema.safeParse(value);
  if (!parsed.success) usage(`${flag}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
};
const orgName = checked('--org', OrgName, cli.values.org);
const label = checked('--label', Label, cli.values.label);
const reason = checked('--reason', RevocationReason, cli.values.reason);

const cfg = config();
// On a shared ledger a key made under this machine's own pepper would be refused by every node.
const unshared = sharedLedgerProblems(cfg, ['KEY_PEPPER', 'LEDGER_SIGNING_KEY'], false);
if (unshared.length > 0) {
  process.stderr.write(`${unshared.join('\n')}\n`);
  process.exit(EXIT_USAGE);
}
const opened = await openLedger(cfg, {
  mustExist: command !== 'create',
  json: cli.json,
  appends: command !== 'list',
});
const { store } = opened;
const runtime = new ProjectionRuntime(store, allProjections(), null, systemClock, readModelsForCli(opened));
await runtime.start();
const ledger = await Ledger.open(store, systemClock, {
  onAppended: (events) => runtime.apply(events),
  onConflict: () => runtime.catchUp(),
});
const secrets = loadOrCreateSecrets(cfg.DATA_DIR, {
  KEY_PEPPER: cfg.KEY_PEPPER,
  LEDGER_SIGNING_KEY: cfg.LEDGER_SIGNING_KEY,
});
const out = (value: unknown, text: string): void => {
  process.stdout.write(cli.json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);
};
let exit = EXIT_OK;

if (command === 'create') {
  const operator = cli.values.operator === true;
  const org = operator ? PLATFORM_OPERATOR_ORG : orgName;
  const scopes =
    operator && cli.values.scopes === undefined
      ? [...OPERATOR_SCOPES]
      : (cli.values.scopes ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  if (operator && cli.values.org) usage('give either --org <name> or --operator, not both');
  if (!org) usage('create needs --org <name> (or --operator)');
  const bad = scopes.filter((s) => !isApiKeyScope(s));
  if (scopes.length === 0 || bad.length > 0)
    usage(`--scopes must list valid scopes${bad.length ? ` (unknown: ${bad.join(', ')})` : ''}`);
  const issued = await issueKey(
    ledger,
    runtime,
    secrets,
    {
      org_name: org!,
      scopes: scopes as ApiKeyScope[],
      mode: cli.values.test ? 'test' : 'live',
      ...(label ? { label } : {}),
      ...(operator ? { platform_operator: true } : {}),
    },
    'cli',
  ).catch(async (error: unknown) => {
    if (!(error instanceof KeyIssueRefused)) throw error;
    await runtime.stop();
    await opened.close();
    return usage(`refused: ${error.message}`);
  });
  out(
    issued,
    [
      `Issued ${issued.key_id} to ${issued.org_name} (${issued.org_id}) with ${issued.scopes.join(', ')}.`,
      `  key:            ${issued.key}`,
      `  signing secret: ${issued.signing_secret}`,
      'Store both now: they are not shown again.',
    ].join('\n'),
  );
} else if (command === 'revoke') {
  const keyId = rest[0];
  if (!keyId) usage('revoke needs a key id');
  const outcome = await revokeKey(ledger, runtime, keyId!, reason ?? null, 'cli');
  if (outcome !== 'revoked') exit = EXIT_FAILED;
  out(
    { key_id: keyId, outcome },
    outcome === 'revoked' ? `Revoked ${keyId}.` : `Not revoked: ${outcome.replace('_', ' ')}.`,
  );
} else {
  const state = runtime.state(keysProjection);
  const rows = valuesOf(state.keys).map((k) => ({
    key_id: k.key_id,
    org_id: k.org_id,
    org: state.orgs[k.org_id]?.name ?? null,
    scopes: k.scopes,
    mode: k.mode,
    label: k.label,
    issued_at: k.issued_at,
    revoked_at: k.revoked_at,
  }));
  out(
    rows,
    rows.length === 0
      ? 'No keys.'
      : rows
          .map(
            (r) =>
              `${r.key_id}  ${r.org ?? r.org_id}  ${r.scopes.join(',')}  ${r.mode}  issued ${r.issued_at}${r.revoked_at ? `  REVOKED ${r.revoked_at}` : ''}`,
          )
          .join('\n'),
  );
}
await runtime.stop();
await opened.close();
process.exit(exit);
