/**
 * The eleven rail GETs and `scan_all` (SPEC §7): org-scoped, optionally narrowed to one of the
 * org's projects (another org's project id is a 404). Thin: parse, hand the scan to its decider at
 * the ledger head (`governanceCommand`), answer what it recorded.
 */
import type { Request } from 'express';
import { z } from 'zod';
import { governanceCommand } from '../governance/command.js';
import type { CreditView } from '../governance/head.js';
import { projectGuard, type Service } from '../platform/http/service.js';
import { parseWith } from '../platform/http/validate.js';
import { RAILS } from './registry.js';
import { decideRailScan, decideScanAll } from './scan-command.js';

const RailQuery = z.strictObject({ project_id: z.string().min(1).max(80).optional() });
const ScanAllQuery = z.strictObject({
  action: z.literal('scan_all'),
  project_id: z.string().min(1).max(80).optional(),
});

export function mountRails(s: Service, credit: CreditView): void {
  const guard = projectGuard(s, 'governance:read');
  for (const rail of RAILS) {
    s.routes.addRecordedRead(rail.path, ...guard, async (req: Request, res) => {
      const { project_id } = parseWith(RailQuery, req.query, 'query');
      await governanceCommand(s, credit, req, res, decideRailScan(rail, project_id ?? null), undefined, 200);
    });
  }
  s.routes.addRecordedRead('/api/governance-rails', ...guard, async (req: Request, res) => {
    const { project_id } = parseWith(ScanAllQuery, req.query, 'query');
    await governanceCommand(s, credit, req, res, decideScanAll(project_id ?? null), undefined, 200);
  });
}
