/**
 * A whole service for API tests: a temp-dir SQLite ledger, the real composition, createApp, and
 * helpers to issue keys. Optionally on a real Redis (the harness's private redis-server).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import { createApp } from '../../src/app.js';
import { compose, type ComposeOptions, type Composed } from '../../src/compose.js';
import { issueKey } from '../../src/orgs/issue.js';
import type { IssuedKey } from '../../src/orgs/keys.js';
import { ManualClock } from '../../src/platform/clock.js';
import type { ApiKeyScope } from '../../src/platform/crypto/api-key.js';
import { silentLogger } from '../../src/platform/log.js';
import type { RateLimitOnStoreError } from '../../src/platform/rate-limit/index.js';

export const ALL_SCOPES: ApiKeyScope[] = [
  'credit:read',
  'governance:read',
  'governance:write',
  'ledger:read',
];

export interface TestService {
  app: Express;
  clock: ManualClock;
  composed: Composed;
  dataDir: string;
  key(org: string, scopes?: ApiKeyScope[]): Promise<IssuedKey>;
  head(): Promise<number>;
  close(): Promise<void>;
}

export async function startService(
  opts: {
    redisUrl?: string;
    onStoreError?: RateLimitOnStoreError;
    now?: string;
    /** More composition options (transparency-log witnesses, …). */
    compose?: Partial<ComposeOptions>;
  } = {},
): Promise<TestService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'plumbline-api-'));
  const clock = new ManualClock(opts.now ?? '2026-06-15T12:00:00Z');
  const composed = await compose({
    dataDir,
    clock,
    logger: silentLogger,
    redisUrl: opts.redisUrl,
    ...(opts.onStoreError ? { onStoreError: opts.onStoreError } : {}),
    publicBaseUrl: 'http://plumbline.test',
    keyPepper: 'test-pepper-0123456789abcdef0123456789',
    signingKey: 'test-signing-key-0123456789abcdef01234',
    ...opts.compose,
  });
  const app = createApp(composed.deps);
  return {
    app,
    clock,
    composed,
    dataDir,
    key: (org, scopes = ALL_SCOPES) =>
      issueKey(composed.deps.ledger, composed.deps.runtime, composed.deps.secrets, { org_name: org, scopes }),
    head: async () => (await composed.store.head()).seq,
    async close() {
      await composed.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
