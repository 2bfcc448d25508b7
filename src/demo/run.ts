/**
 * Sends a demo plan to the real service: `createApp(deps)` on a private loopback port, keys issued
 * through the ledger, then every step in timeline order with the demo clock set to the step's
 * instant, a deterministic `Request-Id` and `Idempotency-Key` (so event and resource ids are
 * UUIDv5s of them) and references replaced by the ids answered before. Any unexpected status
 * stops the run with the step and the problem body: a seed never silently skips a fact.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createApp, type AppDeps } from '../app.js';
import { findingId } from '../governance/findings.js';
import { PLATFORM_OPERATOR_ORG, type IssuedKey } from '../orgs/keys.js';
import { OPERATOR_SCOPES } from '../orgs/operator.js';
import { ManualClock } from '../platform/clock.js';
import { createAppServer } from '../platform/http/server.js';
import type { Logger } from '../platform/log.js';
import type { ApiKeyScope, RandomBytes } from '../platform/crypto/api-key.js';
import { MemoryRateLimitStore, RateLimiter } from '../platform/rate-limit/index.js';
import { countDataset, type DemoCounts } from './counts.js';
import type { DemoPlan } from './dataset.js';
import { issueDemoKey } from './keys.js';
import { signResource } from './duties.js';
import { Rng } from './prng.js';
import {
  DEFAULT_PHASES,
  PHASES,
  type DemoStep,
  type FindingSelector,
  type Json,
  type Phase,
} from './steps.js';

/** The demo key (DOMAIN-wide read + write, SPEC §1 scopes): what `npm start` prints. */
export const DEMO_SCOPES: ApiKeyScope[] = [
  'credit:read',
  'governance:read',
  'governance:write',
  'ledger:read',
  // The demo lender manages its own org's keys (POST /api/keys): the README issues a second key
  // to re-verify a fresh payee account (payee_account_stable, docs/duties.md).
  'admin',
];
/** The lenders seeding the demo also accept draws' conditions at funding (`draws:approve`). */
const SEEDING_SCOPES: ApiKeyScope[] = [...DEMO_SCOPES, 'draws:approve'];

export interface RunOptions {
  /** Phases to send (default: all; `['ingest']` seeds the bare facts). */
  phases?: readonly Phase[];
  /** Key material; default drawn from the seed (reproducible ledgers). First start passes a secure source. */
  randomBytes?: RandomBytes;
  onProgress?: (done: number, total: number) => void;
  /**
   * Complete an interrupted seed of the same plan and key source: every event id and request is
   * derived from the seed, so what is stored answers as a duplicate and the rest is written.
   */
  resume?: boolean;
}

export interface DemoRun {
  demo_key: IssuedKey;
  /** The platform operator's key (registry imports, entity-level facts); first start prints it. */
  operator_key: IssuedKey;
  lenders: IssuedKey[];
  counts: DemoCounts;
  /** Plan reference → id the service answered. */
  refs: Record<string, string>;
  head: { seq: number; hash: string };
}

export class DemoStepFailed extends Error {
  readonly type = 'demo_step_failed' as const;
  constructor(
    readonly step: DemoStep,
    readonly status: number,
    readonly problem: string,
  ) {
    super(`demo step ${step.n} (${step.label}, ${step.date}) answered ${status}: ${problem}`);
    this.name = 'DemoStepFailed';
  }
}

const REF = /@\{([^}]+)\}/g;

function resolveText(text: string, refs: Readonly<Record<string, string>>, step: DemoStep): string {
  return text.replace(REF, (_, name: string) => {
    const id = refs[name];
    if (id === undefined)
      throw new Error(`demo step ${step.n} (${step.label}) names unknown reference ${name}`);
    return id;
  });
}

function resolveJson(value: Json, refs: Readonly<Record<string, string>>, step: DemoStep): Json {
  if (typeof value === 'string') return resolveText(value, refs, step);
  if (Array.isArray(value)) return value.map((v) => resolveJson(v, refs, step));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveJson(v, refs, step)]));
  return value;
}

function findingPath(f: FindingSelector, refs: Readonly<Record<string, string>>, step: DemoStep): string {
  const id = (name: string): string => resolveText(`@{${name}}`, refs, step);
  return findingId(
    id(f.project),
    f.code,
    f.draw === null ? null : id(f.draw),
    resolveText(f.subject, refs, step),
  );
}

/** Request ids must match `^[A-Za-z0-9._-]{8,64}$` (SPEC §2); the seed is slugged into them. */
function requestIds(seed: string): {
  requestId: (n: number) => string;
  idempotencyKey: (n: number) => string;
} {
  const slug = seed.replace(/[^A-Za-z0-9._-]/g, '').slice(0, 40) || 'x';
  const digest = createHash('sha256').update(seed).digest('hex').slice(0, 16);
  return { requestId: (n) => `demo-${slug}-${n}`, idempotencyKey: (n) => `demo:${digest}:${n}` };
}

/** A step with its path and body references replaced by ids. */
interface ResolvedStep {
  path: string;
  body: Json;
}

function resolveStep(step: DemoStep, refs: Readonly<Record<string, string>>): ResolvedStep {
  const path = step.finding
    ? step.path.replace('{finding}', findingPath(step.finding, refs, step))
    : step.path;
  return { path: resolveText(path, refs, step), body: resolveJson(step.body, refs, step) };
}

async function send(
  base: string,
  step: DemoStep,
  key: IssuedKey,
  refs: Record<string, string>,
  seed: string,
): Promise<void> {
  const ids = requestIds(seed);
  const { path, body: unsigned } = resolveStep(step, refs);
  const body = step.sign === undefined ? unsigned : await signed(base, step, key, refs, seed, unsigned);
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      'content-type': step.raw?.content_type ?? 'application/json',
      'request-id': ids.requestId(step.n),
      'idempotency-key': ids.idempotencyKey(step.n),
      ...(step.auth === 'lender_api'
        ? { 'x-plumbline-api-key': key.key }
        : { authorization: `Bearer ${key.key}` }),
    },
    body: step.raw?.text ?? JSON.stringify(body),
  });
  const text = await response.text();
  if (!step.expect.includes(response.status)) throw new DemoStepFailed(step, response.status, text);
  if (step.save === undefined) return;
  const answered = JSON.parse(text) as { id?: unknown; enrollment_token?: unknown };
  if (typeof answered.id !== 'string') throw new DemoStepFailed(step, response.status, `no id in ${text}`);
  refs[step.save] = answered.id;
  // An invited signer's one-time token, for its enrollment step (docs/duties.md).
  if (typeof answered.enrollment_token === 'string') refs[`${step.save}.token`] = answered.enrollment_token;
}

/** The step's body with the signature its signer makes over the resource as the service serves it. */
async function signed(
  base: string,
  step: DemoStep,
  key: IssuedKey,
  refs: Record<string, string>,
  seed: string,
  body: Json,
): Promise<Json> {
  const spec = step.sign!;
  const resource = await fetch(`${base}${resolveText(spec.resource, refs, step)}`, {
    headers: { authorization: `Bearer ${key.key}` },
  });
  const text = await resource.text();
  if (resource.status !== 200)
    throw new DemoStepFailed(step, resource.status, `signing ${spec.resource}: ${text}`);
  const resolved =
    spec.kind === 'act'
      ? {
          ...spec,
          terms: resolveJson(spec.terms, refs, step) as unknown as typeof spec.terms,
        }
      : spec;
  const signature = signResource(seed, resolved, JSON.parse(text));
  const object = body as { [key: string]: Json };
  if (spec.kind === 'act')
    return { ...object, act: { ...(object.act as { [key: string]: Json }), signature } };
  return { ...object, signature };
}

async function listen(deps: AppDeps, clock: ManualClock) {
  // The seeding server is private and its clock runs through months in seconds: it gets its own
  // in-memory limits on the demo clock, so neither the real quotas nor Redis see the backfill.
  const limiter = new RateLimiter({ store: new MemoryRateLimitStore(clock), clock, onStoreError: 'closed' });
  // A thousand backfill requests would drown the real access log: only warnings and errors pass.
  const logger: Logger = { ...deps.logger, debug: () => undefined, info: () => undefined };
  const server = createAppServer(createApp({ ...deps, clock, limiter, logger }));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

type Issue = (
  org_name: string,
  scopes: ApiKeyScope[],
  label: string,
  name: string,
  platform_operator?: boolean,
) => Promise<IssuedKey>;

/** Issues keys through the ledger, their material from the seed unless a source is given. */
function keyIssuer(deps: AppDeps, plan: DemoPlan, randomBytes: RandomBytes | undefined): Issue {
  const keyRng = Rng.of(plan.seed).fork('keys');
  return (org_name, scopes, label, name, platform_operator = false) => {
    const stream = keyRng.fork(name);
    return issueDemoKey(deps.ledger, deps.runtime, deps.secrets, {
      org_name,
      scopes,
      label,
      platform_operator,
      name: `plumbline-demo|${plan.seed}|${name}`,
      randomBytes: randomBytes ?? ((size) => stream.bytes(size)),
    });
  };
}

/** Sends every step of a sent phase in timeline order, counting the others as deferred. */
async function sendSteps(
  deps: AppDeps,
  base: string,
  plan: DemoPlan,
  opts: RunOptions,
  clock: ManualClock,
  keys: { lenders: IssuedKey[]; operator: IssuedKey },
): Promise<{ refs: Record<string, string>; deferred: Record<Phase, number> }> {
  const phases = opts.phases ?? DEFAULT_PHASES;
  const refs: Record<string, string> = {};
  const deferred = Object.fromEntries(PHASES.map((p) => [p, 0])) as Record<Phase, number>;
  for (const [i, step] of plan.steps.entries()) {
    opts.onProgress?.(i, plan.steps.length);
    if (!phases.includes(step.phase)) {
      deferred[step.phase] += 1;
      continue;
    }
    clock.set(step.at);
    const key = step.sender === 'operator' ? keys.operator : keys.lenders[step.sender]!;
    await send(base, step, key, refs, plan.seed);
  }
  opts.onProgress?.(plan.steps.length, plan.steps.length);
  return { refs, deferred };
}

export async function runDemo(deps: AppDeps, plan: DemoPlan, opts: RunOptions = {}): Promise<DemoRun> {
  if (deps.ledger.head.seq > 0 && opts.resume !== true)
    throw new Error('refusing to seed the demo into a ledger that already has events');
  // Where the service runs on a manual clock (seed-demo, tests) the ledger's recorded_at follows
  // the timeline; on the system clock only the requests' own "now" does.
  const clock = deps.clock instanceof ManualClock ? deps.clock : new ManualClock(plan.now);
  clock.set(`${plan.starts_on}T07:00:00.000Z`);
  const issue = keyIssuer(deps, plan, opts.randomBytes);
  const lenders: IssuedKey[] = [];
  for (const [i, org] of plan.lenders.entries())
    lenders.push(await issue(org, SEEDING_SCOPES, 'demo-seed', `lender${i}`));
  const demo_key = await issue(plan.lenders[0]!, DEMO_SCOPES, 'demo', 'demo');
  // The platform operator furnishes what no lender may: SAM extracts and entity-level facts.
  const operator_key = await issue(PLATFORM_OPERATOR_ORG, OPERATOR_SCOPES, 'demo-operator', 'admin', true);
  const keys = { lenders, operator: operator_key };

  const server = await listen(deps, clock);
  let sent;
  try {
    sent = await sendSteps(deps, server.base, plan, opts, clock, keys);
  } finally {
    await server.close();
  }
  if (clock.now().toISOString() < plan.now) clock.set(plan.now);
  const head = deps.ledger.head;
  return {
    demo_key,
    operator_key,
    lenders,
    counts: countDataset(deps.runtime, head.seq, plan.steps.length, sent.deferred),
    refs: sent.refs,
    head: { seq: head.seq, hash: head.hash },
  };
}
