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
import type { SamApiSource } from '../registry/index.js';
import { credit as creditProjection } from '../../projections/credit.js';
import { registryProjection } from '../../projections/registry.js';
import { assessedEligibility, type CreditReport } from '../credit/index.js';
import { renderCreditReportPdf, type ReportContext } from '../reports/credit-report-pdf.js';
import { entityFacts } from './entity-facts.js';
import { issueCreditReport } from './credit-actions.js';

/** What the printed report shows beside the sealed report, read from the read models after it was recorded. */
function reportContext(s: Service, report: CreditReport, org_id: string): ReportContext | undefined {
  const entity = s.runtime.state(registryProjection).entities[report.entity_id];
  if (!entity) return undefined;
  const credit = s.runtime.state(creditProjection);
  const inquiries = credit.entities[report.entity_id]?.inquiries ?? [];
  const now = s.clock.now();
  const e = assessedEligibility(credit, entityFacts(s, entity, now), now);
  return {
    identity: {
      ein: entity.ein,
      uei: entity.uei,
      cage: entity.cage,
      roles: entity.roles,
      aliases: entity.aliases,
    },
    reports: inquiries.map((i) => ({ on: i.as_of.slice(0, 10), composite_score: i.composite_score })),
    eligibility: {
      pral: e.payment_recommendation.pral,
      rationale: e.payment_recommendation.rationale,
      eligible_payment_rails: e.eligible_payment_rails,
      marketplace_tier: e.marketplace_access.tier,
      programs: e.marketplace_access.programs,
    },
    inquiries: inquiries.map((i) => ({ on: i.as_of.slice(0, 10), yours: i.org_id === org_id })),
  };
}

const PdfQuery = z.strictObject({
  entity: z.string().trim().min(1).max(200),
  key: z.string().max(200).optional(),
});

export function mountCreditReportPdf(s: Service, sam: SamApiSource | null = null): void {
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
      const report = await issueCreditReport(s, req, entity, sam);
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
        reportContext(s, report, authOf(req).org_id),
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
