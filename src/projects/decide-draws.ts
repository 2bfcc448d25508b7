/**
 * Deciding draw submission and signing. A pay application must cover every SOV line of its
 * project exactly once (a G703 continuation sheet lists them all), list only this project's
 * invoices, bill no line past its scheduled value, and carry an application number not yet used
 * on the project. A signature must come from a role of the project's profile chain (DOMAIN §12),
 * once per role, before funding.
 */
import { isoDate } from '../platform/clock.js';
import { idFromUuid } from '../platform/ids.js';
import type { SignDrawBody, SubmitDrawBody } from './contract.js';
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
import { drawStream, projectsEvent } from './events.js';
import type { Cents, ChangeOrder, Draw, Project, ProjectsState } from './facts.js';
import {
  activeKeyOf,
  drawApplicationSha256,
  drawSigningDocument,
  roleMismatch,
  signedBy,
} from '../signers/index.js';
import { isChainRole, PROFILES } from './profiles.js';
import { getDraw, getProject } from './queries.js';
import { freezeApplication, inexactFigures, type FrozenApplication } from './pay-application.js';
import { checkDocumentRef, checkSovLine } from './references.js';

export function decideSubmitDraw(
  state: ProjectsState,
  project_id: string,
  body: SubmitDrawBody,
  ctx: DecideContext,
): Decided {
  const project = getProject(state, ctx.org_id, project_id);
  if (!project) return notFound(`unknown project ${project_id}`);
  const issues = drawIssues(state, project, body);
  // An application reports a submission that happened: dated ahead, the rules that read it judge
  // a day the lender chose (CHANGE_ORDER_PRECEDENCE counts a change order approved after the real
  // submission as approved before it) and the GC's draw-accuracy signals skip it until that day.
  const today = isoDate(ctx.now);
  if (body.submitted_on !== undefined && body.submitted_on > today)
    issues.push({
      path: ['submitted_on'],
      code: 'out_of_range',
      message: `submitted_on ${body.submitted_on} is after today (${today})`,
    });
  if (issues.length > 0) return invalid('the draw does not match the project', issues);

  // A rejected application left the sequence (PAY_PERIOD_SEQUENCE): its number may be resubmitted.
  const used = (state.by_project[project.id]?.draw_ids ?? []).some((id) => {
    const draw = state.draws[id];
    return draw !== undefined && draw.application_no === body.application_no && draw.status !== 'REJECTED';
  });
  if (used) return conflict(`application ${body.application_no} was already submitted for ${project.id}`);

  const draw_id = idFromUuid('DRW-', ctx.eventId);
  const event = projectsEvent('DrawSubmitted', ctx.eventId, drawStream(draw_id), {
    draw_id,
    project_id: project.id,
    application_no: body.application_no,
    period_from: body.period_from,
    period_to: body.period_to,
    submitted_on: body.submitted_on ?? isoDate(ctx.now),
    lines: body.lines.map((l) => ({
      line: l.line,
      previous: l.previous,
      this_period: l.this_period,
      stored_materials: l.stored_materials,
    })),
    retainage_pct: body.retainage_pct,
    retainage_withheld: orNull(body.retainage_withheld),
    previous_certificates_total: orNull(body.previous_certificates_total),
    requested_amount: body.requested_amount,
    invoices: [...body.invoices],
  });
  return accepted(event, draw_id);
}

function drawIssues(state: ProjectsState, project: Project, body: SubmitDrawBody): Issue[] {
  const issues: Issue[] = [];
  body.lines.forEach((l, i) => checkSovLine(project, issues, ['lines', i, 'line'], l.line));
  const stated = new Set(body.lines.map((l) => l.line));
  const missing = project.sov.filter((l) => !stated.has(l.line)).map((l) => l.line);
  if (missing.length > 0) {
    issues.push({
      path: ['lines'],
      code: 'missing_sov_lines',
      message: `missing SOV lines ${missing.join(', ')}`,
    });
  }
  body.invoices.forEach((id, i) => checkDocumentRef(state, project, issues, ['invoices', i], id, 'INVOICE'));
  if (issues.length === 0) issues.push(...applicationIssues(state, project, body));
  return issues;
}

/**
 * The application as it would be frozen, checked as a G702/G703 must hold: its figures exact in
 * integer cents, and no line billed past its scheduled value.
 */
function applicationIssues(state: ProjectsState, project: Project, body: SubmitDrawBody): Issue[] {
  const index = state.by_project[project.id];
  const changeOrders = (index?.change_order_ids ?? []).flatMap((id) => state.change_orders[id] ?? []);
  const funded = (index?.draw_ids ?? []).reduce((a, id) => a + (state.draws[id]?.funded_amount ?? 0), 0);
  const application = freezeApplication(
    project.sov,
    changeOrders,
    {
      period_to: body.period_to,
      lines: body.lines,
      retainage_pct: body.retainage_pct,
      retainage_withheld: body.retainage_withheld ?? null,
      previous_certificates_total: body.previous_certificates_total ?? null,
    },
    funded,
  );
  // Stated columns each within range can still sum past 2^53 − 1 (two lines of $90 trillion), and
  // such a G702 — the bytes its signers sign, the line 8 a payment pays — is rounded by a double.
  const inexact = inexactFigures(application);
  if (inexact.length > 0) {
    const message = `the application's figures exceed ${Number.MAX_SAFE_INTEGER} cents, so they would not be exact: ${inexact.join(', ')}`;
    return [{ path: ['lines'], code: 'out_of_range', message }];
  }
  return overbilledLines(application, changeOrders, body);
}

/**
 * A G703 line's work completed and stored to date (G = D + E + F) cannot exceed its scheduled
 * value (C: the SOV value plus the deltas of change orders executed by the period's end, as
 * CONTRACT_SUM_MISMATCH reads C): the contract owes no more for a line than the line is worth, and
 * an overbilled G flows into line 8, what a payment pays. Seen with line 1 billed $40,000,000 on a
 * $400,000 scheduled value: no scan rule compares G with C, the draw compiled FUNDABLE and the push
 * paid $36,045,000 on an $800,000 loan. Billing into a change order recorded on the line but not
 * yet executed (its added value) is CHANGE_ORDER_PRECEDENCE's to judge (DOMAIN §3, BLOCKING), so
 * G may reach C plus those additions; past that, nothing on file makes the line worth it.
 */
function overbilledLines(
  application: FrozenApplication,
  changeOrders: readonly ChangeOrder[],
  body: SubmitDrawBody,
): Issue[] {
  const pending = pendingAdditions(changeOrders, body.period_to);
  return application.lines.flatMap((l) => {
    const unexecuted = pending.get(l.line) ?? 0;
    if (l.completed_and_stored <= l.scheduled_value + unexecuted) return [];
    const i = body.lines.findIndex((stated) => stated.line === l.line);
    const cos =
      l.change_order_delta === 0
        ? ''
        : ` (SOV ${l.original_scheduled_value} + executed change orders ${l.change_order_delta})`;
    const beyond =
      unexecuted === 0
        ? ''
        : ` and the ${unexecuted} cents change orders not executed by ${body.period_to} would add`;
    const over = l.completed_and_stored - l.scheduled_value - unexecuted;
    return [
      {
        path: ['lines', i],
        code: 'exceeds_scheduled_value',
        message:
          `line ${l.line}: completed and stored to date (G = previous ${l.previous} + this period ${l.this_period} + stored materials ${l.stored_materials} = ${l.completed_and_stored} cents) ` +
          `exceeds its scheduled value (C = ${l.scheduled_value} cents${cos})${beyond} by ${over} cents`,
      },
    ];
  });
}

/** Per line, Σ positive deltas of the recorded change orders C does not count yet (not executed by `periodTo`). */
function pendingAdditions(changeOrders: readonly ChangeOrder[], periodTo: string): Map<number, Cents> {
  const counted = new Set(
    changeOrders.filter((co) => co.executed_on !== null && co.executed_on <= periodTo).map((co) => co.id),
  );
  const added = new Map<number, Cents>();
  for (const co of changeOrders.filter((c) => !counted.has(c.id)))
    for (const l of co.lines) if (l.delta > 0) added.set(l.line, (added.get(l.line) ?? 0) + l.delta);
  return added;
}

export function decideSignDraw(
  state: ProjectsState,
  draw_id: string,
  body: SignDrawBody,
  ctx: DecideContext,
): Decided {
  const draw = getDraw(state, ctx.org_id, draw_id);
  const project = draw && state.projects[draw.project_id];
  if (!draw || !project) return notFound(`unknown draw ${draw_id}`);
  if (!isChainRole(project.profile, body.role)) {
    const chain = PROFILES[project.profile].certification_chain.join(', ');
    return invalid(`the ${project.profile} profile's certification chain is ${chain}`, [
      {
        path: ['role'],
        code: 'role_not_in_chain',
        message: `${body.role} is not a ${project.profile} signer`,
      },
    ]);
  }
  if (draw.status === 'FUNDED' || draw.status === 'REJECTED') {
    return conflict(`draw ${draw.id} is ${draw.status}; it can no longer be signed`);
  }
  if (!('signer_id' in body)) {
    // The seed's shape: recorded as self-attested, never counted by the signatures gate.
    if (draw.signatures.some((s) => s.role === body.role && s.attestation === 'SELF_ATTESTED'))
      return conflict(`${body.role} has already signed ${draw.id}`);
    return accepted(
      projectsEvent('DrawSigned', ctx.eventId, drawStream(draw.id), {
        draw_id: draw.id,
        project_id: project.id,
        role: body.role,
        signer_name: body.signer_name,
        signed_on: body.signed_on,
        attestation: 'SELF_ATTESTED',
        signer_id: null,
        key_id: null,
        application_sha256: null,
        signature: null,
      }),
      draw.id,
    );
  }
  return decideVerifiedDrawSignature(project, draw, body, ctx);
}

/**
 * An enrolled signer's signature (docs/duties.md): the signer is the org's, enrolled and not
 * revoked; it signs in its own capacity for the party the role belongs to; one identity signs one
 * role per draw; the signature verifies over the draw's application as it stands now.
 */
function decideVerifiedDrawSignature(
  project: Project,
  draw: Draw,
  body: Extract<SignDrawBody, { signer_id: string }>,
  ctx: DecideContext,
): Decided {
  const signer = ctx.lookups.signer?.(ctx.org_id, body.signer_id);
  const key = activeKeyOf(signer);
  if (!signer || !key)
    return invalid('the signer is unknown, not enrolled or revoked', [
      { path: ['signer_id'], code: 'signer_not_enrolled', message: `${body.signer_id} has no active key` },
    ]);
  const application_sha256 = drawApplicationSha256(draw);
  // Signatures that still count: over these bytes, by a signer whose key is still active (a revoked
  // signer's role can be signed again by another).
  const current = draw.signatures.filter(
    (s) =>
      s.attestation === 'ED25519' &&
      s.application_sha256 === application_sha256 &&
      s.signer_id !== null &&
      activeKeyOf(ctx.lookups.signer?.(ctx.org_id, s.signer_id))?.key_id === s.key_id,
  );
  const other = current.find((s) => s.signer_id === signer.id);
  if (other)
    return conflict(`${signer.id} already signed ${draw.id} as ${other.role}; one identity signs one role`);
  if (current.some((s) => s.role === body.role))
    return conflict(`${body.role} has already signed ${draw.id}`);
  const mismatch = roleMismatch(signer, project, body.role);
  if (mismatch !== null)
    return invalid('the signer does not sign for that role on this project', [
      { path: ['signer_id'], code: 'signer_wrong_party', message: mismatch },
    ]);
  if (!signedBy(signer, drawSigningDocument(draw), body.signature))
    return invalid('the signature does not verify', [
      {
        path: ['signature'],
        code: 'signature_invalid',
        message: `not ${key.key_id}'s Ed25519 signature over the application as it stands (sha256 ${application_sha256})`,
      },
    ]);
  return accepted(
    projectsEvent('DrawSigned', ctx.eventId, drawStream(draw.id), {
      draw_id: draw.id,
      project_id: project.id,
      role: body.role,
      signer_name: signer.name,
      signed_on: body.signed_on ?? isoDate(ctx.now),
      attestation: 'ED25519',
      signer_id: signer.id,
      key_id: key.key_id,
      application_sha256,
      signature: body.signature,
    }),
    draw.id,
  );
}
