/**
 * Referential checks shared by the deciders. Each appends an issue naming the offending path and
 * returns nothing, so one request reports every broken reference at once. Another org's draw or
 * document is reported exactly like an unknown one: existence never leaks across orgs.
 */
import { isoDate } from '../platform/clock.js';
import type { DecideContext, Issue } from './decision.js';
import type { DocumentType, Project, ProjectsState } from './facts.js';

type Path = (string | number)[];

export function checkEntity(ctx: DecideContext, issues: Issue[], path: Path, id: string | undefined): void {
  if (id !== undefined && !ctx.lookups.entityExists(id)) {
    issues.push({ path, code: 'unknown_entity', message: `unknown entity ${id}` });
  }
}

export function checkSovLine(project: Project, issues: Issue[], path: Path, line: number): void {
  if (!project.sov.some((l) => l.line === line)) {
    issues.push({ path, code: 'unknown_sov_line', message: `project ${project.id} has no SOV line ${line}` });
  }
}

/**
 * A date that says when something happened (signed, approved, executed, started) must not lie
 * after today, the UTC calendar day of `ctx.now`: a day that has not come yet is no evidence, and
 * the rules that read such a date would judge against a day the caller chose.
 */
export function checkHappened(ctx: DecideContext, issues: Issue[], path: Path, on: string | undefined): void {
  const today = isoDate(ctx.now);
  if (on !== undefined && on > today) {
    const field = String(path[path.length - 1]);
    issues.push({ path, code: 'out_of_range', message: `${field} ${on} is after today (${today})` });
  }
}

/** The draw must be one of this project's (same org, same project). */
export function checkDrawRef(
  state: ProjectsState,
  project: Project,
  issues: Issue[],
  path: Path,
  drawId: string | undefined,
): void {
  if (drawId === undefined) return;
  const draw = state.draws[drawId];
  if (!draw || draw.org_id !== project.org_id) {
    issues.push({ path, code: 'unknown_draw', message: `unknown draw ${drawId}` });
  } else if (draw.project_id !== project.id) {
    issues.push({ path, code: 'foreign_draw', message: `draw ${drawId} belongs to another project` });
  }
}

/** The document must be one of this project's, of the expected type. */
export function checkDocumentRef(
  state: ProjectsState,
  project: Project,
  issues: Issue[],
  path: Path,
  documentId: string,
  type: DocumentType,
): void {
  const doc = state.documents[documentId];
  if (!doc || doc.org_id !== project.org_id) {
    issues.push({ path, code: 'unknown_document', message: `unknown document ${documentId}` });
  } else if (doc.project_id !== project.id) {
    issues.push({
      path,
      code: 'foreign_document',
      message: `document ${documentId} belongs to another project`,
    });
  } else if (doc.type !== type) {
    issues.push({ path, code: 'wrong_document_type', message: `document ${documentId} is not an ${type}` });
  }
}
