/**
 * Configuration: the only reader of process.env. Parsed with zod; a bad environment refuses to
 * start with every problem listed at once (ARCHITECTURE §8).
 */
import { z } from 'zod';
import { parseVerifierKey, SIG_ED25519 } from './platform/tlog/note.js';

/** A transparency-log (Ed25519 note, type 0x01) verifier key. */
function isLogVerifierKey(value: string): boolean {
  try {
    return parseVerifierKey(value).type === SIG_ED25519;
  } catch {
    return false;
  }
}

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .min(1)
    .refine((v) => protocols.some((p) => v.startsWith(p)), {
      message: `must start with ${protocols.join(' or ')}`,
    })
    .optional();

const EnvSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    EVENTSTORE_URL: optionalUrl(['esdb://', 'esdb+discover://']),
    /**
     * The EventStoreDB server's MaxAppendSize in bytes (its default, 1 MiB): appends larger than this
     * are split into chunks below it (docs/production.md). Set it to the server's value.
     */
    EVENTSTORE_MAX_APPEND_SIZE: z.coerce
      .number()
      .int()
      .min(4096)
      .max(2 ** 31 - 1)
      .default(1024 * 1024),
    REDIS_URL: optionalUrl(['redis://', 'rediss://']),
    RATE_LIMIT_ON_STORE_ERROR: z.enum(['closed', 'open']).default('closed'),
    KEY_PEPPER: z.string().min(32, 'must be at least 32 characters').optional(),
    LEDGER_SIGNING_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
    DEMO: z.enum(['0', '1']).optional(),
    /**
     * The platform operator's first key on an empty production ledger: read from this file when it
     * holds one (provisioned as a secret), else generated and written there (0600) instead of printed.
     */
    OPERATOR_KEY_FILE: z.string().trim().min(1).optional(),
    PUBLIC_BASE_URL: z.url().optional(),
    SAM_API_KEY: z.string().min(1).optional(),
    SAM_API_BASE_URL: z.url().default('https://api.sam.gov'),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
    TRUST_PROXY: z.enum(['0', '1']).default('0'),
    /** Transparency log (docs/transparency-log.md): checkpoint origin, default from PUBLIC_BASE_URL. */
    TLOG_ORIGIN: z
      .string()
      .trim()
      .regex(/^[^\s+]+$/, 'must be a schema-less URL without spaces or "+"')
      .optional(),
    /** The log's Ed25519 seed, 64 hex characters; generated into DATA_DIR/secrets.json when unset. */
    TLOG_SIGNING_SEED: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (a 32-byte Ed25519 seed)')
      .optional(),
    /**
     * With EVENTSTORE_URL, while rotating the log's key on every node: the old verifier key. A node
     * re-signs its last checkpoint with the new key only when that key signed it.
     */
    TLOG_PREVIOUS_KEY: z
      .string()
      .trim()
      .refine(isLogVerifierKey, 'must be the old verifier key, <origin>+<8 hex key id>+<base64 key>')
      .optional(),
    /** 1: /tlog/* and the proof and receipt routes answer without a key. */
    TLOG_PUBLIC: z.enum(['0', '1']).default('0'),
    /** Comma-separated C2SP tlog-witness submission prefixes. */
    WITNESS_URLS: z
      .string()
      .trim()
      .transform((v) =>
        v
          .split(',')
          .map((u) => u.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.url()))
      .optional(),
    /**
     * 1: start although a ledger integrity failure was recorded, and clear it (after an operator has
     * investigated; docs/transparency-log.md). Appends stay refused while a failure stands.
     */
    LEDGER_INTEGRITY_OVERRIDE: z.enum(['0', '1']).default('0'),
    /** Requests handled at once; more wait their turn (docs/security-edge.md). */
    HTTP_CONCURRENCY: z.coerce.number().int().min(1).max(100_000).default(32),
    /** Requests running or waiting; past it a request is shed with 503 + Retry-After. */
    HTTP_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(1_000_000).default(512),
    /**
     * Milliseconds a client has to send a whole request, headers and body (408 past it): a slow
     * sender holds a connection no longer than this (docs/security-edge.md).
     */
    HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(30_000),
    /** Milliseconds a client has to send the request's headers (at most HTTP_REQUEST_TIMEOUT_MS). */
    HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(10_000),
    /** Read-model records kept in the heap between flushes (docs/ARCHITECTURE.md §5). */
    READ_MODEL_CACHE: z.coerce.number().int().min(100).max(10_000_000).default(20_000),
  })
  .refine((env) => env.HTTP_MAX_IN_FLIGHT >= env.HTTP_CONCURRENCY, {
    path: ['HTTP_MAX_IN_FLIGHT'],
    message: 'must be at least HTTP_CONCURRENCY',
  })
  .refine((env) => env.HTTP_HEADERS_TIMEOUT_MS <= env.HTTP_REQUEST_TIMEOUT_MS, {
    path: ['HTTP_HEADERS_TIMEOUT_MS'],
    message: 'must be at most HTTP_REQUEST_TIMEOUT_MS',
  });

export type Config = z.infer<typeof EnvSchema>;

export class ConfigError extends Error {
  readonly type = 'config_error' as const;
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses an environment (process.env by default); empty strings count as unset. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.keys(EnvSchema.shape)
      .map((k) => [k, env[k]] as const)
      .filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`));
  }
  return parsed.data;
}

/**
 * What every node must be given, the same, when several share one ledger (EVENTSTORE_URL): the
 * secrets a lone node would otherwise generate into its own DATA_DIR, and the log's origin. A node
 * that generated its own accepted no key made on another node (401 for every tenant), signed the
 * one log with a key of its own, and — with the origin taken from its port — published another
 * verifier key for the same log, so receipts from one node failed against the key pinned from
 * another. `what` names who refuses ("the service", a CLI); `names` the secrets it needs.
 */
export function sharedLedgerProblems(
  config: Config,
  names: readonly SharedSecret[] = SHARED_SECRETS,
  needsOrigin = true,
): string[] {
  if (!config.EVENTSTORE_URL) return [];
  const problems = names
    .filter((name) => config[name] === undefined)
    .map(
      (name) =>
        `${name}: required with EVENTSTORE_URL — ${SECRET_ROLE[name]}; give every node the same value (docs/production.md §1)`,
    );
  if (needsOrigin && config.PUBLIC_BASE_URL === undefined && config.TLOG_ORIGIN === undefined)
    problems.push(
      "PUBLIC_BASE_URL (or TLOG_ORIGIN): required with EVENTSTORE_URL — the transparency log's origin, which every node must sign under (its default, localhost:<PORT>, differs per node)",
    );
  return problems;
}

export type SharedSecret = 'KEY_PEPPER' | 'LEDGER_SIGNING_KEY' | 'TLOG_SIGNING_SEED';
const SHARED_SECRETS: readonly SharedSecret[] = ['KEY_PEPPER', 'LEDGER_SIGNING_KEY', 'TLOG_SIGNING_SEED'];
const SECRET_ROLE: Record<SharedSecret, string> = {
  KEY_PEPPER:
    'API keys are stored as digests under it, so a node with another pepper refuses every key made elsewhere',
  LEDGER_SIGNING_KEY: 'response signing secrets derive from it',
  TLOG_SIGNING_SEED:
    "the transparency log's Ed25519 key; a node with another one signs the same log with a second key",
};

/** The service's configuration: {@link loadConfig}, then {@link sharedLedgerProblems}. */
export function loadServiceConfig(env: Record<string, string | undefined> = process.env): Config {
  const config = loadConfig(env);
  const problems = sharedLedgerProblems(config);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
