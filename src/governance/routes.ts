/**
 * The kernel scan and capital adequacy (SPEC §6): decide on the caller's project, record the result
 * as an event carrying its payload hash (audit-verify finds it), answer with provenance anchored to
 * that event.
 */
import { z } from 'zod';
import { governance } from '../../projections/governance.js';
import { idFromUuid } from '../platform/ids.js';
import { authOf } from '../platform/http/context.js';
import { runCommand } from '../platform/http/command.js';
import { provenanceOf } from '../platform/http/provenance.js';
import { projectGuard, type Service } from '../platform/http/service.js';
import { parseWith } from '../platform/http/validate.js';
import { isoDate } from '../platform/clock.js';
import { adequacyOf, projectContext, type CreditView } from './context.js';
import { governanceEvent, payloadHash, projectStream, type AdequacyAssessedData } from './events.js';
import { decideScan, scanProject } from './scan.js';

const projectId = z.string().min(1).max(80);
export const KernelScanBody = z.strictObject({ action: z.literal('full_scan'), project_id: projectId });
export const AdequacyBody = z.strictObject({ action: z.literal('project'), project_id: projectId });

export function mountGovernance(s: Service, credit: CreditView): void {
  const write = projectGuard(s, 'governance:write', { appends: true });

  s.routes.add('POST', '/api/kernel-core', ...write, async (req, res) => {
    const body = parseWith(KernelScanBody, req.body);
    const ctx = await projectContext(s, authOf(req).org_id, body.project_id);
    const committed = await runCommand(s.ledger, req, (_head, eventId) => {
      const now = s.clock.now();
      const result = scanProject(ctx.input, now);
      const findings = [...result.contradictions, ...result.temporal];
      const adequacy = adequacyOf(s, ctx, credit, findings);
      const payload = {
        scan_id: idFromUuid('SCN-', eventId),
        project_id: ctx.project.id,
        scan_verdict: result.scan_verdict,
        contradictions: { count: result.contradictions.length, items: result.contradictions },
        temporal: { count: result.temporal.length, items: result.temporal },
        adequacy: { overall: adequacy.overall, vector: adequacy.vector },
        as_of: now.toISOString(),
      };
      const events = decideScan(s.runtime.state(governance), result, {
        scan_id: payload.scan_id,
        now,
        payload_hash: payloadHash(payload),
        event_id: eventId,
      });
      return { events, result: payload };
    });
    const event = committed.events[0]!;
    res.status(201).json({
      ...committed.result,
      provenance: provenanceOf(committed.result, { seq: event.seq, hash: event.hash }),
    });
  });

  s.routes.add('POST', '/api/adequacy', ...write, async (req, res) => {
    const body = parseWith(AdequacyBody, req.body);
    const ctx = await projectContext(s, authOf(req).org_id, body.project_id);
    const committed = await runCommand(s.ledger, req, (_head, eventId) => {
      const now = s.clock.now();
      const adequacy = adequacyOf(s, ctx, credit);
      const payload = {
        assessment_id: idFromUuid('ADQ-', eventId),
        project_id: ctx.project.id,
        adequacy: {
          overall: adequacy.overall,
          vector: adequacy.vector,
          in_balance: adequacy.in_balance,
          figures: adequacy.figures,
        },
        as_of: now.toISOString(),
      };
      const hash = payloadHash(payload);
      const data: AdequacyAssessedData = {
        assessment_id: payload.assessment_id,
        project_id: ctx.project.id,
        overall: adequacy.overall,
        vector: adequacy.vector,
        in_balance: adequacy.in_balance,
        assessed_on: isoDate(now),
        payload_hash: hash,
        artifacts: [{ kind: 'adequacy', hash }],
      };
      return {
        events: [governanceEvent('AdequacyAssessed', projectStream(ctx.project.id), data, eventId)],
        result: payload,
      };
    });
    const event = committed.events[0]!;
    res.status(201).json({
      ...committed.result,
      provenance: provenanceOf(committed.result, { seq: event.seq, hash: event.hash }),
    });
  });
}
