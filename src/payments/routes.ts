/**
 * Payment push (SPEC §6, DOMAIN §12): a thin route over `decidePushPayment`, decided at the ledger
 * head. Met → `PaymentPushed` and 201; unmet → `PaymentPushBlocked` recorded and 422 GATE_UNMET
 * listing every gate. The instruction reaches the rail through the payment outbox (outbox.ts).
 */
import { z } from 'zod';
import { projectGuard, type Service } from '../platform/http/service.js';
import { parseWith } from '../platform/http/validate.js';
import { governanceCommand } from '../governance/command.js';
import type { CreditView } from '../governance/head.js';
import { PUSH_RAILS } from '../projects/profiles.js';
import { decidePushPayment } from './push.js';

export const PaymentPushBody = z.strictObject({
  draw_id: z.string().min(1).max(80),
  rail: z.enum(PUSH_RAILS).optional(),
});

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
}
