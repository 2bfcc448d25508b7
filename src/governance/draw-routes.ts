/**
 * Compile for draw and draw simulation (SPEC §6, DOMAIN §9–§10): run the engine DAG on one of the
 * caller's draws (default: the latest unfunded one), record the compilation, and price the three
 * scenarios from it. Both results are events carrying their payload hash.
 */
import { z } from 'zod';
import { projectsProjection } from '../../projections/projects.js';
import { isoDate } from '../platform/clock.js';
import { authOf } from '../platform/http/context.js';
import { runCommand } from '../platform/http/command.js';
import { ProblemError } from '../platform/http/problem.js';
import { provenanceOf } from '../platform/http/provenance.js';
import { projectGuard, type Service } from '../platform/http/service.js';
import { parseWith } from '../platform/http/validate.js';
import { idFromUuid } from '../platform/ids.js';
import type { Draw } from '../projects/facts.js';
import { getDraw } from '../projects/queries.js';
import { createKernelDrawCompiler, kernelCompileInput, type DrawCompileResult } from './compile/index.js';
import { contractorStanding, projectContext, type CreditView, type ProjectContext } from './context.js';
import {
  drawStream,
  governanceEvent,
  payloadHash,
  type DrawCompiledData,
  type DrawSimulatedData,
} from './events.js';
import { fundedBasis, simulateDraw } from './simulate.js';

const id = z.string().min(1).max(80);
export const CompileBody = z.strictObject({
  action: z.literal('compile_for_draw'),
  project_id: id,
  draw_id: id.optional(),
});
export const SimulateBody = z.strictObject({ action: z.literal('simulate_draw'), draw_id: id });

const compiler = createKernelDrawCompiler();

/** The draw to compile: the named one (of this project), else the latest not yet funded or rejected. */
function drawToCompile(ctx: ProjectContext, drawId: string | undefined): Draw {
  if (drawId !== undefined) {
    const draw = ctx.input.draws.find((d) => d.id === drawId);
    if (!draw) throw new ProblemError('NOT_FOUND', `no draw ${drawId} on project ${ctx.project.id}`);
    return draw;
  }
  const open = ctx.input.draws.filter((d) => d.status === 'SUBMITTED' || d.status === 'COMPILED');
  const latest = open[open.length - 1];
  if (!latest)
    throw new ProblemError('NOT_FOUND', `project ${ctx.project.id} has no unfunded draw to compile`);
  return latest;
}

export function compileDraw(
  s: Service,
  ctx: ProjectContext,
  draw: Draw,
  credit: CreditView,
): DrawCompileResult {
  const now = s.clock.now();
  const scan = {
    ...ctx.input,
    contractor_score: credit.score(ctx.project.general_contractor, now),
    rail_composite: ctx.rails.composite,
  };
  return compiler.compile(kernelCompileInput(scan, draw, contractorStanding(s, ctx, credit), now));
}

export function mountDrawGovernance(s: Service, credit: CreditView): void {
  const write = projectGuard(s, 'governance:write', { appends: true });

  s.routes.add('POST', '/api/dependency-graph', ...write, async (req, res) => {
    const body = parseWith(CompileBody, req.body);
    const ctx = await projectContext(s, authOf(req).org_id, body.project_id);
    const committed = await runCommand(s.ledger, req, (_head, eventId) => {
      const draw = drawToCompile(ctx, body.draw_id);
      const result = compileDraw(s, ctx, draw, credit);
      const compilation_id = idFromUuid('CMP-', eventId);
      const payload = {
        compilation: { compilation_id, ...result.compilation },
        project_id: ctx.project.id,
        as_of: s.clock.now().toISOString(),
      };
      const hash = payloadHash(payload);
      const data: DrawCompiledData = {
        compilation_id,
        draw_id: draw.id,
        project_id: ctx.project.id,
        draw_verdict: result.compilation.draw_verdict,
        verdict_status: result.compilation.verdict_status,
        layers_executed: result.compilation.layers_executed,
        compiled_on: isoDate(s.clock.now()),
        payload_hash: hash,
        artifacts: [{ kind: 'compilation', hash }],
      };
      return {
        events: [governanceEvent('DrawCompiled', drawStream(draw.id), data, eventId)],
        result: payload,
      };
    });
    const event = committed.events[0]!;
    res.status(201).json({
      ...committed.result,
      provenance: provenanceOf(committed.result, { seq: event.seq, hash: event.hash }),
    });
  });

  s.routes.add('POST', '/api/simulate', ...write, async (req, res) => {
    const body = parseWith(SimulateBody, req.body);
    const org = authOf(req).org_id;
    const found = getDraw(s.runtime.state(projectsProjection), org, body.draw_id);
    if (!found) throw new ProblemError('NOT_FOUND', `no draw ${body.draw_id}`);
    const ctx = await projectContext(s, org, found.project_id);
    const committed = await runCommand(s.ledger, req, (_head, eventId) => {
      const draw = ctx.input.draws.find((d) => d.id === found.id) ?? found;
      const compiled = compileDraw(s, ctx, draw, credit);
      const adequacy = compiled.adequacy;
      if (!adequacy)
        throw new ProblemError(
          'CONFLICT',
          `the draw's compilation did not reach adequacy; compile it to see which engine failed`,
        );
      const basis = fundedBasis(ctx.input.draws, ctx.project.id);
      const simulation = simulateDraw({
        project: ctx.project,
        draw,
        disbursed: basis.disbursed,
        retainage_held: basis.retainage_held,
        open_findings: compiled.findings,
        adequacy: adequacy.adequacy,
        draw_verdict: compiled.compilation.draw_verdict,
        gc_excluded: ctx.gc_excluded,
        today: isoDate(s.clock.now()),
      });
      const simulation_id = idFromUuid('SIM-', eventId);
      const payload = { simulation_id, draw_id: draw.id, ...simulation, as_of: s.clock.now().toISOString() };
      const hash = payloadHash(payload);
      const data: DrawSimulatedData = {
        simulation_id,
        draw_id: draw.id,
        project_id: ctx.project.id,
        recommendation: simulation.recommendation,
        simulated_on: isoDate(s.clock.now()),
        payload_hash: hash,
        artifacts: [{ kind: 'simulation', hash }],
      };
      return {
        events: [governanceEvent('DrawSimulated', drawStream(draw.id), data, eventId)],
        result: payload,
      };
    });
    const event = committed.events[0]!;
    res.status(201).json({
      ...committed.result,
      provenance: provenanceOf(committed.result, { seq: event.seq, hash: event.hash }),
    });
  });
}
