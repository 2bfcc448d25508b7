/**
 * Certification (SPEC §6, DOMAIN §11): issue a certificate for one of the caller's projects, and
 * serve its public SVG badge, whose status (VALID / EXPIRED / SUPERSEDED) is read at request time.
 */
import { z } from 'zod';
import { governance } from '../../projections/governance.js';
import { projectsProjection } from '../../projections/projects.js';
import { isoDate } from '../platform/clock.js';
import { ProblemError } from '../platform/http/problem.js';
import { projectGuard, type Service } from '../platform/http/service.js';
import { parseWith } from '../platform/http/validate.js';
import { governanceCommand } from '../governance/command.js';
import type { CreditView } from '../governance/head.js';
import { renderBadge } from './badge.js';
import { badgeStatus } from './certify.js';
import { decideIssueCertification } from './decide.js';

export const IssueCertificationBody = z.strictObject({
  action: z.literal('issue'),
  project_id: z.string().min(1).max(80),
  /** Show the project's name on the public badge (default false: the badge names no project). */
  show_project_name: z.boolean().optional(),
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
      await governanceCommand(s, credit, req, res, (head, ctx) =>
        decideIssueCertification(
          head,
          {
            type: 'IssueCertification',
            project_id: body.project_id,
            show_project_name: body.show_project_name === true,
          },
          ctx,
        ),
      );
    },
  );

  // Public: badges are embedded in lenders' and owners' pages; they show only what the badge says,
  // and the project's name only when the lender chose so at certification.
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
      project_name: record.show_project_name === true ? (project?.name ?? null) : null,
    });
    // Embeddable on a lender's or an owner's own site: helmet's same-origin CORP is lifted here only.
    res
      .set('Cache-Control', 'no-cache')
      .set('Cross-Origin-Resource-Policy', 'cross-origin')
      .type('image/svg+xml')
      .send(svg);
  });
}
