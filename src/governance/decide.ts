/**
 * The governance deciders (ARCHITECTURE §5): scan, adequacy, compile for draw, simulate and reject
 * draw, each `decide(head, command, ctx)` — pure functions of the read models at the ledger head
 * the command is committed at. Compile and adequacy run the scan engines on the facts at that head
 * and record what they found (a `ProjectScanned` beside their own event), so no result is ever
 * computed from findings an earlier call left behind (DOMAIN §2: a finding is open while its
 * condition holds).
 */
import { derivedEventId, idFromUuid } from '../platform/ids.js';
import { isoDate } from '../platform/clock.js';
import type { EventInput } from '../platform/ledger/index.js';
import type { Draw } from '../projects/facts.js';
import { getDraw } from '../projects/queries.js';
import { assessAdequacy, type Adequacy } from './adequacy.js';
import { createKernelDrawCompiler, kernelCompileInput, type DrawCompileResult } from './compile/index.js';
import { drawStream, projectStream, type ArtifactRef } from './events.js';
import type { Finding, ScanResult } from './findings.js';
import { contractorStanding, drawAt, projectAt, type GovernanceHead, type ProjectContext } from './head.js';
import { accepted, recordResult, rejected, type GovernanceCtx, type GovernanceDecided } from './record.js';
import { decideScan, scanProject } from './scan.js';
import { fundedBasis, simulateDraw } from './simulate.js';

export type GovernanceCommand =
  | { type: 'ScanProject'; project_id: string }
  | { type: 'AssessAdequacy'; project_id: string }
  | { type: 'CompileDraw'; project_id: string; draw_id?: string | undefined }
  | { type: 'SimulateDraw'; draw_id: string }
  | { type: 'RejectDraw'; draw_id: string; reasons: string[] }
  | { type: 'AcceptDrawConditions'; draw_id: string; reason: string };

export function decideGovernance(
  head: GovernanceHead,
  command: GovernanceCommand,
  ctx: GovernanceCtx,
): GovernanceDecided {
  switch (command.type) {
    case 'ScanProject':
      return withProject(head, command.project_id, ctx, (p) => decideScanProject(head, p, ctx));
    case 'AssessAdequacy':
      return withProject(head, command.project_id, ctx, (p) => decideAdequacy(head, p, ctx));
    case 'CompileDraw':
      return withProject(head, command.project_id, ctx, (p) => decideCompile(head, p, command.draw_id, ctx));
    case 'SimulateDraw':
      return decideSimulate(head, command.draw_id, ctx);
    case 'RejectDraw':
      return decideRejectDraw(head, command.draw_id, command.reasons, ctx);
    case 'AcceptDrawConditions':
      return decideAcceptConditions(head, command.draw_id, command.reason, ctx);
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

function withProject(
  head: GovernanceHead,
  project_id: string,
  ctx: GovernanceCtx,
  then: (project: ProjectContext) => GovernanceDecided,
): GovernanceDecided {
  const project = projectAt(head, ctx.org_id, project_id, ctx.now);
  return project ? then(project) : rejected('NOT_FOUND', `no project ${project_id}`);
}

/** DOMAIN §4 adequacy of a project at the head, from the findings its facts raise now. */
export function adequacyAt(
  head: GovernanceHead,
  project: ProjectContext,
  findings: readonly Finding[],
  now: Date,
): Adequacy {
  return assessAdequacy(
    {
      project: project.project,
      draws: project.input.draws,
      change_orders: project.input.change_orders,
      findings: [...findings],
      contractor_score: head.credit.score(project.project.general_contractor, now),
      gc_excluded: project.gc_excluded,
      rail_composite: project.rails.composite,
    },
    now,
  );
}

export interface CurrentScan {
  result: ScanResult;
  findings: Finding[];
  /** The `ProjectScanned` recording it (with `scan_id` minted from `eventId`). */
  events: EventInput[];
  payload: Record<string, unknown>;
}

/**
 * Scans the project's facts at the head and records the scan. `eventId` is the scan's own event
 * id; a result that scans on the way (compile, adequacy, certification, payment push) passes one
 * derived from its own (`companionEventId`), so an idempotent retry re-derives the same.
 */
export function scanAt(
  head: GovernanceHead,
  project: ProjectContext,
  now: Date,
  eventId: string,
): CurrentScan {
  const result = scanProject(project.input, now);
  const findings = [...result.contradictions, ...result.temporal];
  const adequacy = adequacyAt(head, project, findings, now);
  const scan_id = idFromUuid('SCN-', eventId);
  const payload = {
    scan_id,
    project_id: project.project.id,
    scan_verdict: result.scan_verdict,
    contradictions: { count: result.contradictions.length, items: result.contradictions },
    temporal: { count: result.temporal.length, items: result.temporal },
    adequacy: { overall: adequacy.overall, vector: adequacy.vector },
    as_of: now.toISOString(),
  };
  const recorded = recordResult({
    type: 'ProjectScanned',
    stream: projectStream(project.project.id),
    eventId,
    payload,
    kind: 'scan',
    data: ({ payload_hash, artifacts }) =>
      decideScanData(head, result, { scan_id, now, payload_hash, artifacts }),
  });
  return { result, findings, events: [recorded.event], payload };
}

function decideScanData(
  head: GovernanceHead,
  result: ScanResult,
  ctx: { scan_id: string; now: Date; payload_hash: string; artifacts: ArtifactRef[] },
) {
  return decideScan(head.governance, result, ctx)[0]!.data;
}

/** The id of an event recorded beside a command's main one (its scan). */
export function companionEventId(eventId: string, role: string): string {
  return derivedEventId(`${eventId}/${role}`);
}

function decideScanProject(
  head: GovernanceHead,
  project: ProjectContext,
  ctx: GovernanceCtx,
): GovernanceDecided {
  const scan = scanAt(head, project, ctx.now, ctx.eventId);
  return accepted(scan.events, scan.payload);
}

function decideAdequacy(
  head: GovernanceHead,
  project: ProjectContext,
  ctx: GovernanceCtx,
): GovernanceDecided {
  const scan = scanAt(head, project, ctx.now, companionEventId(ctx.eventId, 'scan'));
  const adequacy = adequacyAt(head, project, scan.findings, ctx.now);
  const assessment_id = idFromUuid('ADQ-', ctx.eventId);
  const payload = {
    assessment_id,
    project_id: project.project.id,
    adequacy: {
      overall: adequacy.overall,
      vector: adequacy.vector,
      in_balance: adequacy.in_balance,
      figures: adequacy.figures,
    },
    scan_id: scan.payload['scan_id'],
    as_of: ctx.now.toISOString(),
  };
  const recorded = recordResult({
    type: 'AdequacyAssessed',
    stream: projectStream(project.project.id),
    eventId: ctx.eventId,
    payload,
    kind: 'adequacy',
    data: (r) => ({
      assessment_id,
      project_id: project.project.id,
      overall: adequacy.overall,
      vector: adequacy.vector,
      in_balance: adequacy.in_balance,
      assessed_on: isoDate(ctx.now),
      ...r,
    }),
  });
  return accepted([...scan.events, recorded.event], payload);
}

const compiler = createKernelDrawCompiler();

/** Runs the DOMAIN §9 engine DAG for a draw on the facts at the head. */
export function compileAt(
  head: GovernanceHead,
  project: ProjectContext,
  draw: Draw,
  now: Date,
): DrawCompileResult {
  const scan = {
    ...project.input,
    contractor_score: head.credit.score(project.project.general_contractor, now),
    rail_composite: project.rails.composite,
  };
  return compiler.compile(kernelCompileInput(scan, draw, contractorStanding(head, project, now), now));
}

/** The draw to compile: the named one (of this project), else the latest not yet funded or rejected. */
function drawToCompile(project: ProjectContext, drawId: string | undefined): Draw | string {
  if (drawId !== undefined) {
    return (
      project.input.draws.find((d) => d.id === drawId) ?? `no draw ${drawId} on project ${project.project.id}`
    );
  }
  const open = project.input.draws.filter((d) => d.status === 'SUBMITTED' || d.status === 'COMPILED');
  return open[open.length - 1] ?? `project ${project.project.id} has no unfunded draw to compile`;
}

export interface RecordedCompilation {
  result: DrawCompileResult;
  /** `ProjectScanned` then `DrawCompiled`. */
  events: EventInput[];
  payload: Record<string, unknown>;
  compilation_id: string;
  payload_hash: string;
}

/**
 * Compiles a draw at the head and records it with the scan it ran: what compile-for-draw answers,
 * and what a payment push re-runs inside its own decision. `eventId` is the `DrawCompiled` id.
 */
export function recordCompilation(
  head: GovernanceHead,
  project: ProjectContext,
  draw: Draw,
  now: Date,
  eventId: string,
): RecordedCompilation {
  const scan = scanAt(head, project, now, companionEventId(eventId, 'scan'));
  const result = compileAt(head, project, draw, now);
  const compilation_id = idFromUuid('CMP-', eventId);
  const payload = {
    compilation: {
      compilation_id,
      ...result.compilation,
      reasons: result.verdict?.reasons ?? [],
      fundable_amount: result.verdict?.fundable_amount ?? 0,
    },
    project_id: project.project.id,
    scan_id: scan.payload['scan_id'],
    as_of: now.toISOString(),
  };
  const recorded = recordResult({
    type: 'DrawCompiled',
    stream: drawStream(draw.id),
    eventId,
    payload,
    kind: 'compilation',
    data: (r) => ({
      compilation_id,
      draw_id: draw.id,
      project_id: project.project.id,
      draw_verdict: result.compilation.draw_verdict,
      verdict_status: result.compilation.verdict_status,
      layers_executed: result.compilation.layers_executed,
      compiled_on: isoDate(now),
      ...r,
    }),
  });
  return {
    result,
    events: [...scan.events, recorded.event],
    payload,
    compilation_id,
    payload_hash: recorded.hash,
  };
}

function decideCompile(
  head: GovernanceHead,
  project: ProjectContext,
  drawId: string | undefined,
  ctx: GovernanceCtx,
): GovernanceDecided {
  const draw = drawToCompile(project, drawId);
  if (typeof draw === 'string') return rejected('NOT_FOUND', draw);
  // A verdict on whether to fund a draw already funded (or refused) decides nothing, and a recorded
  // FUNDABLE / READY beside a paid draw reads as a second approval: its compilations stand as recorded.
  const settled = settledDraw(draw);
  if (settled) return rejected('CONFLICT', `${settled}: nothing to compile`);
  const compiled = recordCompilation(head, project, draw, ctx.now, ctx.eventId);
  return accepted(compiled.events, compiled.payload);
}

function decideSimulate(head: GovernanceHead, drawId: string, ctx: GovernanceCtx): GovernanceDecided {
  const found = drawAt(head, ctx.org_id, drawId, ctx.now);
  if (!found) return rejected('NOT_FOUND', `no draw ${drawId}`);
  const { ctx: project, draw } = found;
  // DOMAIN §10 weighs funding the draw against not funding it; a FUNDED or REJECTED draw has had
  // that decision (its amount is already in, or out of, the disbursements), so nothing to weigh.
  const settled = settledDraw(draw);
  if (settled) return rejected('CONFLICT', `${settled}: nothing to simulate`);
  const compiled = compileAt(head, project, draw, ctx.now);
  const adequacy = compiled.adequacy;
  if (!adequacy)
    return rejected(
      'CONFLICT',
      `the draw's compilation did not reach adequacy; compile it to see which engine failed`,
    );
  const basis = fundedBasis(project.input.draws, project.project.id);
  const simulation = simulateDraw({
    project: project.project,
    draw,
    disbursed: basis.disbursed,
    retainage_held: basis.retainage_held,
    open_findings: compiled.findings,
    project_findings: compiled.project_findings,
    adequacy: adequacy.adequacy,
    draw_verdict: compiled.compilation.draw_verdict,
    gc_excluded: project.gc_excluded,
    today: isoDate(ctx.now),
  });
  const simulation_id = idFromUuid('SIM-', ctx.eventId);
  const payload = { simulation_id, draw_id: draw.id, ...simulation, as_of: ctx.now.toISOString() };
  const recorded = recordResult({
    type: 'DrawSimulated',
    stream: drawStream(draw.id),
    eventId: ctx.eventId,
    payload,
    kind: 'simulation',
    data: (r) => ({
      simulation_id,
      draw_id: draw.id,
      project_id: project.project.id,
      recommendation: simulation.recommendation,
      simulated_on: isoDate(ctx.now),
      ...r,
    }),
  });
  return accepted([recorded.event], payload);
}

/**
 * DOMAIN §1: FUNDED and REJECTED end a draw's lifecycle (SUBMITTED → COMPILED → FUNDED, or
 * REJECTED). A decision about such a draw — reject, accept conditions, simulate — answers 409 and
 * records nothing. Answers the reason, or null while the draw can still be decided.
 */
export function settledDraw(draw: Draw): string | null {
  if (draw.status === 'FUNDED') return `${draw.id} is already funded`;
  if (draw.status === 'REJECTED') return `${draw.id} was already rejected`;
  return null;
}

/** DOMAIN §1: a draw can be REJECTED, which ends its path to payment; a funded one cannot. */
function decideRejectDraw(
  head: GovernanceHead,
  drawId: string,
  reasons: string[],
  ctx: GovernanceCtx,
): GovernanceDecided {
  const draw = getDraw(head.projects, ctx.org_id, drawId);
  if (!draw) return rejected('NOT_FOUND', `no draw ${drawId}`);
  const settled = settledDraw(draw);
  if (settled) return rejected('CONFLICT', settled);
  const rejection_id = idFromUuid('REJ-', ctx.eventId);
  const payload = {
    rejection: {
      id: rejection_id,
      draw_id: draw.id,
      project_id: draw.project_id,
      reasons,
      rejected_on: isoDate(ctx.now),
    },
  };
  const recorded = recordResult({
    type: 'DrawRejected',
    stream: drawStream(draw.id),
    eventId: ctx.eventId,
    payload,
    kind: 'draw_rejection',
    data: (r) => ({
      rejection_id,
      draw_id: draw.id,
      project_id: draw.project_id,
      reasons,
      rejected_on: isoDate(ctx.now),
      ...r,
    }),
  });
  return accepted([recorded.event], payload);
}

/** Verdicts whose conditions (or reduced amount) a lender may accept before payment. */
const ACCEPTABLE: readonly string[] = ['FUNDABLE_WITH_CONDITIONS', 'REDUCED'];

/**
 * A lender key with `draws:approve` accepts the conditions the draw has open at the head (its
 * WARNING findings, or the inspection variance behind a REDUCED verdict), with a reason. The
 * acceptance covers exactly those codes: a condition that arises later must be accepted again.
 */
function decideAcceptConditions(
  head: GovernanceHead,
  drawId: string,
  reason: string,
  ctx: GovernanceCtx,
): GovernanceDecided {
  const found = drawAt(head, ctx.org_id, drawId, ctx.now);
  if (!found) return rejected('NOT_FOUND', `no draw ${drawId}`);
  const { ctx: project, draw } = found;
  if (draw.status === 'FUNDED' || draw.status === 'REJECTED')
    return rejected('CONFLICT', `${draw.id} is ${draw.status}: nothing to accept`);
  const compiled = compileAt(head, project, draw, ctx.now);
  const verdict = compiled.compilation.draw_verdict;
  if (!ACCEPTABLE.includes(verdict))
    return rejected(
      'CONFLICT',
      `${draw.id} is ${verdict} at the head: only conditions or a reduced amount can be accepted`,
    );
  const acceptance_id = idFromUuid('ACC-', ctx.eventId);
  const accepted_codes = [...new Set(compiled.findings.map((f) => f.code))];
  const finding_ids = compiled.findings.map((f) => f.id);
  const payload = {
    acceptance: {
      id: acceptance_id,
      draw_id: draw.id,
      draw_verdict: verdict,
      accepted_codes,
      finding_ids,
      fundable_amount: compiled.verdict?.fundable_amount ?? 0,
      reason,
      accepted_on: isoDate(ctx.now),
    },
  };
  const recorded = recordResult({
    type: 'DrawConditionsAccepted',
    stream: drawStream(draw.id),
    eventId: ctx.eventId,
    payload,
    kind: 'draw_acceptance',
    data: (r) => ({
      acceptance_id,
      draw_id: draw.id,
      project_id: draw.project_id,
      draw_verdict: verdict,
      accepted_codes,
      finding_ids,
      fundable_amount: compiled.verdict?.fundable_amount ?? 0,
      reason,
      accepted_on: isoDate(ctx.now),
      ...r,
    }),
  });
  return accepted([recorded.event], payload);
}
