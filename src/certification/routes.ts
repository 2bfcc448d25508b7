/**
 * Certification (SPEC §6, DOMAIN §11): issue a certificate for one of the caller's projects, and
 * serve its public SVG badge, whose status (VALID / EXPIRED / SUPERSEDED) is read at request time.
 */
import { z } from 'zod';
import { governance, openFindingsOf } from '../../projections/governance.js';
import { projectsProjection } from '../../projections/projects.js';
import { isoDate } from '../platform/clock.js';
import { authOf } from '../platform/http/context.js';
import { runCommand } from '../platform/http/command.js';
import { ProblemError } from '../platform/http/problem.js';
import { provenanceOf } from '../platform/http/provenance.js';
import { projectGuard, type Service } from '../platform/http/service.js';
import { parseWith } from '../platform/http/validate.js';
import { idFromUuid } from '../platform/ids.js';
import { adequacyOf, projectContext, type CreditView } from '../governance/context.js';
import {
  governanceEvent,
  payloadHash,
  projectStream,
  type CertificationIssuedData,
} from '../governance/events.js';
import { renderBadge } from './badge.js';
import { badgeStatus, badgeUrl, certify } from './certify.js';

export const IssueCertificationBody = z.strictObject({
  action: z.literal('issue'),
  project_id: z.string().min(1).max(80),
});
const BadgeQuery = z.strictObject({
  action: z.literal('badge'),
  cert: z.string().regex(/^CERT-[a-z2-7]{16}$/, 'a certification id, CERT-…'),
});

export function mountCertification(s: Service, credit: CreditView): void {
  s.routes.add(
    'POST',
    '/api/certification',
    ...projectGuard(s, 'governance:write', { appends: true }),
    async (req, res) => {
      const body = parseWith(IssueCertificationBody, req.body);
      const ctx = await projectContext(s, authOf(req).org_id, body.project_id);
      const committed = await runCommand(s.ledger, req, (_head, eventId) => {
        const now = s.clock.now();
        const open = openFindingsOf(s.runtime.state(governance), ctx.project.id);
        const adequacy = adequacyOf(s, ctx, credit, open);
        const terms = certify({
          adequacy_overall: adequacy.overall.score,
          open_blocking: open.filter((f) => f.severity === 'BLOCKING').length,
          issued_on: isoDate(now),
        });
        const id = idFromUuid('CERT-', eventId);
        const certification = {
          id,
          project_id: ctx.project.id,
          grade: terms.grade,
          score: terms.score,
          capped: terms.capped,
          issued_on: terms.issued_on,
          valid_until: terms.valid_until,
          badge_url: badgeUrl(s.publicBaseUrl, id),
        };
        const payload = { certification, as_of: now.toISOString() };
        const hash = payloadHash(payload);
        const data: CertificationIssuedData = {
          certification_id: id,
          project_id: ctx.project.id,
          grade: terms.grade,
          score: terms.score,
          issued_on: terms.issued_on,
          valid_until: terms.valid_until,
          payload_hash: hash,
          artifacts: [{ kind: 'certification', hash }],
        };
        return {
          events: [governanceEvent('CertificationIssued', projectStream(ctx.project.id), data, eventId)],
          result: payload,
        };
      });
      const event = committed.events[0]!;
      res.status(201).json({
        ...committed.result,
        provenance: provenanceOf(committed.result, { seq: event.seq, hash: event.hash }),
      });
    },
  );

  // Public: badges are embedded in lenders' and owners' pages; they show only what the badge says.
  s.routes.add('GET', '/api/certification', (req, res) => {
    const { cert } = parseWith(BadgeQuery, req.query, 'query');
    const g = s.runtime.state(governance);
    const record = g.certifications[cert];
    if (!record) throw new ProblemError('NOT_FOUND', `no certification ${cert}`);
    const project = s.runtime.state(projectsProjection).projects[record.project_id];
    const status = badgeStatus(
      { id: cert, valid_until: record.valid_until },
      g.latest_certification_by_project[record.project_id] ?? null,
      isoDate(s.clock.now()),
    );
    const svg = renderBadge({
      grade: record.grade,
      score: record.score,
      status,
      issued_on: record.issued_on,
      project_name: project?.name ?? record.project_id,
    });
    res.set('Cache-Control', 'no-cache').type('image/svg+xml').send(svg);
  });
}
