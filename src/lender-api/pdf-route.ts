/**
 * `GET /api/credit-report-pdf?entity=…&link=…` (SPEC §8): the credit report as a printable PDF.
 * The caller proves itself with a short-lived signed link from `action=pdf_link` (preferred: no
 * key in the URL), a header key, or — for old links — the `key` query parameter, which must itself
 * hold `credit:read` (an `admin` key that merely implies it is refused there) and is redacted from
 * logs however it is spelled. Answers carry `Referrer-Policy: no-referrer` and
 * `Cache-Control: no-store`. Opening the report counts against the daily quota and records the
 * inquiry like `score`; asking for a link does not count (docs/security-edge.md).
 */
import type { Request, RequestHandler } from 'express';
import { z } from 'zod';
import { keys as keysProjection } from '../../projections/keys.js';
import { liveKeyById } from '../orgs/index.js';
import { grantsScope } from '../platform/crypto/api-key.js';
import { API_KEY_HEADERS, authenticate, UNAUTHENTICATED_DETAIL } from '../platform/http/auth.js';
import { authOf, ctxOf } from '../platform/http/context.js';
import { ProblemError } from '../platform/http/problem.js';
import { countRequest } from '../platform/http/rate-limit.js';
import type { Service } from '../platform/http/service.js';
import { nameText, parseWith } from '../platform/http/validate.js';
import type { SamApiSource } from '../registry/index.js';
import { defineAction, type LenderAction } from './actions.js';
import { credit as creditProjection } from '../../projections/credit.js';
import { registryProjection } from '../../projections/registry.js';
import { assessedEligibility, inquiriesOf, type CreditReport } from '../credit/index.js';
import { renderCreditReportPdf, type ReportContext } from '../reports/credit-report-pdf.js';
import { entityFacts } from './entity-facts.js';
import { issueCreditReport } from './credit-actions.js';
import { resolveEntity } from '../registry/routes.js';
import { PDF_LINK_TTL_S, signPdfLink, verifyPdfLink } from './pdf-link.js';

export const PDF_PATH = '/api/credit-report-pdf';

const EntityRef = nameText(200);

/** What the printed report shows beside the sealed report, read from the read models after it was recorded. */
function reportContext(s: Service, report: CreditReport, org_id: string): ReportContext | undefined {
  const entity = s.runtime.state(registryProjection).entities[report.entity_id];
  if (!entity) return undefined;
  const credit = s.runtime.state(creditProjection);
  const inquiries = inquiriesOf(credit, report.entity_id);
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
  entity: EntityRef,
  key: z.string().max(200).optional(),
  link: z.string().max(1000).optional(),
});

/** Whether the key rides in the query string rather than a header. */
function keyInQuery(req: Request): boolean {
  const inHeader = API_KEY_HEADERS.some((h) => req.get(h)) || req.get('authorization') !== undefined;
  return !inHeader && typeof req.query.key === 'string';
}

/** Neither the URL (it may hold a credential) nor the report may be passed on or kept. */
const noLeaks: RequestHandler = (_req, res, next) => {
  res.set('Referrer-Policy', 'no-referrer');
  res.set('Cache-Control', 'no-store');
  next();
};

/** A signed link authenticates as the key that asked for it, for the entity it names, until it expires. */
function linkAuth(s: Service): RequestHandler {
  const byKey = authenticate(s.resolveKey, { scope: 'credit:read', allowQueryKey: true });
  return (req, res, next) => {
    const link = req.query.link;
    if (link === undefined) {
      byKey(req, res, (error?: unknown) => {
        if (error) return next(error);
        if (keyInQuery(req) && !authOf(req).scopes.includes('credit:read')) {
          return next(
            new ProblemError(
              'FORBIDDEN',
              'a key in the query string must itself hold the credit:read scope',
              {
                required_scope: 'credit:read',
              },
            ),
          );
        }
        next();
      });
      return;
    }
    const entity = EntityRef.safeParse(req.query.entity);
    const claims = typeof link === 'string' ? verifyPdfLink(s.linkKey, link, s.clock.now()) : null;
    const auth =
      claims && entity.success && claims.entity === entity.data
        ? liveKeyById(s.runtime.state(keysProjection), claims.key_id)
        : null;
    if (!auth || typeof req.query.key === 'string') {
      next(
        new ProblemError(
          'UNAUTHENTICATED',
          `${UNAUTHENTICATED_DETAIL}; a report link works for its entity for ${PDF_LINK_TTL_S} s (ask action=pdf_link for a new one)`,
        ),
      );
      return;
    }
    ctxOf(req).auth = auth;
    if (!grantsScope(auth.scopes, 'credit:read')) {
      next(
        new ProblemError('FORBIDDEN', 'this key lacks the credit:read scope', {
          required_scope: 'credit:read',
        }),
      );
      return;
    }
    next();
  };
}

/** `action=pdf_link`: a link that opens one entity's report for PDF_LINK_TTL_S seconds; free. */
export function pdfLinkAction(s: Service): LenderAction {
  return defineAction({
    name: 'pdf_link',
    description: `A signed link to the printable credit report of one entity, valid ${PDF_LINK_TTL_S} s, instead of a key in the URL (does not count; opening it counts like score).`,
    body_doc: {
      entity: 'legal name, alias, EIN or ent_ id (the link opens the entity it resolves to, by id)',
    },
    schema: z.strictObject({ entity: EntityRef }),
    counted: false,
    handle(req, body) {
      const auth = authOf(req);
      // Resolved now, like every other action (404 with candidates, 409 ambiguous): a link for a
      // reference that names no one would open nothing but a 404, and only once it is clicked.
      const entity = resolveEntity(s.runtime.state(registryProjection), body.entity);
      const now = s.clock.now();
      const exp = Math.floor(now.getTime() / 1000) + PDF_LINK_TTL_S;
      const token = signPdfLink(s.linkKey, { entity: entity.entity_id, key_id: auth.key_id, exp });
      const query = new URLSearchParams({ entity: entity.entity_id, link: token });
      const path = `${PDF_PATH}?${query.toString()}`;
      return {
        entity: entity.legal_name,
        entity_id: entity.entity_id,
        url: `${s.publicBaseUrl}${path}`,
        path,
        expires_at: new Date(exp * 1000).toISOString(),
      };
    },
  });
}

export function mountCreditReportPdf(s: Service, sam: SamApiSource | null = null): void {
  s.routes.addRecordedRead(PDF_PATH, noLeaks, linkAuth(s), async (req, res) => {
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
  });
}
