/**
 * A project's governance at a glance (the project page, issue 18): its findings — raised by the
 * facts at the head, or recorded and since cured — with evidence and cure status, and its latest
 * certification with the badge's status. Read-only; another org's project answers like an unknown one.
 */
import { z } from 'zod';
import { isoDate } from '../platform/clock.js';
import { authOf } from '../platform/http/context.js';
import { ProblemError } from '../platform/http/problem.js';
import { projectGuard, type Service } from '../platform/http/service.js';
import { parseWith } from '../platform/http/validate.js';
import { badgeStatus } from '../certification/index.js';
import { headNow } from './command.js';
import type { Evidence, Finding, FindingRecord } from './findings.js';
import { projectAt, type CreditView, type GovernanceHead } from './head.js';
import { scanProject } from './scan.js';

const IdParams = z.strictObject({ id: z.string().min(1).max(80) });

export interface FindingView {
  id: string;
  code: string;
  severity: Finding['severity'];
  draw_id: string | null;
  entity_id: string | null;
  title: string;
  detail: string;
  evidence: Evidence[];
  arose_on: string;
  curable_by_documents: boolean;
  cure: {
    status: 'OPEN' | 'RESOLVED';
    resolved_on: string | null;
    /** `resolution`: a recorded resolution; `rescan`: the facts no longer raise it. */
    resolved_by: 'resolution' | 'rescan' | null;
    resolution: string | null;
    evidence_document_id: string | null;
  };
}

/** The project's findings: open ones as the facts raise them now, then the cured ones on record. */
export function projectFindings(
  head: GovernanceHead,
  org_id: string,
  project_id: string,
  now: Date,
): FindingView[] | null {
  const ctx = projectAt(head, org_id, project_id, now);
  if (!ctx) return null;
  const scan = scanProject(ctx.input, now);
  const current = [...scan.contradictions, ...scan.temporal];
  const open = new Set(current.map((f) => f.id));
  const resolution = (id: string) => head.projects.resolutions[id];
  const view = (f: Finding, record: FindingRecord | undefined, isOpen: boolean): FindingView => {
    const r = resolution(f.id);
    return {
      id: f.id,
      code: f.code,
      severity: f.severity,
      draw_id: f.draw_id,
      entity_id: f.entity_id,
      title: f.title,
      detail: f.detail,
      evidence: f.evidence,
      arose_on: f.arose_on,
      curable_by_documents: f.curable_by_documents,
      cure: {
        status: isOpen ? 'OPEN' : 'RESOLVED',
        resolved_on: isOpen ? null : (r?.resolved_on ?? record?.resolved_on ?? null),
        resolved_by: isOpen ? null : r ? 'resolution' : 'rescan',
        resolution: isOpen ? null : (r?.resolution ?? null),
        evidence_document_id: isOpen ? null : (r?.evidence_document_id ?? null),
      },
    };
  };
  const recorded = (head.governance.findings_by_project[project_id] ?? [])
    .map((id) => head.governance.findings[id])
    .filter((f): f is FindingRecord => f !== undefined && f.org_id === org_id && !open.has(f.id));
  return [
    ...current.map((f) => view(f, head.governance.findings[f.id], true)),
    ...recorded.map((f) => view(f, f, false)),
  ];
}

export function mountProjectOverview(s: Service, credit: CreditView): void {
  s.routes.add('GET', '/api/projects/:id/governance', ...projectGuard(s, 'governance:read'), (req, res) => {
    const { id } = parseWith(IdParams, req.params, 'params');
    const org_id = authOf(req).org_id;
    const now = s.clock.now();
    const head = headNow(s, credit);
    const findings = projectFindings(head, org_id, id, now);
    if (findings === null) throw new ProblemError('NOT_FOUND', `no project ${id}`);
    const certId = head.governance.latest_certification_by_project[id];
    const cert = certId === undefined ? undefined : head.governance.certifications[certId];
    res.json({
      project_id: id,
      findings,
      open_findings: findings.filter((f) => f.cure.status === 'OPEN').length,
      certification: cert
        ? {
            id: cert.certification_id,
            grade: cert.grade,
            score: cert.score,
            issued_on: cert.issued_on,
            valid_until: cert.valid_until,
            show_project_name: cert.show_project_name === true,
            status: badgeStatus(
              { id: cert.certification_id, valid_until: cert.valid_until },
              certId ?? null,
              isoDate(now),
            ),
            badge_url: `${s.publicBaseUrl}/api/certification?action=badge&cert=${cert.certification_id}`,
          }
        : null,
      as_of: now.toISOString(),
    });
  });
}
