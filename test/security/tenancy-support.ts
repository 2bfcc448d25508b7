/**
 * A two-tenant world for the tenancy specs: the demo plan cut to three projects (lender 0 — org A
 * — runs P01 and P02, lender 1 — org B — runs P03), seeded through the real service with every
 * default phase, so A owns projects, draws, documents, change orders, observations and findings
 * that governance really found. Plus the ids each org owns, read from the projections.
 */
import { governance as governanceProjection } from '../../projections/governance.js';
import { observationsProjection } from '../../projections/observations.js';
import { accountsProjection } from '../../projections/accounts.js';
import { signersProjection } from '../../projections/signers.js';
import { projectsProjection } from '../../projections/projects.js';
import { planDemo, type DemoPlan } from '../../src/demo/dataset.js';
import { runDemo, type DemoRun } from '../../src/demo/run.js';
import type { IssuedKey } from '../../src/orgs/keys.js';
import { startService, type TestService } from '../support/service.js';

export interface TenantWorld {
  svc: TestService;
  plan: DemoPlan;
  run: DemoRun;
  /** Org A's seeding key (projects P01, P02). */
  a: IssuedKey;
  /** Org B's seeding key (project P03). */
  b: IssuedKey;
}

export async function seedTwoTenants(): Promise<TenantWorld> {
  const svc = await startService();
  const plan = planDemo({ projects: 3 });
  const run = await runDemo(svc.composed.deps, plan);
  return { svc, plan, run, a: run.lenders[0]!, b: run.lenders[1]! };
}

export const RESOURCE_KINDS = [
  'project',
  'draw',
  'document',
  'change_order',
  'observation',
  'finding',
  'signer',
  'account',
] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** Every id of each tenant-owned kind that `org` owns, in recording order. */
export function ownedIds(svc: TestService, org: string): Record<ResourceKind, string[]> {
  const projects = svc.composed.deps.runtime.state(projectsProjection);
  const mine = projects.project_ids_by_org[org] ?? [];
  const findings = svc.composed.deps.runtime.state(governanceProjection).findings;
  const projectIds = new Set(mine);
  return {
    project: [...mine],
    draw: Object.values(projects.draws)
      .filter((d) => d.org_id === org)
      .map((d) => d.id),
    document: Object.values(projects.documents)
      .filter((d) => d.org_id === org)
      .map((d) => d.id),
    change_order: Object.values(projects.change_orders)
      .filter((c) => c.org_id === org)
      .map((c) => c.id),
    observation: Object.values(svc.composed.deps.runtime.state(observationsProjection).observations)
      .filter((o) => o.org_id === org)
      .map((o) => o.id),
    finding: Object.values(findings)
      .filter((f) => projectIds.has(f.project_id))
      .map((f) => f.id),
    signer: [...(svc.composed.deps.runtime.state(signersProjection).by_org[org] ?? [])],
    account: [...(svc.composed.deps.runtime.state(accountsProjection).by_org[org] ?? [])],
  };
}

/** A well-formed id of the same shape as `id` (same prefix, fresh 16 base32 characters). */
export function lookalikeId(id: string, salt: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const body = Array.from({ length: 16 }, (_, i) => alphabet[(i * 7 + salt * 13 + 5) % 32]).join('');
  return `${id.slice(0, id.length - 16)}${body}`;
}
