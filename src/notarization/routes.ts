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
  /** A notarial act (docs/duties.md); without it the digests are a bare HASH_STAMPED record. */
  act: z
    .strictObject({
      notary_signer_id: z.string().regex(/^sgn_[a-z2-7]{16}$/, 'a signer id (sgn_…)'),
      act_type: z.enum(['acknowledgment', 'jurat']),
      act_date: z.iso.date(),
      appeared_signer_id: z.string().regex(/^sgn_[a-z2-7]{16}$/, 'a signer id (sgn_…)'),
      signature: z.string().regex(/^[A-Za-z0-9+/]{86}==$/, 'a base64 Ed25519 signature (64 bytes)'),
    })
    .optional(),
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
