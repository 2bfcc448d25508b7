/**
 * `GET /api/credit-report-pdf?entity=…&key=…` (SPEC §8): the credit report as a printable PDF.
 * The key may come as the `key` query parameter (a link a lender can open; it is redacted from
 * logs) or a header. It counts against the daily quota and records the inquiry like `score`.
 */
import { z } from 'zod';
import { authenticate } from '../platform/http/auth.js';
import { authOf, ctxOf } from '../platform/http/context.js';
import { countRequest } from '../platform/http/rate-limit.js';
import type { Service } from '../platform/http/service.js';
import { parseWith } from '../platform/http/validate.js';
import { renderCreditReportPdf } from '../reports/credit-report-pdf.js';
import { issueCreditReport } from './credit-actions.js';

const PdfQuery = z.strictObject({
  entity: z.string().trim().min(1).max(200),
  key: z.string().max(200).optional(),
});

export function mountCreditReportPdf(s: Service): void {
  s.routes.add(
    'GET',
    '/api/credit-report-pdf',
    authenticate(s.resolveKey, { scope: 'credit:read', allowQueryKey: true }),
    async (req, res) => {
      await countRequest(
        s.limiter,
        res,
        authOf(req).key_id,
        'lender',
        'pdf',
        s.logger,
        s.metrics,
        ctxOf(req).request_id,
      );
      const { entity } = parseWith(PdfQuery, req.query, 'query');
      const report = await issueCreditReport(s, req, entity);
      // The signed checkpoint covering the position the report was computed at (about a second at most).
      const covering = await s.tlog.checkpointCovering(report.provenance.ledger.seq);
      const pdf = await renderCreditReportPdf(
        report,
        covering
          ? {
              origin: covering.origin,
              size: covering.size,
              root: covering.root.toString('base64'),
              key_id: s.tlog.signer.keyId.toString('hex'),
            }
          : undefined,
      );
      const filename = `plumbline-credit-${report.entity_id}-${report.as_of.slice(0, 10)}.pdf`;
      res
        .status(200)
        .type('application/pdf')
        .set('Content-Disposition', `inline; filename="${filename}"`)
        .set('Provenance-Hash', report.provenance_hash)
        .send(pdf);
    },
  );
}
