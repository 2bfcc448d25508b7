/**
 * What every governance route assembles for one of the caller's projects: the scan input (with the
 * registry's exclusion check), the GC's exclusion status, the project's rail composite and the
 * GC's credit score. A project of another org is a 404, exactly like an unknown one.
 */
import { governance, openFindingsOf } from '../../projections/governance.js';
import { projectsProjection } from '../../projections/projects.js';
import { registryProjection } from '../../projections/registry.js';
import { isoDate } from '../platform/clock.js';
import { ProblemError } from '../platform/http/problem.js';
import type { Service } from '../platform/http/service.js';
import { getProject } from '../projects/queries.js';
import type { Project } from '../projects/facts.js';
import { verifyContractorRegistry } from '../registry/registry-check.js';
import type { RegistryState } from '../registry/state.js';
import { orgRailFacts } from '../rails/routes.js';
import { scanAll } from '../rails/scan-all.js';
import type { RailPosture } from './rail-posture.js';
import { assessAdequacy, type Adequacy, type AdequacyInput } from './adequacy.js';
import type { Finding } from './findings.js';
import type { ContractorStanding, Pral } from './compile/evidence.js';
import { scanInputFor, type ExclusionRegistry, type ScanInput } from './scan.js';

export function exclusionRegistry(state: RegistryState): ExclusionRegistry {
  return {
    isExcluded(entity_id, today) {
      const entity = state.entities[entity_id];
      if (!entity) return false;
      return (
        verifyContractorRegistry(
          state,
          { legal_name: entity.legal_name, aliases: entity.aliases, uei: entity.uei, cage: entity.cage },
          today,
        ).exclusions === 'excluded'
      );
    },
  };
}

export interface ProjectContext {
  project: Project;
  input: ScanInput;
  gc_excluded: boolean;
  rails: RailPosture;
}

export async function projectContext(
  s: Service,
  org_id: string,
  project_id: string,
): Promise<ProjectContext> {
  const projects = s.runtime.state(projectsProjection);
  const project = getProject(projects, org_id, project_id);
  if (!project) throw new ProblemError('NOT_FOUND', `no project ${project_id}`);
  const now = s.clock.now();
  const registry = exclusionRegistry(s.runtime.state(registryProjection));
  const input = scanInputFor(projects, project.id, registry);
  if (!input) throw new ProblemError('NOT_FOUND', `no project ${project_id}`);
  const { facts } = await orgRailFacts(s, org_id, project.id);
  const all = scanAll(facts, now);
  return {
    project,
    input,
    gc_excluded: registry.isExcluded(project.general_contractor, isoDate(now)),
    rails: {
      composite: all.composite_score,
      critical: all.rails.filter((r) => r.posture === 'CRITICAL').map((r) => r.name),
    },
  };
}

/** DOMAIN §4 adequacy of a project now, from its open findings. */
export function adequacyOf(
  s: Service,
  ctx: ProjectContext,
  credit: CreditView,
  findings: readonly Finding[] = openFindingsOf(s.runtime.state(governance), ctx.project.id),
): Adequacy {
  const now = s.clock.now();
  const input: AdequacyInput = {
    project: ctx.project,
    draws: ctx.input.draws,
    change_orders: ctx.input.change_orders,
    findings: [...findings],
    contractor_score: credit.score(ctx.project.general_contractor, now),
    gc_excluded: ctx.gc_excluded,
    rail_composite: ctx.rails.composite,
  };
  return assessAdequacy(input, now);
}

/** What governance needs from the credit capability about an entity (DOMAIN §4 contractor, §6 PRAL). */
export interface CreditView {
  score(entity_id: string, now: Date): number | null;
  pral(entity_id: string, now: Date): Pral;
}

/** The GC's standing for the compile DAG's identity and PRAL engines. */
export function contractorStanding(s: Service, ctx: ProjectContext, credit: CreditView): ContractorStanding {
  const now = s.clock.now();
  const state = s.runtime.state(registryProjection);
  const gc = state.entities[ctx.project.general_contractor];
  const check = gc
    ? verifyContractorRegistry(
        state,
        { legal_name: gc.legal_name, aliases: gc.aliases, uei: gc.uei, cage: gc.cage },
        isoDate(now),
      )
    : null;
  return {
    entity_id: ctx.project.general_contractor,
    registration: check?.registration ?? 'inactive',
    excluded: ctx.gc_excluded,
    pral: credit.pral(ctx.project.general_contractor, now),
  };
}
