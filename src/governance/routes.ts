/**
 * The kernel scan and capital adequacy (SPEC §6): thin routes — parse, hand the command to its
 * decider at the ledger head (`governanceCommand`), answer what it recorded.
 */
import { z } from 'zod';
import { projectGuard, type Service } from '../platform/http/service.js';
import { parseWith } from '../platform/http/validate.js';
import { governanceCommand } from './command.js';
import { decideGovernance } from './decide.js';
import type { CreditView } from './head.js';

const projectId = z.string().min(1).max(80);
export const KernelScanBody = z.strictObject({ action: z.literal('full_scan'), project_id: projectId });
export const AdequacyBody = z.strictObject({ action: z.literal('project'), project_id: projectId });

export function mountGovernance(s: Service, credit: CreditView): void {
  const write = projectGuard(s, 'governance:write', { appends: true });

  s.routes.add('POST', '/api/kernel-core', ...write, async (req, res) => {
    const body = parseWith(KernelScanBody, req.body);
    await governanceCommand(s, credit, req, res, (head, ctx) =>
      decideGovernance(head, { type: 'ScanProject', project_id: body.project_id }, ctx),
    );
  });

  s.routes.add('POST', '/api/adequacy', ...write, async (req, res) => {
    const body = parseWith(AdequacyBody, req.body);
    await governanceCommand(s, credit, req, res, (head, ctx) =>
      decideGovernance(head, { type: 'AssessAdequacy', project_id: body.project_id }, ctx),
    );
  });
}
