/**
 * Fixed builders for credit tests: a tiny world of projects, draws, documents, observations and
 * findings with a pinned clock. Every date is explicit; nothing reads the wall clock.
 */
import type { FindingRecord } from '../../../src/governance/findings.js';
import { deriveDrawLines, retainageOn, summarize } from '../../../src/projects/pay-application.js';
import type {
  Document,
  Draw,
  IsoDate,
  Observation,
  ObservationsState,
  Project,
  ProjectsState,
  Recorded,
} from '../../../src/projects/facts.js';
import {
  scoreEntity,
  type Dimension,
  type DimensionScore,
  type EntityFacts,
  type RegistryStatus,
} from '../../../src/credit/index.js';

export const NOW = new Date('2026-06-01T12:00:00.000Z');
export const TODAY = '2026-06-01';

export const GC = 'ent_gc00000000000001';
export const SUB = 'ent_sub0000000000001';
export const OWNER = 'ent_owner00000000001';
export const ORG = 'org_lender_a';

let seq = 0;
function recorded(org = ORG): Recorded {
  seq += 1;
  return { org_id: org, recorded_at: '2025-01-01T00:00:00.000Z', recorded_seq: seq };
}

export function cleanRegistry(overrides: Partial<RegistryStatus> = {}): RegistryStatus {
  return {
    registration: 'active',
    exclusions: 'clear',
    exclusion_active_since: null,
    exclusion_terminated_on: null,
    checked_at: '2026-06-01T12:00:00.000Z',
    source: { kind: 'sam_extract', file: 'SAM_Exclusions_Public_Extract_20049.zip', as_of: '2026-05-31' },
    ...overrides,
  };
}

export function makeProject(id: string, overrides: Partial<Project> = {}): Project {
  return {
    ...recorded(),
    id,
    name: `Project ${id}`,
    profile: 'construction',
    borrower: OWNER,
    general_contractor: GC,
    architect: null,
    inspector: null,
    jurisdiction: 'TX',
    loan_amount: 10_000_000_00,
    equity: 2_000_000_00,
    contract_sum: 1_000_000_00,
    contingency: 0,
    retainage_pct: 10,
    interest_rate_pct: 8,
    start_date: '2025-06-01',
    completion_date: '2026-12-01',
    maturity_date: '2027-06-01',
    sov: [
      {
        line: 1,
        description: 'Sitework',
        scheduled_value: 500_000_00,
        trade: 'sitework',
        subcontractor: null,
      },
      { line: 2, description: 'Framing', scheduled_value: 500_000_00, trade: 'framing', subcontractor: SUB },
    ],
    required_coverages: [],
    milestones: [],
    registered_at: '2025-05-20T00:00:00.000Z',
    registered_seq: 1,
    last_fact_seq: 1,
    ...overrides,
  };
}

export interface DrawSpec {
  id: string;
  application_no: number;
  period_to: IsoDate;
  submitted_on?: IsoDate;
  /** Per SOV line: work to date (D+E) in cents; lines not named are 0. */
  completed?: Record<number, number>;
  /** Per SOV line: this period's work (E); defaults to all of `completed`. */
  this_period?: Record<number, number>;
  status?: Draw['status'];
  funded_on?: IsoDate | null;
  funded_amount?: number | null;
  invoices?: string[];
}

/** A draw with its G702/G703 columns derived by the projects capability's own arithmetic. */
export function makeDraw(project: Project, spec: DrawSpec): Draw {
  const stated = project.sov.map((l) => {
    const completed = spec.completed?.[l.line] ?? 0;
    const thisPeriod = spec.this_period?.[l.line] ?? completed;
    return { line: l.line, previous: completed - thisPeriod, this_period: thisPeriod, stored_materials: 0 };
  });
  const lines = deriveDrawLines(project.sov, new Map(), stated, project.retainage_pct);
  const retainage = retainageOn(
    lines.reduce((s, l) => s + l.completed_and_stored, 0),
    project.retainage_pct,
  );
  const summary = summarize(lines, retainage, 0);
  return {
    ...recorded(),
    id: spec.id,
    project_id: project.id,
    application_no: spec.application_no,
    period_from: spec.period_to,
    period_to: spec.period_to,
    submitted_on: spec.submitted_on ?? spec.period_to,
    lines,
    retainage_pct: project.retainage_pct,
    retainage_withheld: retainage,
    retainage_expected: retainage,
    previous_certificates_total: 0,
    previous_funded_total: 0,
    requested_amount: summary.current_payment_due,
    invoices: spec.invoices ?? [],
    summary,
    signatures: [],
    status: spec.status ?? (spec.funded_on ? 'FUNDED' : 'SUBMITTED'),
    compiled_seq: null,
    funded_on: spec.funded_on ?? null,
    funded_amount: spec.funded_amount ?? (spec.funded_on ? summary.current_payment_due : null),
    payment_id: null,
    payment_rail: null,
    last_fact_seq: 1,
  };
}

/** A mutable little world; `facts(entity)` hands the credit core a read-only view of it. */
export class World {
  readonly projects: ProjectsState = {
    projects: {},
    change_orders: {},
    documents: {},
    draws: {},
    resolutions: {},
    by_project: {},
    project_ids_by_org: {},
    resolution_ids_by_org: {},
  };
  readonly observations: ObservationsState = { observations: {}, by_org: {}, by_project: {}, by_entity: {} };
  findings: FindingRecord[] = [];
  registry: RegistryStatus = cleanRegistry();

  project(id: string, overrides: Partial<Project> = {}): Project {
    const p = makeProject(id, overrides);
    this.projects.projects[id] = p;
    this.projects.by_project[id] = { change_order_ids: [], document_ids: [], draw_ids: [] };
    return p;
  }

  draw(project: Project, spec: DrawSpec): Draw {
    const d = makeDraw(project, spec);
    this.projects.draws[d.id] = d;
    this.projects.by_project[project.id]!.draw_ids.push(d.id);
    return d;
  }

  /** Adds a document; pass the type-specific fields, the base fields are filled in. */
  document<D extends Document>(doc: Omit<D, keyof Recorded>): D {
    const full = { ...recorded(), ...doc } as D;
    this.projects.documents[full.id] = full;
    this.projects.by_project[full.project_id]!.document_ids.push(full.id);
    return full;
  }

  observe<O extends Observation>(obs: Omit<O, keyof Recorded>): O {
    const full = { ...recorded(), ...obs } as O;
    this.observations.observations[full.id] = full;
    // Keep the indexes the projection keeps (projections/observations.ts): the credit core reads them.
    const o = this.observations;
    (o.by_org[full.org_id] ??= []).push(full.id);
    if (full.project_id !== null) (o.by_project[full.project_id] ??= []).push(full.id);
    if (full.entity_id !== null) (o.by_entity[full.entity_id] ??= []).push(full.id);
    return full;
  }

  finding(overrides: Partial<FindingRecord> & Pick<FindingRecord, 'id' | 'opened_on'>): FindingRecord {
    const f: FindingRecord = {
      code: 'CONTRACT_SUM_MISMATCH',
      category: 'contradiction',
      severity: 'WARNING',
      project_id: 'prj_a',
      draw_id: null,
      entity_id: GC,
      title: 'finding',
      detail: 'detail',
      evidence: [],
      detected_on: overrides.opened_on,
      arose_on: overrides.opened_on,
      curable_by_documents: true,
      org_id: ORG,
      status: overrides.resolved_on ? 'RESOLVED' : 'OPEN',
      opened_seq: 1,
      resolved_on: null,
      resolved_seq: null,
      resolved_by: null,
      last_scan_id: 'SCN-x',
      ...overrides,
    };
    this.findings.push(f);
    return f;
  }

  facts(entity_id = GC): EntityFacts {
    return {
      entity_id,
      projects: this.projects,
      observations: this.observations,
      findings: this.findings,
      registry: this.registry,
    };
  }
}

/** An unconditional progress waiver from `claimant` for a draw. */
export function waiver(
  id: string,
  project: Project,
  draw: Draw,
  claimant: string,
  signed_on: IsoDate | null,
  amount = draw.funded_amount ?? 0,
): Omit<Document & { type: 'LIEN_WAIVER' }, keyof Recorded> {
  return {
    id,
    project_id: project.id,
    type: 'LIEN_WAIVER',
    claimant,
    draw_id: draw.id,
    waiver_type: 'UNCONDITIONAL_PROGRESS',
    amount,
    through_date: draw.period_to,
    signed_on,
    executed: signed_on !== null,
    exceptions: [],
  };
}

/** One dimension of the entity's score in the world, as of NOW. */
export function dimension(world: World, d: Dimension, entity = GC): DimensionScore {
  return scoreEntity(world.facts(entity), NOW).dimensions[d];
}

/**
 * Funded draws of `completed` cents on line 1, one per funding day, each with an unconditional
 * waiver from the GC signed on `signed_on` for the amount paid.
 */
export function fundedWithWaivers(
  world: World,
  project: Project,
  fundedOn: readonly IsoDate[],
  signedOn: IsoDate,
  completed = 100_000_00,
  periodTo: IsoDate = '2026-04-20',
): Draw[] {
  return fundedOn.map((funded) => {
    const n = world.projects.by_project[project.id]!.draw_ids.length + 1;
    const d = world.draw(project, {
      id: `DRW-${n}`,
      application_no: n,
      period_to: periodTo,
      completed: { 1: completed },
      funded_on: funded,
    });
    world.document(waiver(`WAIV-${n}`, project, d, GC, signedOn));
    return d;
  });
}
