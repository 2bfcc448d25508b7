/**
 * Deciding `POST /api/projects/:id/documents`: every reference a document makes — entity, draw,
 * SOV line — must resolve within the same org and project, then the body becomes the fact with
 * absent values as null.
 */
import { idFromUuid } from '../platform/ids.js';
import { isoDate } from '../platform/clock.js';
import { activeKeyOf, signedBy, waiverSha256, waiverSigningDocument } from '../signers/index.js';
import type { RecordDocumentBody, SignDocumentBody } from './contract.js';
import {
  accepted,
  conflict,
  invalid,
  notFound,
  orNull,
  type DecideContext,
  type Decided,
  type Issue,
} from './decision.js';
import { projectsEvent, projectStream, type DistributiveOmit, type DocumentRecordedData } from './events.js';
import { DOCUMENT_ID_PREFIX, type Project, type ProjectsState } from './facts.js';
import { getDocument, getProject } from './queries.js';
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
    return invalid(
      'the document references something this project does not have, or is dated after today',
      issues,
    );

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
  // A document reports what happened: a waiver not yet signed, an inspection not yet made or a
  // date-down not yet run is no evidence, and dated ahead it would satisfy its rule for as long as
  // it liked (an inspection that never goes stale, a date-down that covers every later draw). A
  // certificate may take effect later: a renewal is bound ahead.
  const today = isoDate(ctx.now);
  const happened = (path: (string | number)[], what: string, on: string | null | undefined) => {
    if (on !== null && on !== undefined && on > today)
      issues.push({ path, code: 'out_of_range', message: `${what} ${on} is after today (${today})` });
  };
  switch (body.type) {
    case 'LIEN_WAIVER':
      checkEntity(ctx, issues, ['claimant'], body.claimant);
      drawRef(body.draw_id);
      happened(['signed_on'], 'signed_on', body.signed_on);
      break;
    case 'INSURANCE_CERTIFICATE':
      checkEntity(ctx, issues, ['insured'], body.insured);
      break;
    case 'INSPECTION_REPORT':
      checkEntity(ctx, issues, ['inspector'], body.inspector);
      drawRef(body.draw_id);
      lines(body.lines);
      happened(['inspected_on'], 'inspected_on', body.inspected_on);
      break;
    case 'TITLE_DATE_DOWN':
      happened(['effective_on'], 'effective_on', body.effective_on);
      body.new_liens.forEach((l, i) => {
        checkEntity(ctx, issues, ['new_liens', i, 'claimant'], l.claimant);
        happened(['new_liens', i, 'recorded_on'], 'recorded_on', l.recorded_on);
      });
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

/**
 * `POST /api/documents/:id/signatures` (docs/duties.md): a lien waiver is executed when an
 * enrolled, active signer of its claimant signs its signing bytes; the signature is verified here
 * and recorded with the signer and key. Only lien waivers are signed this way.
 */
export function decideSignDocument(
  state: ProjectsState,
  document_id: string,
  body: SignDocumentBody,
  ctx: DecideContext,
): Decided {
  const document = getDocument(state, ctx.org_id, document_id);
  if (!document) return notFound(`unknown document ${document_id}`);
  if (document.type !== 'LIEN_WAIVER')
    return invalid('only lien waivers are executed by signature', [
      { path: ['document_id'], code: 'not_signable', message: `${document.id} is a ${document.type}` },
    ]);
  const signer = ctx.lookups.signer?.(ctx.org_id, body.signer_id);
  const key = activeKeyOf(signer);
  if (!signer || !key)
    return invalid('the signer is unknown, not enrolled or revoked', [
      { path: ['signer_id'], code: 'signer_not_enrolled', message: `${body.signer_id} has no active key` },
    ]);
  if (signer.entity_id !== document.claimant)
    return invalid('a waiver is executed by a signer of its claimant', [
      {
        path: ['signer_id'],
        code: 'signer_wrong_party',
        message: `${signer.id} signs for ${signer.entity_id ?? 'the lender org'}, not the claimant ${document.claimant}`,
      },
    ]);
  const document_sha256 = waiverSha256(document);
  if ((state.document_signatures?.[document.id] ?? []).some((s) => s.signer_id === signer.id))
    return conflict(`${signer.id} already signed ${document.id}`);
  if (!signedBy(signer, waiverSigningDocument(document), body.signature))
    return invalid('the signature does not verify', [
      {
        path: ['signature'],
        code: 'signature_invalid',
        message: `not ${key.key_id}'s Ed25519 signature over the waiver (sha256 ${document_sha256})`,
      },
    ]);
  return accepted(
    projectsEvent('DocumentSigned', ctx.eventId, projectStream(document.project_id), {
      document_id: document.id,
      project_id: document.project_id,
      signer_id: signer.id,
      key_id: key.key_id,
      signer_name: signer.name,
      document_sha256,
      signature: body.signature,
      signed_on: body.signed_on ?? isoDate(ctx.now),
    }),
    document.id,
  );
}
