/**
 * governance: the read model of governance results (ARCHITECTURE §6) — scans and the lifecycle of
 * their findings (open → resolved by re-scan or by explicit resolution), compilations, adequacy,
 * simulations, certifications (with supersession), notarizations, payments and blocked pushes.
 * Credit scoring reads findings by entity; payment gates read compilations and notarizations.
 * Every record copies its event's data (never aliases it) and stamps the event's org and seq.
 */
import type { SealedEvent } from '../src/platform/ledger/envelope.js';
import type { Projection } from '../src/platform/projections/runtime.js';
import type { Finding, FindingRecord } from '../src/governance/findings.js';
import type {
  AdequacyAssessedData,
  CertificationIssuedData,
  DocumentNotarizedData,
  DrawCompiledData,
  DrawConditionsAcceptedData,
  PaymentInstructionDeliveredData,
  PaymentInstructionFailedData,
  DrawRejectedData,
  DrawSimulatedData,
  PaymentPushBlockedData,
  PaymentPushedData,
  ProjectScannedData,
} from '../src/governance/events.js';
import { isGovernanceEventType } from '../src/governance/events.js';

/** Where and by whom a governance result was recorded. */
export interface RecordedResult {
  org_id: string;
  seq: number;
  recorded_at: string;
}

export interface ScanRecord extends RecordedResult {
  scan_id: string;
  project_id: string;
  scan_verdict: ProjectScannedData['scan_verdict'];
  scanned_on: string;
  payload_hash: string;
  finding_ids: string[];
  opened: string[];
  resolved: string[];
}
export type CompilationRecord = DrawCompiledData & RecordedResult;
export type AdequacyRecord = AdequacyAssessedData & RecordedResult;
export type SimulationRecord = DrawSimulatedData & RecordedResult;
export type CertificationRecord = CertificationIssuedData &
  RecordedResult & {
    /** The certification of the same project issued after this one (DOMAIN §11 SUPERSEDED), if any. */
    superseded_by: string | null;
  };
export type NotarizationRecord = DocumentNotarizedData & RecordedResult;
export type PaymentRecord = PaymentPushedData & RecordedResult;
export type BlockedPushRecord = PaymentPushBlockedData & RecordedResult;
export type RejectionRecord = DrawRejectedData & RecordedResult;
export type AcceptanceRecord = DrawConditionsAcceptedData &
  RecordedResult & {
    /** The `draws:approve` key that accepted (the event's actor): revoked since, it vouches no more. */
    accepted_by: string;
  };

/** Where a payment's instruction stands in the outbox. */
export interface DeliveryRecord {
  /** UNDELIVERABLE: a failure recorded as final (an account of it erased); never retried. */
  status: 'PENDING' | 'DELIVERED' | 'UNDELIVERABLE';
  attempts: number;
  location: string | null;
  last_error: string | null;
  next_attempt_at: string | null;
}

export interface GovernanceState {
  scans: Record<string, ScanRecord>;
  latest_scan_by_project: Record<string, string>;
  findings: Record<string, FindingRecord>;
  /** Finding ids per project / attributed entity, in first-opened order. */
  findings_by_project: Record<string, string[]>;
  findings_by_entity: Record<string, string[]>;
  compilations: Record<string, CompilationRecord>;
  latest_compilation_by_draw: Record<string, string>;
  /** The latest assessment per project. */
  adequacy_by_project: Record<string, AdequacyRecord>;
  simulations: Record<string, SimulationRecord>;
  latest_simulation_by_draw: Record<string, string>;
  certifications: Record<string, CertificationRecord>;
  latest_certification_by_project: Record<string, string>;
  notarizations: Record<string, NotarizationRecord>;
  notarizations_by_document: Record<string, string[]>;
  payments: Record<string, PaymentRecord>;
  payments_by_draw: Record<string, string[]>;
  /** Refused payment pushes per draw, oldest first. */
  blocked_pushes_by_draw: Record<string, BlockedPushRecord[]>;
  /** The lender's rejection of a draw (DOMAIN §1 REJECTED), by draw id. */
  rejections_by_draw: Record<string, RejectionRecord>;
  /** The latest lender acceptance of a draw's conditions, by draw id. */
  acceptances_by_draw: Record<string, AcceptanceRecord>;
  /** Payment instruction delivery per payment id (every recorded payment has one, PENDING first). */
  deliveries: Record<string, DeliveryRecord>;
  /**
   * The deliveries still PENDING, by payment id in the order the payments were recorded, with when
   * each is next due: what the outbox walks at a start and after each payment (issue 19: its pass
   * read every delivery ever recorded, 7,663 records at 1M events, ~0.2 s of a start).
   */
  pending_deliveries: Record<string, PendingDelivery>;
}

/** A delivery still to be made: due now (null: never tried) or at the time its last failure set. */
export interface PendingDelivery {
  next_attempt_at: string | null;
}

export function initGovernanceState(): GovernanceState {
  return {
    scans: {},
    latest_scan_by_project: {},
    findings: {},
    findings_by_project: {},
    findings_by_entity: {},
    compilations: {},
    latest_compilation_by_draw: {},
    adequacy_by_project: {},
    simulations: {},
    latest_simulation_by_draw: {},
    certifications: {},
    latest_certification_by_project: {},
    notarizations: {},
    notarizations_by_document: {},
    payments: {},
    payments_by_draw: {},
    blocked_pushes_by_draw: {},
    rejections_by_draw: {},
    acceptances_by_draw: {},
    deliveries: {},
    pending_deliveries: {},
  };
}

/** The open findings of a project, in first-opened order. */
export function openFindingsOf(state: GovernanceState, project_id: string): FindingRecord[] {
  return (state.findings_by_project[project_id] ?? [])
    .map((id) => state.findings[id])
    .filter((f): f is FindingRecord => f !== undefined && f.status === 'OPEN');
}

/**
 * The events whose fold writes a finding record (`onProjectScanned`, `onFindingResolved`): of this
 * read model, the findings are all the credit rules read, so the facts memo
 * (src/lender-api/facts-memo.ts) keeps what it derived across every other governance result the
 * projects read model does not fold either.
 */
export const FINDINGS_EVENTS: ReadonlySet<string> = new Set(['ProjectScanned', 'FindingResolved']);

/** `FindingResolved` as the projects capability appends it (src/projects/events.ts); only these fields are read. */
interface FindingResolvedView {
  finding_id: string;
  resolved_on: string;
}

export const governance: Projection<GovernanceState> = {
  name: 'governance',
  // 4: pending_deliveries.
  version: 4,
  init: initGovernanceState,
  evolve(state, event) {
    const type = event.type;
    if (type === 'FindingResolved') {
      onFindingResolved(state, event.data as FindingResolvedView, stamp(event));
      return state;
    }
    if (!isGovernanceEventType(type)) return state;
    const at = stamp(event);
    switch (type) {
      case 'ProjectScanned':
        onProjectScanned(state, event.data as ProjectScannedData, at);
        break;
      case 'DrawCompiled':
        onDrawCompiled(state, event.data as DrawCompiledData, at);
        break;
      case 'AdequacyAssessed':
        onAdequacyAssessed(state, event.data as AdequacyAssessedData, at);
        break;
      case 'DrawSimulated':
        onDrawSimulated(state, event.data as DrawSimulatedData, at);
        break;
      case 'CertificationIssued':
        onCertificationIssued(state, event.data as CertificationIssuedData, at);
        break;
      case 'DocumentNotarized':
        onDocumentNotarized(state, event.data as DocumentNotarizedData, at);
        break;
      case 'PaymentPushed':
        onPaymentPushed(state, event.data as PaymentPushedData, at);
        break;
      case 'PaymentPushBlocked':
        onPaymentPushBlocked(state, event.data as PaymentPushBlockedData, at);
        break;
      case 'DrawRejected':
        state.rejections_by_draw[(event.data as DrawRejectedData).draw_id] ??= {
          ...(event.data as DrawRejectedData),
          ...at,
        };
        break;
      case 'DrawConditionsAccepted': {
        const data = event.data as DrawConditionsAcceptedData;
        state.acceptances_by_draw[data.draw_id] = {
          ...data,
          accepted_codes: [...data.accepted_codes],
          ...at,
          accepted_by: event.meta.actor,
        };
        break;
      }
      case 'PaymentInstructionDelivered': {
        const data = event.data as PaymentInstructionDeliveredData;
        const record = state.deliveries[data.payment_id];
        if (record) {
          record.status = 'DELIVERED';
          record.attempts = Math.max(record.attempts, data.attempt);
          record.location = data.location;
          record.next_attempt_at = null;
          delete state.pending_deliveries[data.payment_id];
        }
        break;
      }
      case 'PaymentInstructionFailed': {
        const data = event.data as PaymentInstructionFailedData;
        const record = state.deliveries[data.payment_id];
        if (record && record.status === 'PENDING') {
          record.attempts = Math.max(record.attempts, data.attempt);
          record.last_error = data.error;
          record.next_attempt_at = data.next_attempt_at;
          if (data.next_attempt_at === null) {
            record.status = 'UNDELIVERABLE';
            delete state.pending_deliveries[data.payment_id];
          } else {
            const pending = state.pending_deliveries[data.payment_id];
            if (pending) pending.next_attempt_at = data.next_attempt_at;
          }
        }
        break;
      }
      case 'RailScanned':
      case 'RailsScanned':
        // Recorded so each rail answer is attested (audit-verify); no governance state hangs on it.
        break;
      default: {
        const unhandled: never = type;
        throw new Error(`governance projection: unhandled ${String(unhandled)}`);
      }
    }
    return state;
  },
};

function stamp(event: SealedEvent): RecordedResult {
  return { org_id: event.meta.org_id ?? '', seq: event.seq, recorded_at: event.recorded_at };
}

function onProjectScanned(state: GovernanceState, data: ProjectScannedData, at: RecordedResult): void {
  state.scans[data.scan_id] = {
    scan_id: data.scan_id,
    project_id: data.project_id,
    scan_verdict: data.scan_verdict,
    scanned_on: data.scanned_on,
    payload_hash: data.payload_hash,
    finding_ids: data.findings.map((f) => f.id),
    opened: [...data.opened],
    resolved: [...data.resolved],
    ...at,
  };
  state.latest_scan_by_project[data.project_id] = data.scan_id;
  const opened = new Set(data.opened);
  for (const finding of data.findings) {
    const record = state.findings[finding.id];
    if (record === undefined || (record.status === 'RESOLVED' && opened.has(finding.id))) {
      openFinding(state, finding, data, at);
    } else if (record.status === 'OPEN') {
      refreshFinding(state, record, finding, data.scan_id);
    }
    // A finding resolved by explicit resolution and not re-opened stays resolved.
  }
  for (const id of data.resolved) {
    const record = state.findings[id];
    if (record?.status !== 'OPEN' || record.project_id !== data.project_id) continue;
    resolve(record, data.scanned_on, at.seq, 'rescan');
  }
}

/** Opens (or re-opens) a finding, dated by when its condition arose (a re-opened one: not before its last resolution). */
function openFinding(
  state: GovernanceState,
  finding: Finding,
  data: ProjectScannedData,
  at: RecordedResult,
): void {
  const existed = state.findings[finding.id] !== undefined;
  const previousEntity = state.findings[finding.id]?.entity_id ?? null;
  // The date the condition arose (issue 14) — findings recorded before that field: the scan's date —
  // and a re-opened finding never before its previous occurrence was resolved.
  const arose = finding.arose_on ?? data.scanned_on;
  const floor = state.findings[finding.id]?.resolved_on ?? arose;
  state.findings[finding.id] = {
    ...finding,
    evidence: finding.evidence.map((e) => ({ ...e })),
    detected_on: data.scanned_on,
    org_id: at.org_id,
    status: 'OPEN',
    opened_on: arose > floor ? arose : floor,
    opened_seq: at.seq,
    resolved_on: null,
    resolved_seq: null,
    resolved_by: null,
    last_scan_id: data.scan_id,
  };
  if (!existed) (state.findings_by_project[finding.project_id] ??= []).push(finding.id);
  reindexEntity(state, finding.id, existed ? previousEntity : null, finding.entity_id);
}

/** A still-open finding takes the latest scan's wording and severity; its opening stays. */
function refreshFinding(
  state: GovernanceState,
  record: FindingRecord,
  finding: Finding,
  scanId: string,
): void {
  const previousEntity = record.entity_id;
  record.severity = finding.severity;
  record.entity_id = finding.entity_id;
  record.title = finding.title;
  record.detail = finding.detail;
  record.evidence = finding.evidence.map((e) => ({ ...e }));
  record.curable_by_documents = finding.curable_by_documents;
  record.last_scan_id = scanId;
  reindexEntity(state, record.id, previousEntity, finding.entity_id);
}

function reindexEntity(state: GovernanceState, id: string, from: string | null, to: string | null): void {
  if (from !== null && from !== to) {
    const list = state.findings_by_entity[from] ?? [];
    const index = list.indexOf(id);
    if (index >= 0) list.splice(index, 1);
  }
  if (to !== null) {
    const list = (state.findings_by_entity[to] ??= []);
    if (!list.includes(id)) list.push(id);
  }
}

function resolve(record: FindingRecord, on: string, seq: number, by: 'rescan' | 'resolution'): void {
  record.status = 'RESOLVED';
  record.resolved_on = on;
  record.resolved_seq = seq;
  record.resolved_by = by;
}

/** An explicit resolution closes an open finding of the same org; anything else is ignored. */
function onFindingResolved(state: GovernanceState, data: FindingResolvedView, at: RecordedResult): void {
  const record = state.findings[data.finding_id];
  if (record?.status !== 'OPEN' || record.org_id !== at.org_id) return;
  resolve(record, data.resolved_on, at.seq, 'resolution');
}

/** DOMAIN §11: a newer certification of the project supersedes the latest one. */
function onCertificationIssued(
  state: GovernanceState,
  data: CertificationIssuedData,
  at: RecordedResult,
): void {
  const previous = state.latest_certification_by_project[data.project_id];
  const previousRecord = previous === undefined ? undefined : state.certifications[previous];
  if (previousRecord !== undefined) previousRecord.superseded_by = data.certification_id;
  state.certifications[data.certification_id] = { ...data, ...at, superseded_by: null };
  state.latest_certification_by_project[data.project_id] = data.certification_id;
}

function onDrawCompiled(state: GovernanceState, data: DrawCompiledData, at: RecordedResult): void {
  state.compilations[data.compilation_id] = { ...data, ...at };
  state.latest_compilation_by_draw[data.draw_id] = data.compilation_id;
}

function onAdequacyAssessed(state: GovernanceState, data: AdequacyAssessedData, at: RecordedResult): void {
  state.adequacy_by_project[data.project_id] = { ...data, ...at };
}

function onDrawSimulated(state: GovernanceState, data: DrawSimulatedData, at: RecordedResult): void {
  state.simulations[data.simulation_id] = { ...data, ...at };
  state.latest_simulation_by_draw[data.draw_id] = data.simulation_id;
}

function onDocumentNotarized(state: GovernanceState, data: DocumentNotarizedData, at: RecordedResult): void {
  state.notarizations[data.notarization_id] = { ...data, ...at };
  (state.notarizations_by_document[data.document_id] ??= []).push(data.notarization_id);
}

function onPaymentPushed(state: GovernanceState, data: PaymentPushedData, at: RecordedResult): void {
  state.payments[data.payment_id] = { ...data, ...at };
  (state.payments_by_draw[data.draw_id] ??= []).push(data.payment_id);
  if (state.deliveries[data.payment_id] !== undefined) return;
  state.deliveries[data.payment_id] = {
    status: 'PENDING',
    attempts: 0,
    location: null,
    last_error: null,
    next_attempt_at: null,
  };
  state.pending_deliveries[data.payment_id] = { next_attempt_at: null };
}

function onPaymentPushBlocked(
  state: GovernanceState,
  data: PaymentPushBlockedData,
  at: RecordedResult,
): void {
  (state.blocked_pushes_by_draw[data.draw_id] ??= []).push({ ...data, ...at });
}
