/**
 * Rail scans as governance commands (issue 14: every scan is recorded): a single rail or
 * `scan_all` is evaluated on the read models at the ledger head, inside the serialized commit, and
 * recorded (`RailScanned` / `RailsScanned`) through the shared `recordResult`, so the answer's
 * provenance hash is an artifact `audit-verify` finds AUTHENTIC.
 */
import type { GovernanceHead } from '../governance/head.js';
import { projectStream } from '../governance/events.js';
import {
  accepted,
  recordResult,
  rejected,
  type GovernanceCtx,
  type GovernanceDecided,
} from '../governance/record.js';
import { orgStream } from '../projects/events.js';
import { getProject } from '../projects/queries.js';
import type { Rail, RailFacts } from './rail.js';
import { railPayload } from './result.js';
import { scanAll } from './scan-all.js';

/** The org's facts at the head, narrowed to `project_id` (null when it is not the org's project). */
function factsAt(head: GovernanceHead, ctx: GovernanceCtx, project_id: string | null): RailFacts | null {
  if (project_id !== null && !getProject(head.projects, ctx.org_id, project_id)) return null;
  return head.railFacts(ctx.org_id, project_id);
}

const streamOf = (ctx: GovernanceCtx, project_id: string | null): string =>
  project_id === null ? orgStream(ctx.org_id) : projectStream(project_id);

/** `GET /api/<rail>`: the rail at the head, recorded as `RailScanned`. */
export function decideRailScan(
  rail: Rail,
  project_id: string | null,
): (head: GovernanceHead, ctx: GovernanceCtx) => GovernanceDecided {
  return (head, ctx) => {
    const facts = factsAt(head, ctx, project_id);
    if (facts === null) return rejected('NOT_FOUND', `no project ${String(project_id)}`);
    const payload = railPayload(rail, facts, ctx.now);
    const recorded = recordResult({
      type: 'RailScanned',
      stream: streamOf(ctx, project_id),
      eventId: ctx.eventId,
      payload: { ...payload },
      kind: 'rail_scan',
      data: ({ payload_hash, artifacts }) => ({
        rail: payload.rail,
        project_id,
        posture: payload.posture,
        score: payload.score,
        finding_codes: payload.findings.map((f) => f.code),
        coverage: payload.coverage,
        as_of: payload.as_of,
        payload_hash,
        artifacts,
      }),
    });
    return accepted([recorded.event], recorded.payload, 0, 'provenance', true);
  };
}

/** `GET /api/governance-rails?action=scan_all`: every rail at the head, recorded as `RailsScanned`. */
export function decideScanAll(
  project_id: string | null,
): (head: GovernanceHead, ctx: GovernanceCtx) => GovernanceDecided {
  return (head, ctx) => {
    const facts = factsAt(head, ctx, project_id);
    if (facts === null) return rejected('NOT_FOUND', `no project ${String(project_id)}`);
    const scan = scanAll(facts, ctx.now);
    const payload = { ...scan, as_of: ctx.now.toISOString() };
    const recorded = recordResult({
      type: 'RailsScanned',
      stream: streamOf(ctx, project_id),
      eventId: ctx.eventId,
      payload,
      kind: 'rail_scan_all',
      data: ({ payload_hash, artifacts }) => ({
        project_id,
        governance_posture: scan.governance_posture,
        composite_score: scan.composite_score,
        rails: scan.rails.map((r) => ({ name: r.name, posture: r.posture, score: r.score })),
        not_clear: scan.not_clear,
        as_of: payload.as_of,
        payload_hash,
        artifacts,
      }),
    });
    // Provenance like a single rail's (its three digests are the recorded artifacts); the bare
    // `ledger` it answered before stays within 1.x. Both anchors are outside the hashed payload.
    return accepted([recorded.event], recorded.payload, 0, 'provenance_and_ledger', true);
  };
}
