/**
 * Notarization (SPEC §6): a thin route over the notarization decider, decided at the ledger head.
 */
import { z } from 'zod';
import { projectGuard, type Service } from '../platform/http/service.js';
import { parseWith } from '../platform/http/validate.js';
import { DOCUMENT_TYPES } from '../projects/facts.js';
import { governanceCommand } from '../governance/command.js';
import type { CreditView } from '../governance/head.js';
import { decideNotarize } from './decide.js';

export const NotarizeBody = z.strictObject({
  action: z.literal('notarize'),
  document_type: z.enum(DOCUMENT_TYPES),
  document_id: z.string().min(1).max(80),
  jurisdiction: z.string().regex(/^[A-Za-z]{2}$/, 'a two-letter US state or territory code'),
});

export function mountNotarization(s: Service, credit: CreditView): void {
  s.routes.add(
    'POST',
    '/api/notarization',
    ...projectGuard(s, 'governance:write', { appends: true }),
    async (req, res) => {
      const body = parseWith(NotarizeBody, req.body);
      await governanceCommand(s, credit, req, res, (head, ctx) =>
        decideNotarize(head, { type: 'NotarizeDocument', ...body }, ctx),
      );
    },
  );
}
