/**
 * A pinned in-memory ledger for governance projection specs: seals governance (and projects)
 * events the way the ledger would and folds them through the `governance` projection.
 */
import type { EventInput, SealedEvent } from '../../src/platform/ledger/index.js';
import { governance, type GovernanceState } from '../../projections/governance.js';
import type { Finding } from '../../src/governance/findings.js';
import { decideScan, type ScanContext } from '../../src/governance/scan.js';
import type { ScanResult } from '../../src/governance/findings.js';
import { fold, sealGiven } from './decider.js';
import { ORG } from './governance-fixtures.js';

export const PAYLOAD_HASH = 'a'.repeat(64);

export class GovernanceLedger {
  events: SealedEvent[] = [];
  state: GovernanceState = governance.init();

  /** Appends events recorded for `org_id` and folds them; returns the sealed events. */
  append(inputs: readonly EventInput[], org_id: string | null = ORG): SealedEvent[] {
    const last = this.events.at(-1);
    const sealed = sealGiven(
      inputs.map((e) => ({ ...e, org_id })),
      last ? { seq: last.seq, hash: last.hash } : undefined,
    );
    this.events.push(...sealed);
    this.state = fold(governance, sealed, this.state);
    return sealed;
  }

  /** Decides and records a scan; returns the recorded event. */
  scan(result: ScanResult, ctx: Omit<ScanContext, 'payload_hash'> & { payload_hash?: string }): SealedEvent {
    const events = decideScan(this.state, result, { payload_hash: PAYLOAD_HASH, ...ctx });
    return this.append(events)[0]!;
  }

  /** The explicit resolution event of the projects capability. */
  resolveFinding(finding_id: string, resolved_on: string, org_id: string = ORG): SealedEvent {
    const input: EventInput = {
      stream: `finding-${finding_id}`,
      type: 'FindingResolved',
      data: { finding_id, resolution: 'cured', resolved_on, evidence_document_id: null },
    };
    return this.append([input], org_id)[0]!;
  }
}

/** A scan result holding exactly `findings` (verdict from their severities). */
export function resultOf(project_id: string, findings: readonly Finding[]): ScanResult {
  const verdict = findings.some((f) => f.severity === 'BLOCKING')
    ? 'BLOCKED'
    : findings.length > 0
      ? 'WARNING'
      : 'CLEAN';
  return {
    project_id,
    scan_verdict: verdict,
    contradictions: findings.filter((f) => f.category === 'contradiction'),
    temporal: findings.filter((f) => f.category === 'temporal'),
  };
}
