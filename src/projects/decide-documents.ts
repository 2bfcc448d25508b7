/**
 * Deciding `POST /api/projects/:id/documents`: every reference a document makes — entity, draw,
 * SOV line — must resolve within the same org and project, then the body becomes the fact with
 * absent values as null.
 */
import { idFromUuid } from '../platform/ids.js';
import type { RecordDocumentBody } from './contract.js';
import {
  accepted,
  invalid,
  notFound,
  orNull,
  type DecideContext,
  type Decided,
  type Issue,
} from './decision.js';
import { projectsEvent, projectStream, type DistributiveOmit, type DocumentRecordedData } from './events.js';
import { DOCUMENT_ID_PREFIX, type Project, type ProjectsState } from './facts.js';
import { getProject } from './queries.js';
import { checkDrawRef, checkEntity, checkSovLine } from './references.js';

export function decideRecordDocument(
  state: ProjectsState,
  project_id: string,
  body: RecordDocumentBody,
  ctx: DecideContext,
): Decided {
  const project = getProject(state, ctx.org_id, project_id);
  if (!project) return notFound(`unknown project ${project_id}`);
  const issues = documentIssues(state, project, body, ctx);
  if (issues.length > 0)
    return invalid('the document references something this project does not have', issues);

  const document_id = idFromUuid(DOCUMENT_ID_PREFIX[body.type], ctx.eventId);
  const data: DocumentRecordedData = { document_id, project_id: project.id, ...documentFields(body) };
  return accepted(
    projectsEvent('DocumentRecorded', ctx.eventId, projectStream(project.id), data),
    document_id,
  );
}

function documentIssues(
  state: ProjectsState,
  project: Project,
  body: RecordDocumentBody,
  ctx: DecideContext,
): Issue[] {
  const issues: Issue[] = [];
  const drawRef = (id: string | undefined) => checkDrawRef(state, project, issues, ['draw_id'], id);
  const lines = (ls: readonly { line: number }[]) =>
    ls.forEach((l, i) => checkSovLine(project, issues, ['lines', i, 'line'], l.line));
  switch (body.type) {
    case 'LIEN_WAIVER':
      checkEntity(ctx, issues, ['claimant'], body.claimant);
      drawRef(body.draw_id);
      break;
    case 'INSURANCE_CERTIFICATE':
      checkEntity(ctx, issues, ['insured'], body.insured);
      break;
    case 'INSPECTION_REPORT':
      checkEntity(ctx, issues, ['inspector'], body.inspector);
      drawRef(body.draw_id);
      lines(body.lines);
      break;
    case 'TITLE_DATE_DOWN':
      body.new_liens.forEach((l, i) => checkEntity(ctx, issues, ['new_liens', i, 'claimant'], l.claimant));
      break;
    case 'INVOICE':
      checkEntity(ctx, issues, ['vendor'], body.vendor);
      drawRef(body.draw_id);
      checkSovLine(project, issues, ['line'], body.line);
      break;
    case 'BILL_OF_SALE':
      checkEntity(ctx, issues, ['vendor'], body.vendor);
      drawRef(body.draw_id);
      lines(body.lines);
      break;
    default: {
      const unreachable: never = body;
      return unreachable;
    }
  }
  return issues;
}

type DocumentFields = DistributiveOmit<DocumentRecordedData, 'document_id' | 'project_id'>;

/** The body as the fact states it: optional fields become null, optional lists empty. */
function documentFields(body: RecordDocumentBody): DocumentFields {
  switch (body.type) {
    case 'LIEN_WAIVER':
      return {
        ...body,
        signed_on: orNull(body.signed_on),
        exceptions: (body.exceptions ?? []).map((e) => ({
          description: e.description,
          amount: orNull(e.amount),
        })),
      };
    case 'INSURANCE_CERTIFICATE':
      return { ...body };
    case 'INSPECTION_REPORT':
      return { ...body, draw_id: orNull(body.draw_id) };
    case 'TITLE_DATE_DOWN':
      return { ...body, new_liens: body.new_liens.map((l) => ({ ...l, claimant: orNull(l.claimant) })) };
    case 'INVOICE':
      return { ...body, draw_id: orNull(body.draw_id) };
    case 'BILL_OF_SALE':
      return { ...body, vendor: orNull(body.vendor), draw_id: orNull(body.draw_id) };
    default: {
      const unreachable: never = body;
      return unreachable;
    }
  }
}
