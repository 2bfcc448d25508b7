/**
 * The kernel scan (DOMAIN §2–§3): every contradiction type and temporal rule over one project's
 * facts, and the scan verdict. Pure: facts and `now` in, findings out.
 */
import type { EventInput } from '../platform/ledger/index.js';
import { isoDate } from '../platform/clock.js';
import type { GovernanceState } from '../../projections/governance.js';
import { openFindingsOf } from '../../projections/governance.js';
import type { ContradictionCode, Finding, FindingCode, ScanResult, TemporalCode } from './findings.js';
import { resolutionCovers } from './findings.js';
import type { ArtifactRef, ProjectScannedData } from './events.js';
import { governanceEvent, projectStream } from './events.js';
import type { ScanEngine, ScanInput } from './scan-input.js';
import { contractSumMismatch } from './contradictions/contract-sum-mismatch.js';
import { rollForwardMismatch } from './contradictions/roll-forward-mismatch.js';
import { inspectionVariance } from './contradictions/inspection-variance.js';
import { lienWaiverMismatch } from './contradictions/lien-waiver-mismatch.js';
import { duplicateOrUnsupportedCost } from './contradictions/duplicate-or-unsupported-cost.js';
import { retainageMiscalculated } from './contradictions/retainage-miscalculated.js';
import { storedMaterialsUnsupported } from './contradictions/stored-materials-unsupported.js';
import { insuranceExpiry } from './temporal/insurance-expiry.js';
import { waiverSequence } from './temporal/waiver-sequence.js';
import { inspectionFreshness } from './temporal/inspection-freshness.js';
import { titleDateDown } from './temporal/title-date-down.js';
import { changeOrderPrecedence } from './temporal/change-order-precedence.js';
import { payPeriodSequence } from './temporal/pay-period-sequence.js';

export type { ScanInput, ScanEngine, ExclusionRegistry } from './scan-input.js';
export { scanInputFor } from './scan-input.js';

/** One engine per §2 contradiction type, in CONTRADICTION_CODES order (the compile DAG's layer 2). */
export const CONTRADICTION_ENGINES: Readonly<Record<ContradictionCode, ScanEngine>> = {
  CONTRACT_SUM_MISMATCH: contractSumMismatch,
  ROLL_FORWARD_MISMATCH: rollForwardMismatch,
  INSPECTION_VARIANCE: inspectionVariance,
  LIEN_WAIVER_MISMATCH: lienWaiverMismatch,
  DUPLICATE_OR_UNSUPPORTED_COST: duplicateOrUnsupportedCost,
  RETAINAGE_MISCALCULATED: retainageMiscalculated,
  STORED_MATERIALS_UNSUPPORTED: storedMaterialsUnsupported,
};

/** One engine per §3 temporal rule, in TEMPORAL_CODES order (the compile DAG's layer 3). */
export const TEMPORAL_ENGINES: Readonly<Record<TemporalCode, ScanEngine>> = {
  INSURANCE_EXPIRY: insuranceExpiry,
  WAIVER_SEQUENCE: waiverSequence,
  INSPECTION_FRESHNESS: inspectionFreshness,
  TITLE_DATE_DOWN: titleDateDown,
  CHANGE_ORDER_PRECEDENCE: changeOrderPrecedence,
  PAY_PERIOD_SEQUENCE: payPeriodSequence,
};

/** Every rule by its code: what the compile DAG wraps one engine per code around (DOMAIN §9 layers 2–3). */
export const FINDING_ENGINES: Readonly<Record<FindingCode, ScanEngine>> = {
  ...CONTRADICTION_ENGINES,
  ...TEMPORAL_ENGINES,
};

/** DOMAIN §2: BLOCKED if any BLOCKING finding is open, else WARNING if any WARNING, else CLEAN. */
export function scanVerdict(findings: readonly Finding[]): ScanResult['scan_verdict'] {
  if (findings.some((f) => f.severity === 'BLOCKING')) return 'BLOCKED';
  if (findings.some((f) => f.severity === 'WARNING')) return 'WARNING';
  return 'CLEAN';
}

/**
 * Scans one project. Findings explicitly resolved (`input.resolutions`, by finding id) are left
 * out of the open set — DOMAIN §2 "or by an explicit resolution" — while the resolution covers
 * them as found (`resolutionCovers`): the same condition on the same facts stays resolved; found
 * graver, or on a fact the resolver did not see, it is open again.
 */
export function scanProject(input: ScanInput, now: Date): ScanResult {
  const open = (engines: Readonly<Record<string, ScanEngine>>): Finding[] =>
    dedupe(Object.values(engines).flatMap((engine) => engine(input, now))).filter(
      (f) => !resolutionCovers(input.resolutions[f.id], f),
    );
  const contradictions = open(CONTRADICTION_ENGINES);
  const temporal = open(TEMPORAL_ENGINES);
  return {
    project_id: input.project.id,
    scan_verdict: scanVerdict([...contradictions, ...temporal]),
    contradictions,
    temporal,
  };
}

/** Keeps the first finding of each id: one condition, one finding, even if two paths reach it. */
function dedupe(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => (seen.has(f.id) ? false : (seen.add(f.id), true)));
}

/** What the scan decider needs besides the result: the minted id, the clock and the payload hash. */
export interface ScanContext {
  /** `SCN-…`, minted from `event_id` when one is given. */
  scan_id: string;
  now: Date;
  /** Hash of the response payload the scan is recorded for (`payloadHash`). */
  payload_hash: string;
  /** What the scan is found by (`resultArtifacts`); the payload hash alone when not given. */
  artifacts?: ArtifactRef[];
  /** Event id to record the scan under (UUIDv5 from an Idempotency-Key, or v7). */
  event_id?: string;
}

/**
 * Records a scan (pure). `opened` = found now and not open before — new, or resolved by an earlier
 * re-scan and found again; a finding closed by explicit resolution is never re-opened. `resolved`
 * = open before and not found now: a later fact removed its condition (DOMAIN §2).
 */
export function decideScan(
  state: GovernanceState,
  result: ScanResult,
  ctx: ScanContext,
): EventInput<'ProjectScanned', ProjectScannedData>[] {
  const findings = [...result.contradictions, ...result.temporal];
  const found = new Set(findings.map((f) => f.id));
  const opened = findings
    .filter((f) => {
      const record = state.findings[f.id];
      return record === undefined || (record.status === 'RESOLVED' && record.resolved_by === 'rescan');
    })
    .map((f) => f.id);
  const resolved = openFindingsOf(state, result.project_id)
    .filter((r) => !found.has(r.id))
    .map((r) => r.id);
  const data: ProjectScannedData = {
    scan_id: ctx.scan_id,
    project_id: result.project_id,
    scan_verdict: result.scan_verdict,
    findings,
    opened,
    resolved,
    scanned_on: isoDate(ctx.now),
    payload_hash: ctx.payload_hash,
    artifacts: ctx.artifacts ?? [{ kind: 'scan', hash: ctx.payload_hash }],
  };
  return [governanceEvent('ProjectScanned', projectStream(result.project_id), data, ctx.event_id)];
}
