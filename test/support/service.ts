/**
 * A whole service for API tests: a temp-dir SQLite ledger, the real composition, createApp, and
 * helpers to issue keys. Optionally on a real Redis (the harness's private redis-server).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import { createApp, paymentOutboxOf } from '../../src/app.js';
import { compose, type ComposeOptions, type Composed } from '../../src/compose.js';
import { issueKey } from '../../src/orgs/issue.js';
import { PLATFORM_OPERATOR_ORG, type IssuedKey } from '../../src/orgs/keys.js';
import { OPERATOR_SCOPES } from '../../src/orgs/operator.js';
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
  /** A key of the platform operator's org (created on first use), with `registry:admin`. */
  operator(scopes?: ApiKeyScope[]): Promise<IssuedKey>;
  head(): Promise<number>;
  /**
   * Stops the service and starts it again on the same data directory (a process restart), with
   * `more` composition options changed for this start (e.g. another set of witnesses).
   */
  restart(more?: Partial<ComposeOptions>): Promise<void>;
  close(): Promise<void>;
}

export async function startService(
  opts: {
    redisUrl?: string;
    onStoreError?: RateLimitOnStoreError;
    now?: string;
    /** SAM.gov's API, e.g. a local stub server (test/support/sam-stub.ts). */
    samApi?: { apiKey: string; baseUrl: string; timeoutMs?: number };
    /** More composition options (transparency-log witnesses, …). */
    compose?: Partial<ComposeOptions>;
  } = {},
): Promise<TestService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'plumbline-api-'));
  const clock = new ManualClock(opts.now ?? '2026-06-15T12:00:00Z');
  const composeHere = (more: Partial<ComposeOptions> = {}) =>
    compose({
      dataDir,
      clock,
      logger: silentLogger,
      redisUrl: opts.redisUrl,
      ...(opts.onStoreError ? { onStoreError: opts.onStoreError } : {}),
      ...(opts.samApi ? { samApi: opts.samApi } : {}),
      publicBaseUrl: 'http://plumbline.test',
      keyPepper: 'test-pepper-0123456789abcdef0123456789',
      signingKey: 'test-signing-key-0123456789abcdef01234',
      ...opts.compose,
      ...more,
    });
  const first = await composeHere();
  // Closed and not started again: a restart whose composition was refused leaves nothing open.
  let down = false;
  const svc: TestService = {
    app: createApp(first.deps),
    clock,
    composed: first,
    dataDir,
    key: (org, scopes = ALL_SCOPES) => {
      const { ledger, runtime, secrets } = svc.composed.deps;
      return issueKey(ledger, runtime, secrets, { org_name: org, scopes });
    },
    operator: (scopes = OPERATOR_SCOPES) => {
      const { ledger, runtime, secrets } = svc.composed.deps;
      return issueKey(ledger, runtime, secrets, {
        org_name: PLATFORM_OPERATOR_ORG,
        scopes,
        platform_operator: true,
      });
    },
    head: async () => (await svc.composed.store.head()).seq,
    async restart(more) {
      if (!down) await svc.composed.close();
      down = true;
      svc.composed = await composeHere(more);
      down = false;
      svc.app = createApp(svc.composed.deps);
    },
    async close() {
      paymentOutboxOf(svc.app).stop();
      if (!down) await svc.composed.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return svc;
}
