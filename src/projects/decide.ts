/**
 * The projects deciders (ARCHITECTURE §5): pure functions of projected state, a zod-parsed
 * command and its context. They check what the body cannot check about itself — references to
 * projects, SOV lines, draws, documents, entities and chain roles — and return the one event to
 * append or a rejection (SPEC §2 codes). No I/O, no clock: `ctx.now` is the only time.
 */
import { isoDate } from '../platform/clock.js';
import { idFromUuid } from '../platform/ids.js';
import type {
  RecordChangeOrderBody,
  RecordDocumentBody,
  RecordObservationBody,
  RegisterProjectBody,
  ResolveFindingBody,
  SignDocumentBody,
  SignDrawBody,
  SubmitDrawBody,
} from './contract.js';
import { decideRecordDocument, decideSignDocument } from './decide-documents.js';
import { decideSignDraw, decideSubmitDraw } from './decide-draws.js';
import { decideRecordObservation } from './decide-observations.js';
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
import { resolutionCovers } from '../governance/findings.js';
import { findingStream, projectsEvent, projectStream } from './events.js';
import type { ProjectsState } from './facts.js';
import { DEFAULT_PROFILE } from './profiles.js';
import { getDocument, getProject } from './queries.js';
import { checkEntity, checkHappened, checkSovLine } from './references.js';
import { checkChangeOrderBounds } from './change-order-bounds.js';

export * from './decision.js';
export {
  decideRecordDocument,
  decideRecordObservation,
  decideSignDocument,
  decideSignDraw,
  decideSubmitDraw,
};

/** Every ingestion command; path ids arrive as fields beside the parsed body. */
export type ProjectsCommand =
  | { type: 'RegisterProject'; body: RegisterProjectBody }
  | { type: 'RecordChangeOrder'; project_id: string; body: RecordChangeOrderBody }
  | { type: 'RecordDocument'; project_id: string; body: RecordDocumentBody }
  | { type: 'SubmitDraw'; project_id: string; body: SubmitDrawBody }
  | { type: 'SignDraw'; draw_id: string; body: SignDrawBody }
  | { type: 'SignDocument'; document_id: string; body: SignDocumentBody }
  | { type: 'RecordObservation'; body: RecordObservationBody }
  | { type: 'ResolveFinding'; finding_id: string; body: ResolveFindingBody };

export function decide(state: ProjectsState, command: ProjectsCommand, ctx: DecideContext): Decided {
  switch (command.type) {
    case 'RegisterProject':
      return decideRegisterProject(state, command.body, ctx);
    case 'RecordChangeOrder':
      return decideRecordChangeOrder(state, command.project_id, command.body, ctx);
    case 'RecordDocument':
      return decideRecordDocument(state, command.project_id, command.body, ctx);
    case 'SubmitDraw':
      return decideSubmitDraw(state, command.project_id, command.body, ctx);
    case 'SignDraw':
      return decideSignDraw(state, command.draw_id, command.body, ctx);
    case 'SignDocument':
      return decideSignDocument(state, command.document_id, command.body, ctx);
    case 'RecordObservation':
      return decideRecordObservation(state, command.body, ctx);
    case 'ResolveFinding':
      return decideResolveFinding(state, command.finding_id, command.body, ctx);
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/** Same name (trimmed, case-folded) within one org is a duplicate registration (SPEC §2 409). */
const sameName = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

export function decideRegisterProject(
  state: ProjectsState,
  body: RegisterProjectBody,
  ctx: DecideContext,
): Decided {
  const issues: Issue[] = [];
  checkEntity(ctx, issues, ['borrower'], body.borrower);
  checkEntity(ctx, issues, ['general_contractor'], body.general_contractor);
  checkEntity(ctx, issues, ['architect'], body.architect);
  checkEntity(ctx, issues, ['inspector'], body.inspector);
  body.sov.forEach((l, i) => checkEntity(ctx, issues, ['sov', i, 'subcontractor'], l.subcontractor));
  // A milestone registered as reached ahead never slipped (SCHEDULE_SLIPPAGE, the GC's
  // schedule_performance), as one observed so (decideRecordObservation). Start, completion,
  // maturity and due dates are the schedule: they may lie ahead.
  (body.milestones ?? []).forEach((m, i) =>
    checkHappened(ctx, issues, ['milestones', i, 'completed_on'], m.completed_on),
  );
  if (issues.length > 0)
    return invalid('the project names unknown entities, or a milestone reached after today', issues);

  const taken = (state.project_ids_by_org[ctx.org_id] ?? []).some((id) => {
    const p = state.projects[id];
    return p !== undefined && sameName(p.name, body.name);
  });
  if (taken) return conflict(`a project named "${body.name}" is already registered`);

  const project_id = idFromUuid('prj_', ctx.eventId);
  const event = projectsEvent('ProjectRegistered', ctx.eventId, projectStream(project_id), {
    project_id,
    name: body.name,
    profile: body.profile ?? DEFAULT_PROFILE,
    borrower: body.borrower,
    general_contractor: body.general_contractor,
    architect: orNull(body.architect),
    inspector: orNull(body.inspector),
    jurisdiction: body.jurisdiction,
    loan_amount: body.loan_amount,
    equity: body.equity,
    contract_sum: body.contract_sum,
    contingency: body.contingency ?? 0,
    retainage_pct: body.retainage_pct,
    interest_rate_pct: body.interest_rate_pct,
    start_date: body.start_date,
    completion_date: body.completion_date,
    maturity_date: body.maturity_date,
    sov: body.sov.map((l) => ({ ...l, subcontractor: orNull(l.subcontractor) })),
    required_coverages: body.required_coverages.map((c) => ({ type: c.type, min_limit: c.min_limit })),
    milestones: (body.milestones ?? []).map((m) => ({ ...m, completed_on: orNull(m.completed_on) })),
  });
  return accepted(event, project_id);
}

export function decideRecordChangeOrder(
  state: ProjectsState,
  project_id: string,
  body: RecordChangeOrderBody,
  ctx: DecideContext,
): Decided {
  const project = getProject(state, ctx.org_id, project_id);
  if (!project) return notFound(`unknown project ${project_id}`);
  const issues: Issue[] = [];
  body.lines.forEach((l, i) => checkSovLine(project, issues, ['lines', i, 'line'], l.line));
  // Execution and lender approval report steps that happened. Executed ahead, the change order
  // joined the contract (column C, CONTRACT_SUM_MISMATCH, adequacy) on a day the lender chose with
  // no fact recorded then, and stayed out of MARKET_CO_VELOCITY's window until that day; an
  // approval not yet given is none. work_started_on may be the scheduled start: a change order is
  // executed before its work starts, and CHANGE_ORDER_PRECEDENCE waits for that day.
  checkHappened(ctx, issues, ['executed_on'], body.executed_on);
  checkHappened(ctx, issues, ['lender_approved_on'], body.lender_approved_on);
  const recorded = (state.by_project[project.id]?.change_order_ids ?? []).flatMap(
    (id) => state.change_orders[id] ?? [],
  );
  checkChangeOrderBounds(project, recorded, body, issues);
  if (issues.length > 0)
    return invalid(
      'the change order names unknown SOV lines, is dated after today, or takes a figure below zero or past 2^53 − 1 cents',
      issues,
    );

  const numbers = (state.by_project[project.id]?.change_order_ids ?? []).map(
    (id) => state.change_orders[id]?.number,
  );
  if (numbers.includes(body.number)) return conflict(`change order ${body.number} is already recorded`);

  const change_order_id = idFromUuid('CO-', ctx.eventId);
  const event = projectsEvent('ChangeOrderRecorded', ctx.eventId, projectStream(project.id), {
    change_order_id,
    project_id: project.id,
    number: body.number,
    amount: body.amount,
    lines: body.lines.map((l) => ({ line: l.line, delta: l.delta })),
    description: body.description,
    executed_on: orNull(body.executed_on),
    lender_approved_on: orNull(body.lender_approved_on),
    work_started_on: orNull(body.work_started_on),
  });
  return accepted(event, change_order_id);
}

export function decideResolveFinding(
  state: ProjectsState,
  finding_id: string,
  body: ResolveFindingBody,
  ctx: DecideContext,
): Decided {
  // Only a finding governance found on one of the caller's own projects can be resolved; any other
  // id (unknown or another org's) answers exactly alike, and never claims the id for the caller.
  const finding = ctx.lookups.findingAt(ctx.org_id, finding_id);
  if (finding === undefined) return notFound(`unknown finding ${finding_id}`);
  const { opened_on } = finding;
  const earlier = state.resolutions[finding_id];
  if (earlier && earlier.org_id !== ctx.org_id) return notFound(`unknown finding ${finding_id}`);
  // A resolution covers the finding as it was resolved: one found graver since, or on a fact the
  // resolver did not see, is open again and may be resolved again.
  if (earlier && resolutionCovers(earlier, finding))
    return conflict(`finding ${finding_id} was already resolved on ${earlier.resolved_on}`);

  // A cure dated before the finding opened would count as a negative time to cure (remediation
  // velocity, the credit score every lender reads); one dated after today has not happened.
  const today = isoDate(ctx.now);
  if (body.resolved_on < opened_on || body.resolved_on > today) {
    const message = `resolved_on must fall between the day the finding opened (${opened_on}) and today (${today})`;
    return invalid(message, [{ path: ['resolved_on'], code: 'out_of_range', message }]);
  }

  const evidence = body.evidence_document_id;
  if (evidence !== undefined && !getDocument(state, ctx.org_id, evidence)) {
    return invalid('unknown evidence document', [
      { path: ['evidence_document_id'], code: 'unknown_document', message: `unknown document ${evidence}` },
    ]);
  }
  const event = projectsEvent('FindingResolved', ctx.eventId, findingStream(finding_id), {
    finding_id,
    resolution: body.resolution,
    resolved_on: body.resolved_on,
    evidence_document_id: orNull(evidence),
    // What is resolved: the finding as found now. Found graver later, or on a fact not seen here,
    // it is open again (governance `resolutionCovers`).
    severity: finding.severity,
    evidence: finding.evidence.map((e) => ({ kind: e.kind, id: e.id })),
  });
  return accepted(event, finding_id);
}
