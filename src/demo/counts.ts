/**
 * What a seeded ledger holds, read back from the read models (not from the plan), so the numbers
 * the CLI prints are the facts the service actually recorded.
 */
import { keys as keysProjection } from '../../projections/keys.js';
import { observationsProjection } from '../../projections/observations.js';
import { projectsProjection } from '../../projections/projects.js';
import { registryProjection } from '../../projections/registry.js';
import type { ProjectionRuntime } from '../platform/projections/runtime.js';
import type { Phase } from './steps.js';

export interface DemoCounts {
  events: number;
  lenders: number;
  keys: number;
  entities: number;
  projects: number;
  projects_by_profile: Record<string, number>;
  draws: number;
  draws_by_status: Record<string, number>;
  change_orders: number;
  documents_by_type: Record<string, number>;
  signatures: number;
  observations_by_kind: Record<string, number>;
  finding_resolutions: number;
  /** Steps in the plan, and those not sent (phases left out of the run), by phase. */
  planned_steps: number;
  deferred_steps: Record<Phase, number>;
}

function tally<T>(items: Iterable<T>, key: (item: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

export function countDataset(
  runtime: ProjectionRuntime,
  events: number,
  planned: number,
  deferred: Record<Phase, number>,
): DemoCounts {
  const projects = runtime.state(projectsProjection);
  const keys = runtime.state(keysProjection);
  const draws = Object.values(projects.draws);
  return {
    events,
    // Every org but the platform operator is a lender.
    lenders: Object.values(keys.orgs).filter((o) => o.org_id !== keys.operator_org_id).length,
    keys: Object.keys(keys.keys).length,
    entities: Object.keys(runtime.state(registryProjection).entities).length,
    projects: Object.keys(projects.projects).length,
    projects_by_profile: tally(Object.values(projects.projects), (p) => p.profile),
    draws: draws.length,
    draws_by_status: tally(draws, (d) => d.status),
    change_orders: Object.keys(projects.change_orders).length,
    documents_by_type: tally(Object.values(projects.documents), (d) => d.type),
    signatures: draws.reduce((n, d) => n + d.signatures.length, 0),
    observations_by_kind: tally(
      Object.values(runtime.state(observationsProjection).observations),
      (o) => o.kind,
    ),
    finding_resolutions: Object.keys(projects.resolutions).length,
    planned_steps: planned,
    deferred_steps: deferred,
  };
}
