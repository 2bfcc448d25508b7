/**
 * The state every governance decider reads (ARCHITECTURE §5): the read models as they stand at the
 * ledger head the command is decided at, plus the credit capability's view of an entity and the
 * rails' facts — both functions of those same read models. The edge builds it *inside* the
 * Ledger's serialized commit (`headOf`), so a decision can never be taken on facts an earlier
 * request left behind; deciders only read it.
 */
import type { GovernanceState } from '../../projections/governance.js';
import { governance } from '../../projections/governance.js';
import { keys } from '../../projections/keys.js';
import { observationsProjection } from '../../projections/observations.js';
import { projectsProjection } from '../../projections/projects.js';
import { registryProjection } from '../../projections/registry.js';
import { isoDate } from '../platform/clock.js';
import { own } from '../platform/records.js';
import type { LedgerHead } from '../platform/ledger/envelope.js';
import type { Service } from '../platform/http/service.js';
import type { Projection } from '../platform/projections/runtime.js';
import type { Draw, Project, ProjectsState } from '../projects/facts.js';
import { getDraw, getProject } from '../projects/queries.js';
import { railFactsFor } from '../rails/rail-facts.js';
import { hasNoEvidence } from '../rails/coverage.js';
import type { RailFacts } from '../rails/rail.js';
import { scanAll } from '../rails/scan-all.js';
import { verifyContractorRegistry } from '../registry/registry-check.js';
import type { RegistryState } from '../registry/state.js';
import { signersProjection, type SignersState } from '../signers/index.js';
import { accountsProjection, revealAccount, vaultDir, type AccountsState } from '../accounts/index.js';
import type { ContractorStanding, Pral } from './compile/evidence.js';
import type { RailPosture } from './rail-posture.js';
import { scanInputFor, type ExclusionRegistry, type ScanInput } from './scan.js';

/** What governance needs from the credit capability about an entity (DOMAIN §4 contractor, §6 PRAL). */
export interface CreditView {
  score(entity_id: string, now: Date): number | null;
  pral(entity_id: string, now: Date): Pral;
}

export interface GovernanceHead {
  /** The ledger position these read models stand at. */
  ledger: LedgerHead;
  projects: ProjectsState;
  governance: GovernanceState;
  registry: RegistryState;
  /** Enrolled signers and their keys (docs/duties.md). */
  signers: SignersState;
  /** Registered bank accounts (masked) and, outside the ledger, the vault that reveals their numbers. */
  accounts: AccountsState;
  revealAccount(account_id: string): string | null;
  credit: CreditView;
  /** The org's rail facts at this head, narrowed to one project unless `project_id` is null. */
  railFacts(org_id: string, project_id: string | null): RailFacts;
  /** The org's display name (the debtor of a payment instruction). */
  orgName(org_id: string): string;
  /** Whether the API key was revoked (its earlier acts, a re-verification say, no longer vouch). */
  keyRevoked(key_id: string): boolean;
}

/**
 * Whether a project's latest recorded scan is BLOCKED: the counterparty rail's "distressed" (DOMAIN
 * §8). Asked per project of the caller's org: listing them all walked every project's latest scan
 * on each governance command that read rail facts (~3.5 ms a command at 1M events, issue 19).
 */
export function isDistressed(state: GovernanceState, project_id: string): boolean {
  const scanId = own(state.latest_scan_by_project, project_id);
  return scanId !== undefined && own(state.scans, scanId)?.scan_verdict === 'BLOCKED';
}

/** Where a head reads the models from: the service's projection runtime, or a generator's folds. */
export interface ReadModels {
  state<S>(projection: Projection<S>): S;
}

/**
 * The read models at the head the Ledger holds; call it only inside `ledger.commit`'s decision.
 * Rail facts are ledger facts only (the read models at `ledger`), never process state.
 */
export function headOf(s: Service, ledger: LedgerHead, credit: CreditView): GovernanceHead {
  return headFrom(s.runtime, ledger, credit, s.dataDir);
}

/**
 * The head over any `ReadModels` that stand at `ledger` (the bench generator decides on its folds);
 * `dataDir` holds the account vault that reveals payee account numbers.
 */
export function headFrom(
  read: ReadModels,
  ledger: LedgerHead,
  credit: CreditView,
  dataDir: string,
): GovernanceHead {
  const projects = read.state(projectsProjection);
  return {
    ledger,
    projects,
    governance: read.state(governance),
    registry: read.state(registryProjection),
    signers: read.state(signersProjection),
    accounts: read.state(accountsProjection),
    revealAccount: (account_id) => revealAccount(vaultDir(dataDir), account_id),
    credit,
    railFacts: (org_id, project_id) =>
      railFactsFor(projects, read.state(observationsProjection), org_id, {
        project_id,
        platform: { ledger_head: ledger },
        isDistressed: (project_id) => isDistressed(read.state(governance), project_id),
      }),
    orgName: (org_id) => read.state(keys).orgs[org_id]?.name ?? org_id,
    keyRevoked: (key_id) => (read.state(keys).keys[key_id]?.revoked_at ?? null) !== null,
  };
}

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

/** One of the caller's projects as every governance decider reads it. */
export interface ProjectContext {
  project: Project;
  input: ScanInput;
  gc_excluded: boolean;
  rails: RailPosture;
}

/** The caller's project at the head, or null (another org's project is exactly an unknown one). */
export function projectAt(
  head: GovernanceHead,
  org_id: string,
  project_id: string,
  now: Date,
): ProjectContext | null {
  const project = getProject(head.projects, org_id, project_id);
  if (!project) return null;
  const registry = exclusionRegistry(head.registry);
  const input = scanInputFor(head.projects, project.id, registry);
  if (!input) return null;
  const all = scanAll(head.railFacts(org_id, project.id), now);
  return {
    project,
    input,
    gc_excluded: registry.isExcluded(project.general_contractor, isoDate(now)),
    rails: {
      composite: all.composite_score,
      critical: all.rails.filter((r) => r.posture === 'CRITICAL').map((r) => r.name),
      no_evidence: all.rails.filter((r) => r.counted && hasNoEvidence(r.coverage)).map((r) => r.name),
    },
  };
}

/** The caller's draw and its project at the head, or null. */
export function drawAt(
  head: GovernanceHead,
  org_id: string,
  draw_id: string,
  now: Date,
): { ctx: ProjectContext; draw: Draw } | null {
  const seen = getDraw(head.projects, org_id, draw_id);
  if (!seen) return null;
  const ctx = projectAt(head, org_id, seen.project_id, now);
  const draw = ctx?.input.draws.find((d) => d.id === seen.id);
  return ctx && draw ? { ctx, draw } : null;
}

/** The GC's standing for the compile DAG's identity and PRAL engines. */
export function contractorStanding(head: GovernanceHead, ctx: ProjectContext, now: Date): ContractorStanding {
  const gc = head.registry.entities[ctx.project.general_contractor];
  const check = gc
    ? verifyContractorRegistry(
        head.registry,
        { legal_name: gc.legal_name, aliases: gc.aliases, uei: gc.uei, cage: gc.cage },
        isoDate(now),
      )
    : null;
  return {
    entity_id: ctx.project.general_contractor,
    registration: check?.registration ?? 'inactive',
    excluded: ctx.gc_excluded,
    pral: head.credit.pral(ctx.project.general_contractor, now),
  };
}
