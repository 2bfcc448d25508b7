/**
 * The eleven rail GETs and `scan_all` (SPEC §7): org-scoped, optionally narrowed to one of the
 * org's projects (another org's project id is a 404), each result anchored to the ledger head.
 */
import type { Request } from 'express';
import { z } from 'zod';
import { governance } from '../../projections/governance.js';
import { observationsProjection } from '../../projections/observations.js';
import { projectsProjection } from '../../projections/projects.js';
import { authOf } from '../platform/http/context.js';
import { readAnchor } from '../platform/http/ledger-anchor.js';
import { ProblemError } from '../platform/http/problem.js';
import { projectGuard, type Service } from '../platform/http/service.js';
import { parseWith } from '../platform/http/validate.js';
import { getProject } from '../projects/queries.js';
import type { LedgerHead } from '../platform/ledger/envelope.js';
import type { PlatformWatermarks, RailFacts } from './rail.js';
import { RAILS } from './registry.js';
import { railFactsFor } from './rail-facts.js';
import { railResult } from './result.js';
import { scanAllResult } from './scan-all.js';

const RailQuery = z.strictObject({ project_id: z.string().min(1).max(80).optional() });
const ScanAllQuery = z.strictObject({
  action: z.literal('scan_all'),
  project_id: z.string().min(1).max(80).optional(),
});

/** Projects whose latest scan is BLOCKED: the counterparty rail's "distressed" (DOMAIN §8). */
export function distressedProjects(s: Service): string[] {
  const g = s.runtime.state(governance);
  return Object.entries(g.latest_scan_by_project)
    .filter(([, scanId]) => g.scans[scanId]?.scan_verdict === 'BLOCKED')
    .map(([projectId]) => projectId);
}

/** The org's rail facts, narrowed to `project_id` when given (404 unless it is the org's). */
export async function orgRailFacts(
  s: Service,
  org_id: string,
  project_id: string | undefined,
): Promise<{ facts: RailFacts; anchor: Awaited<ReturnType<typeof readAnchor>> }> {
  const projects = s.runtime.state(projectsProjection);
  if (project_id !== undefined && !getProject(projects, org_id, project_id))
    throw new ProblemError('NOT_FOUND', `no project ${project_id}`);
  const anchor = await readAnchor(s);
  const facts = railFactsFor(projects, s.runtime.state(observationsProjection), org_id, {
    project_id: project_id ?? null,
    platform: platformWatermarks(s, anchor),
    distressed_project_ids: distressedProjects(s),
  });
  return { facts, anchor };
}

/** The chain verifier's watermark and the read models' lag, for rail facts read at `anchor`. */
export function platformWatermarks(s: Service, anchor: LedgerHead): PlatformWatermarks {
  const status = s.verifier.status();
  return {
    verified_through: status.ok
      ? status.verified_through
      : Math.min(status.verified_through, (status.issues[0]?.seq ?? 1) - 1),
    ledger_head: anchor,
    projection_lag: Math.max(0, s.ledger.head.seq - s.runtime.position),
  };
}

export function mountRails(s: Service): void {
  const guard = projectGuard(s, 'governance:read');
  for (const rail of RAILS) {
    s.routes.add('GET', rail.path, ...guard, async (req: Request, res) => {
      const { project_id } = parseWith(RailQuery, req.query, 'query');
      const { facts, anchor } = await orgRailFacts(s, authOf(req).org_id, project_id);
      res.json(railResult(rail, facts, s.clock.now(), anchor));
    });
  }
  s.routes.add('GET', '/api/governance-rails', ...guard, async (req: Request, res) => {
    const { project_id } = parseWith(ScanAllQuery, req.query, 'query');
    const { facts, anchor } = await orgRailFacts(s, authOf(req).org_id, project_id);
    res.json({ ...scanAllResult(facts, s.clock.now()), ledger: anchor });
  });
}
