/**
 * Compile for draw, draw simulation, and a lender's acceptance or rejection of a draw (SPEC §6,
 * DOMAIN §9–§10): thin routes over the governance deciders, each decided at the ledger head.
 */
import { z } from 'zod';
import { freeText } from '../platform/http/validate.js';
import { projectGuard, type Service } from '../platform/http/service.js';
import { parseWith } from '../platform/http/validate.js';
import { governanceCommand } from './command.js';
import { decideGovernance } from './decide.js';
import type { CreditView } from './head.js';

const id = z.string().min(1).max(80);
export const CompileBody = z.strictObject({
  action: z.literal('compile_for_draw'),
  project_id: id,
  draw_id: id.optional(),
});
export const SimulateBody = z.strictObject({ action: z.literal('simulate_draw'), draw_id: id });
export const RejectDrawBody = z.strictObject({
  reasons: z.array(freeText(500)).min(1).max(20),
});
export const AcceptDrawBody = z.strictObject({ reason: freeText(1000) });
const IdParams = z.strictObject({ id });

export function mountDrawGovernance(s: Service, credit: CreditView): void {
  const write = projectGuard(s, 'governance:write', { appends: true });

  s.routes.add('POST', '/api/dependency-graph', ...write, async (req, res) => {
    const body = parseWith(CompileBody, req.body);
    await governanceCommand(s, credit, req, res, (head, ctx) =>
      decideGovernance(
        head,
        { type: 'CompileDraw', project_id: body.project_id, draw_id: body.draw_id },
        ctx,
      ),
    );
  });

  s.routes.add('POST', '/api/simulate', ...write, async (req, res) => {
    const body = parseWith(SimulateBody, req.body);
    await governanceCommand(s, credit, req, res, (head, ctx) =>
      decideGovernance(head, { type: 'SimulateDraw', draw_id: body.draw_id }, ctx),
    );
  });

  s.routes.add('POST', '/api/draws/:id/reject', ...write, async (req, res) => {
    const { id: draw_id } = parseWith(IdParams, req.params, 'params');
    const body = parseWith(RejectDrawBody, req.body);
    await governanceCommand(s, credit, req, res, (head, ctx) =>
      decideGovernance(head, { type: 'RejectDraw', draw_id, reasons: body.reasons }, ctx),
    );
  });

  s.routes.add(
    'POST',
    '/api/draws/:id/accept',
    ...projectGuard(s, 'draws:approve', { appends: true }),
    async (req, res) => {
      const { id: draw_id } = parseWith(IdParams, req.params, 'params');
      const body = parseWith(AcceptDrawBody, req.body);
      await governanceCommand(s, credit, req, res, (head, ctx) =>
        decideGovernance(head, { type: 'AcceptDrawConditions', draw_id, reason: body.reason }, ctx),
      );
    },
  );
}
