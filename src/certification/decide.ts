/**
 * The certification decider (DOMAIN §11, ARCHITECTURE §5): certify one of the caller's projects on
 * the facts at the ledger head. It scans those facts itself and records the scan beside the
 * certificate, so a project nobody scanned cannot be certified as if it were clean; the score is
 * the adequacy overall from the same findings, capped at 64 while any is BLOCKING.
 */
import { idFromUuid } from '../platform/ids.js';
import { isoDate } from '../platform/clock.js';
import { adequacyAt, companionEventId, scanAt } from '../governance/decide.js';
import { projectStream } from '../governance/events.js';
import { projectAt, type GovernanceHead } from '../governance/head.js';
import {
  accepted,
  recordResult,
  rejected,
  type GovernanceCtx,
  type GovernanceDecided,
} from '../governance/record.js';
import { badgeUrl, certify } from './certify.js';

export interface IssueCertification {
  type: 'IssueCertification';
  project_id: string;
  /** Whether the public badge may show the project's name (the lender's choice; default no). */
  show_project_name?: boolean;
}

export function decideIssueCertification(
  head: GovernanceHead,
  command: IssueCertification,
  ctx: GovernanceCtx,
): GovernanceDecided {
  const project = projectAt(head, ctx.org_id, command.project_id, ctx.now);
  if (!project) return rejected('NOT_FOUND', `no project ${command.project_id}`);
  const scan = scanAt(head, project, ctx.now, companionEventId(ctx.eventId, 'scan'));
  const adequacy = adequacyAt(head, project, scan.findings, ctx.now);
  const terms = certify({
    adequacy_overall: adequacy.overall.score,
    open_blocking: scan.findings.filter((f) => f.severity === 'BLOCKING').length,
    issued_on: isoDate(ctx.now),
  });
  const id = idFromUuid('CERT-', ctx.eventId);
  const certification = {
    id,
    project_id: project.project.id,
    grade: terms.grade,
    score: terms.score,
    capped: terms.capped,
    issued_on: terms.issued_on,
    valid_until: terms.valid_until,
    badge_url: badgeUrl(ctx.publicBaseUrl, id),
    show_project_name: command.show_project_name === true,
    scan_id: scan.payload['scan_id'],
  };
  const payload = { certification, as_of: ctx.now.toISOString() };
  const recorded = recordResult({
    type: 'CertificationIssued',
    stream: projectStream(project.project.id),
    eventId: ctx.eventId,
    payload,
    kind: 'certification',
    data: (r) => ({
      certification_id: id,
      project_id: project.project.id,
      grade: terms.grade,
      score: terms.score,
      issued_on: terms.issued_on,
      valid_until: terms.valid_until,
      show_project_name: command.show_project_name === true,
      ...r,
    }),
  });
  return accepted([...scan.events, recorded.event], payload);
}
