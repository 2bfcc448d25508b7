/**
 * The facts one project scan reads (DOMAIN §2–§3) and the ways rules walk them: the draws that
 * count, the funded draw before a draw, the inspections that belong to a draw. Built from the
 * `projects` read model by `scanInputFor`; engines never see the whole read model.
 */
import type {
  ChangeOrder,
  Document,
  DocumentType,
  Draw,
  FindingResolution,
  InspectionReport,
  IsoDate,
  Project,
  ProjectsState,
  Recorded,
} from '../projects/facts.js';
import type { Evidence, Finding, FindingDraft } from './findings.js';
import { toFinding } from './findings.js';
import { isoDate } from '../platform/clock.js';

/** The registry capability's exclusion check, handed in at call time. */
export interface ExclusionRegistry {
  isExcluded(entity_id: string, today: IsoDate): boolean;
}

export interface ScanInput {
  project: Project;
  change_orders: ChangeOrder[];
  documents: Document[];
  /** Every draw of the project, any status, in recording order. */
  draws: Draw[];
  /** Explicit resolutions of the project's org, by finding id. */
  resolutions: Record<string, FindingResolution>;
  /**
   * Not read by any §2/§3 rule (neither table has an exclusion code); carried for the compile
   * DAG's `identity_registry` engine and §4 compliance, which take the same input.
   */
  registry?: ExclusionRegistry;
}

/** A §2 contradiction type or §3 temporal rule: pure, `now` is the only notion of time. */
export type ScanEngine = (input: ScanInput, now: Date) => Finding[];

/** The scan input of one project, or null when the project is unknown. */
export function scanInputFor(
  state: ProjectsState,
  project_id: string,
  registry?: ExclusionRegistry,
): ScanInput | null {
  const project = state.projects[project_id];
  if (project === undefined) return null;
  const index = state.by_project[project_id];
  const pick = <T>(ids: readonly string[] | undefined, table: Record<string, T>): T[] =>
    (ids ?? []).map((id) => table[id]).filter((x): x is T => x !== undefined);
  const resolutions: Record<string, FindingResolution> = {};
  for (const r of pick(state.resolution_ids_by_org[project.org_id], state.resolutions)) {
    // Resolutions are stored by finding id; only this org's can resolve this project's findings.
    if (r.org_id === project.org_id) resolutions[r.finding_id] = r;
  }
  const input: ScanInput = {
    project,
    change_orders: pick(index?.change_order_ids, state.change_orders),
    documents: pick(index?.document_ids, state.documents),
    draws: pick(index?.draw_ids, state.draws),
    resolutions,
  };
  if (registry !== undefined) input.registry = registry;
  return input;
}

/** Turns an engine's drafts into findings of the scanned project, detected on `now`'s date. */
export function findingsOf(input: ScanInput, now: Date, drafts: readonly (FindingDraft | null)[]): Finding[] {
  const today = isoDate(now);
  return drafts
    .filter((d): d is FindingDraft => d !== null)
    .map((d) => toFinding(input.project.id, today, d, evidenceDate(input, d.evidence)));
}

/** The day the newest fact among `evidence` was recorded (the condition cannot predate it); null if none is known. */
export function evidenceDate(input: ScanInput, evidence: readonly Evidence[]): IsoDate | null {
  const facts: Recorded[] = [input.project, ...input.draws, ...input.documents, ...input.change_orders];
  const byId = new Map(facts.map((f) => [(f as Recorded & { id: string }).id, f]));
  const dates = evidence
    .map((e) => byId.get(e.id)?.recorded_at.slice(0, 10))
    .filter((d): d is string => d !== undefined);
  return dates.length === 0 ? null : dates.reduce((a, b) => (a > b ? a : b));
}

/**
 * The draws that make up the pay history, in recording order. A REJECTED draw left the history
 * (it was never paid and its successor replaces it), so no rule examines it or counts it.
 */
export function activeDraws(input: ScanInput): Draw[] {
  return input.draws.filter((d) => d.status !== 'REJECTED').sort((a, b) => a.recorded_seq - b.recorded_seq);
}

/** Draws still under review (SUBMITTED or COMPILED): the only ones `now`-based freshness rules examine. */
export function pendingDraws(input: ScanInput): Draw[] {
  return activeDraws(input).filter((d) => d.status === 'SUBMITTED' || d.status === 'COMPILED');
}

/** Active draws recorded before `draw`, oldest first. */
export function drawsBefore(input: ScanInput, draw: Draw): Draw[] {
  return activeDraws(input).filter((d) => d.recorded_seq < draw.recorded_seq);
}

/** The latest FUNDED draw recorded before `draw` ("the previous funded draw", DOMAIN §2), if any. */
export function previousFundedDraw(input: ScanInput, draw: Draw): Draw | undefined {
  return drawsBefore(input, draw)
    .filter((d) => d.status === 'FUNDED')
    .at(-1);
}

/** The project's documents of one type, in recording order. */
export function documentsOfType<T extends DocumentType>(
  input: ScanInput,
  type: T,
): Extract<Document, { type: T }>[] {
  return input.documents
    .filter((d): d is Extract<Document, { type: T }> => d.type === type)
    .sort((a, b) => a.recorded_seq - b.recorded_seq);
}

/**
 * The inspections that belong to `draw`: reports naming it, and site reports (no draw) inspected
 * on or after its period end but before the next active draw's period end — a site inspection
 * speaks for the latest period it follows. Latest first (inspected_on, then recording order).
 */
export function inspectionsOf(input: ScanInput, draw: Draw): InspectionReport[] {
  const active = activeDraws(input);
  const next = active[active.findIndex((d) => d.id === draw.id) + 1];
  return documentsOfType(input, 'INSPECTION_REPORT')
    .filter(
      (r) =>
        r.draw_id === draw.id ||
        (r.draw_id === null &&
          r.inspected_on >= draw.period_to &&
          (next === undefined || r.inspected_on < next.period_to)),
    )
    .sort((a, b) =>
      a.inspected_on === b.inspected_on
        ? b.recorded_seq - a.recorded_seq
        : b.inspected_on.localeCompare(a.inspected_on),
    );
}

/** Σ column G ≥ `pct` % of Σ column C (contract sum to date), in exact integer arithmetic. */
export function isCompleteAtLeast(draw: Draw, pct: number): boolean {
  return draw.summary.total_completed_and_stored * 100 >= pct * draw.summary.contract_sum_to_date;
}

export const drawEvidence = (draw: Draw) => ({ kind: 'draw', id: draw.id });
export const documentEvidence = (doc: Document) => ({ kind: 'document', id: doc.id });
export const lineEvidence = (line: number) => ({ kind: 'sov_line', id: String(line) });
export const projectEvidence = (project: Project) => ({ kind: 'project', id: project.id });
