/**
 * Payment push (SPEC §6, DOMAIN §12): a thin route over `decidePushPayment`, decided at the ledger
 * head. Met → `PaymentPushed` and 201; unmet → `PaymentPushBlocked` recorded and 422 GATE_UNMET
 * listing every gate. The instruction reaches the rail through the payment outbox (outbox.ts).
 */
import { z } from 'zod';
import { projectGuard, type Service } from '../platform/http/service.js';
import { parseWith } from '../platform/http/validate.js';
import { governanceCommand, headNow } from '../governance/command.js';
import { authOf } from '../platform/http/context.js';
import { ProblemError } from '../platform/http/problem.js';
import type { CreditView } from '../governance/head.js';
import { PUSH_RAILS } from '../projects/profiles.js';
import { GATE_RULES } from './gates.js';
import { decidePushPayment, drawGatesAt } from './push.js';

export const PaymentPushBody = z.strictObject({
  draw_id: z.string().min(1).max(80),
  rail: z.enum(PUSH_RAILS).optional(),
});

const GatesParams = z.strictObject({ id: z.string().min(1).max(80) });
export const GatesQuery = z.strictObject({ rail: z.enum(PUSH_RAILS).optional() });

export function mountPayments(s: Service, credit: CreditView, afterPush: () => Promise<void>): void {
  s.routes.add(
    'POST',
    '/api/payment-push',
    ...projectGuard(s, 'governance:write', { appends: true }),
    async (req, res) => {
      const body = parseWith(PaymentPushBody, req.body);
      await governanceCommand(
        s,
        credit,
        req,
        res,
        (head, ctx) =>
          decidePushPayment(head, { type: 'PushPayment', draw_id: body.draw_id, rail: body.rail }, ctx),
        afterPush,
      );
    },
  );

  // Read-only: what a push decided now would meet, each gate with its rule in plain words.
  s.routes.add('GET', '/api/draws/:id/gates', ...projectGuard(s, 'governance:read'), (req, res) => {
    const { id } = parseWith(GatesParams, req.params, 'params');
    const { rail } = parseWith(GatesQuery, req.query, 'query');
    const now = s.clock.now();
    const found = drawGatesAt(headNow(s, credit), authOf(req).org_id, id, now, rail ?? null);
    if (!found) throw new ProblemError('NOT_FOUND', `no draw ${id}`);
    res.json({
      ...found,
      gates: found.gates.map((g) => ({ ...g, ...GATE_RULES[g.gate] })),
      as_of: now.toISOString(),
    });
  });
}
