/**
 * Insurance continuity: for each coverage a project requires of its GC (DOMAIN §3 INSURANCE_EXPIRY
 * "held by the GC"), the days from project start to today (or completion) on which no certificate
 * of the GC, at or above the required limit, was in force. Feeds compliance_standing (CS03) and the
 * state machine's "insurance lapse" (each gap is one lapse).
 */
import type {
  CoverageType,
  EntityId,
  InsuranceCertificate,
  IsoDate,
  Project,
  ProjectsState,
} from '../projects/facts.js';
import { addDays, daysBetween, minDate } from './dates.js';
import { documentsOf } from './signals.js';

export interface CoverageGap {
  from: IsoDate;
  to: IsoDate;
}

export interface CoverageWindow {
  project_id: string;
  coverage: CoverageType;
  from: IsoDate;
  to: IsoDate;
  /** Days in the window, both ends included. */
  days: number;
  uncovered_days: number;
  gaps: CoverageGap[];
  certificate_ids: string[];
}

function validCertificates(
  projects: ProjectsState,
  project: Project,
  entity: EntityId,
  coverage: CoverageType,
  minLimit: number,
): InsuranceCertificate[] {
  return documentsOf(projects, project.id, 'INSURANCE_CERTIFICATE').filter(
    (d) =>
      d.insured === entity &&
      d.coverage_type === coverage &&
      d.limit >= minLimit &&
      d.effective_on <= d.expires_on,
  );
}

/** Uncovered stretches of [from, to] given certificates' [effective_on, expires_on] (inclusive). */
export function gapsIn(
  from: IsoDate,
  to: IsoDate,
  certificates: readonly InsuranceCertificate[],
): CoverageGap[] {
  const spans = certificates
    .map((c) => ({ start: c.effective_on, end: c.expires_on }))
    .sort((a, b) => a.start.localeCompare(b.start));
  const gaps: CoverageGap[] = [];
  let cursor = from;
  for (const span of spans) {
    if (cursor > to) break;
    if (span.end < cursor) continue;
    if (span.start > cursor) gaps.push({ from: cursor, to: minDate(addDays(span.start, -1), to) });
    if (span.end >= cursor) cursor = addDays(span.end, 1);
  }
  if (cursor <= to) gaps.push({ from: cursor, to });
  return gaps;
}

/** Coverage windows of every required coverage on the projects the entity is GC of, started by today. */
export function coverageWindows(
  projects: ProjectsState,
  gcProjects: readonly Project[],
  entity: EntityId,
  today: IsoDate,
): CoverageWindow[] {
  const out: CoverageWindow[] = [];
  for (const project of gcProjects) {
    if (project.start_date > today) continue;
    const from = project.start_date;
    const to = minDate(project.completion_date, today);
    if (to < from) continue;
    for (const required of project.required_coverages) {
      const certificates = validCertificates(projects, project, entity, required.type, required.min_limit);
      const gaps = gapsIn(from, to, certificates);
      out.push({
        project_id: project.id,
        coverage: required.type,
        from,
        to,
        days: daysBetween(from, to) + 1,
        uncovered_days: gaps.reduce((sum, g) => sum + daysBetween(g.from, g.to) + 1, 0),
        gaps,
        certificate_ids: certificates.map((c) => c.id).sort(),
      });
    }
  }
  return out;
}
