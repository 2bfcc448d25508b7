/**
 * Signals (DOMAIN §5): one observation about an entity, for one factor of one dimension, dated and
 * weighted by recency. Each dimension file turns facts into signals; scoring only ever sees signals,
 * which is what lets credit improvement re-score "without that factor" exactly.
 */
import type { Evidence, FindingRecord } from '../governance/findings.js';
import type { Document, DocumentType, Draw, IsoDate, Project, ProjectsState } from '../projects/facts.js';
import type { EntityFacts } from './inputs.js';
import type { Participation } from './participation.js';
import { DIMENSIONS, RECENCY_HALF_LIFE_DAYS, type Dimension } from './constants.js';
import { daysBetween } from './dates.js';
import { FACTORS, REASON_CODES, type ReasonCode } from './reason-codes.js';

/**
 * The unit of `value`: `share` = adverse share 0–1 (share factors), `points` = penalty points
 * (points factors), `hours` / `recordables` = the two halves of the incident rate.
 */
export type SignalUnit = 'share' | 'points' | 'hours' | 'recordables';

export interface Signal {
  dimension: Dimension;
  /** The factor it feeds (reason-code table). */
  code: ReasonCode;
  value: number;
  unit: SignalUnit;
  /** The day the signal was observed; its age sets its weight. */
  observed_on: IsoDate;
  /** Recency weight 0.5^(age_days / 180); 1 for conditions still true today. */
  weight: number;
  project_id: string | null;
  /** The facts it rests on. */
  evidence: Evidence[];
  /**
   * Who furnished the facts it rests on (an org id, or REGISTRY_FURNISHER for the SAM registry),
   * set by `gatherSignals`; scoring counts distinct furnishers per dimension (OWASP API6).
   */
  furnisher?: string;
}

/** The furnisher of registry signals: the SAM extracts the platform operator imports. */
export const REGISTRY_FURNISHER = 'platform:registry';

/** weight = 0.5^(age_days / RECENCY_HALF_LIFE_DAYS) (DOMAIN §5); a signal dated today weighs 1. */
export function recencyWeight(observedOn: IsoDate, today: IsoDate): number {
  const age = Math.max(0, daysBetween(observedOn, today));
  return 0.5 ** (age / RECENCY_HALF_LIFE_DAYS);
}

/** The day signals are weighed on. */
export interface SignalDay {
  today: IsoDate;
}

/** What a dimension's signal function reads: the day, the facts, and views computed once. */
export interface SignalContext extends SignalDay {
  facts: EntityFacts;
  participation: Participation[];
  /** Projects the entity is GC of. */
  gc: Project[];
  /** Findings attributed to the entity, opened by today. */
  findings: FindingRecord[];
}

export function makeSignal(
  day: SignalDay,
  code: ReasonCode,
  unit: SignalUnit,
  value: number,
  observedOn: IsoDate,
  projectId: string | null,
  evidence: Evidence[],
): Signal {
  return {
    dimension: FACTORS[code].dimension,
    code,
    value,
    unit,
    observed_on: observedOn,
    weight: recencyWeight(observedOn, day.today),
    project_id: projectId,
    evidence,
  };
}

/** The project's documents, via the projection's per-project index. */
export function documentsOf(projects: ProjectsState, projectId: string): Document[];
/**
 * The project's documents of one type, in recording order: through the per-type index when the
 * state has one (only those are read), else by filtering them all.
 */
export function documentsOf<T extends DocumentType>(
  projects: ProjectsState,
  projectId: string,
  type: T,
): Extract<Document, { type: T }>[];
export function documentsOf(projects: ProjectsState, projectId: string, type?: DocumentType): Document[] {
  const index = projects.by_project[projectId];
  if (type !== undefined && index?.document_ids_by_type !== undefined)
    return (index.document_ids_by_type[type] ?? [])
      .map((id) => projects.documents[id])
      .filter((d): d is Document => d?.type === type);
  const all = (index?.document_ids ?? [])
    .map((id) => projects.documents[id])
    .filter((d): d is Document => d !== undefined);
  return type === undefined ? all : all.filter((d) => d.type === type);
}

/** The project's draws in application order. */
export function drawsOf(projects: ProjectsState, projectId: string): Draw[] {
  const ids = projects.by_project[projectId]?.draw_ids ?? [];
  return ids
    .map((id) => projects.draws[id])
    .filter((d): d is Draw => d !== undefined)
    .sort((a, b) => a.application_no - b.application_no || a.recorded_seq - b.recorded_seq);
}

/** Funded draws of a project (status FUNDED with a funding day). */
export function fundedDraws(projects: ProjectsState, project: Project): (Draw & { funded_on: IsoDate })[] {
  return drawsOf(projects, project.id).filter(
    (d): d is Draw & { funded_on: IsoDate } => d.status === 'FUNDED' && d.funded_on !== null,
  );
}

const DIMENSION_ORDER = new Map(DIMENSIONS.map((d, i) => [d, i]));
const CODE_ORDER = new Map(REASON_CODES.map((c, i) => [c, i]));

/** A total order on signals so every output built from them is deterministic. */
export function compareSignals(a: Signal, b: Signal): number {
  return (
    DIMENSION_ORDER.get(a.dimension)! - DIMENSION_ORDER.get(b.dimension)! ||
    CODE_ORDER.get(a.code)! - CODE_ORDER.get(b.code)! ||
    a.observed_on.localeCompare(b.observed_on) ||
    (a.project_id ?? '').localeCompare(b.project_id ?? '') ||
    evidenceKey(a).localeCompare(evidenceKey(b)) ||
    a.value - b.value
  );
}

function evidenceKey(signal: Signal): string {
  return signal.evidence.map((e) => `${e.kind}:${e.id}`).join('|');
}
