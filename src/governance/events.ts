/**
 * Events of the governance capability (ARCHITECTURE §5, §7): each records a governance result
 * and, per the ledger-index convention, lists what it attests in `data.artifacts: [{kind, hash}]`
 * so `audit-verify` can find a response by its payload hash.
 *
 * Agreed shapes for the deciders other engineers write (compile, adequacy, simulation,
 * certification, notarization, payments):
 * - ids are minted from the recording event's id with `idFromUuid(prefix, eventId)`:
 *   SCN-, CMP-, ADQ-, SIM-, CERT-, NOT-, PAY-;
 * - `payload_hash` = `payloadHash(response payload without provenance)` (ARCHITECTURE §7), and
 *   `artifacts` = `resultArtifacts(kind, payload)`: the payload's three provenance digests (SHA-256
 *   = `payload_hash`, SHA3-256, BLAKE2b-256) with the kind named on each type below, so
 *   audit-verify answers for whichever digest of the response its holder checks (events recorded
 *   before listed the SHA-256 alone);
 * - dates are `YYYY-MM-DD`, money integer cents; every field is present (null, never missing).
 * The `projects` projection reads `DrawCompiled.draw_id` and `PaymentPushed`'s
 * `{draw_id, amount, payment_id, rail, funded_on}` to move draw status (src/projects/events.ts).
 * `FindingResolved` belongs to the projects capability (`{finding_id, resolution, resolved_on,
 * evidence_document_id, severity, evidence}` on stream `finding-FND-…`: what was resolved, as
 * found); the governance projection folds it too.
 */
import type { EventInput } from '../platform/ledger/index.js';
import { canonicalJson } from '../platform/ledger/index.js';
import { multiHash, sha256Hex, type MultiHash } from '../platform/crypto/hash.js';
import type { Cents, IsoDate, IsoInstant } from '../projects/facts.js';
import type { PushRail } from '../projects/profiles.js';
import type { AdequacyMember, GradedScore } from './adequacy.js';
import type { Grade } from './constants.js';
import type { Finding, ScanResult } from './findings.js';

/** Payload schema version of every event below (ARCHITECTURE §3.1 `schema`). */
export const GOVERNANCE_EVENT_SCHEMA = 1;

/** One attested artifact (projections/ledger-index.ts). */
export interface ArtifactRef {
  kind: string;
  hash: string;
}

/** SHA-256 hex of the RFC 8785 canonical JSON of a payload: the hash an artifact is recorded by. */
export function payloadHash(payload: unknown): string {
  return sha256Hex(canonicalJson(payload));
}

/**
 * What a recorded result is found by: its payload's SHA-256 (`payload_hash`) and the artifacts for
 * all three digests its provenance publishes (ARCHITECTURE §7), so `audit-verify` answers AUTHENTIC
 * for whichever one a holder of the response checks, not UNKNOWN_HASH for two of them.
 */
export function resultArtifacts(
  kind: string,
  payload: object,
): { payload_hash: string; artifacts: ArtifactRef[] } {
  const { sha256, sha3_256, blake2b_256 } = payloadDigests(payload);
  return { payload_hash: sha256, artifacts: [sha256, sha3_256, blake2b_256].map((hash) => ({ kind, hash })) };
}

const DIGESTS = new WeakMap<object, MultiHash>();

/**
 * The three provenance digests of a payload's JCS, computed once per payload object: the decider
 * records them (`resultArtifacts`) and the edge answers them (`provenance`, `provenance_hash`) for
 * the same object, which is built once and not changed after.
 */
export function payloadDigests(payload: object): MultiHash {
  let digests = DIGESTS.get(payload);
  if (digests === undefined) {
    digests = multiHash(canonicalJson(payload));
    DIGESTS.set(payload, digests);
  }
  return digests;
}

/** Attests that the kernel scanned a project on a day, what it found and which findings opened or resolved. */
export interface ProjectScannedData {
  /** `SCN-…` */
  scan_id: string;
  project_id: string;
  scan_verdict: ScanResult['scan_verdict'];
  /** The scan's open findings (contradictions, then temporal). */
  findings: Finding[];
  /** Ids newly open (not open before this scan; includes re-opened ones). */
  opened: string[];
  /** Ids open before this scan that it no longer finds: resolved by re-scan. */
  resolved: string[];
  scanned_on: IsoDate;
  payload_hash: string;
  /** `resultArtifacts('scan', payload)`: one per provenance digest */
  artifacts: ArtifactRef[];
}

/** DOMAIN §9 draw verdicts. */
export type DrawVerdict = 'FUNDABLE' | 'FUNDABLE_WITH_CONDITIONS' | 'REDUCED' | 'HOLD' | 'NOT_FUNDABLE';

/** Attests that compile-for-draw ran the engine DAG for a draw and reached this verdict. */
export interface DrawCompiledData {
  /** `CMP-…` */
  compilation_id: string;
  draw_id: string;
  project_id: string;
  draw_verdict: DrawVerdict;
  /** READY iff draw_verdict is FUNDABLE or FUNDABLE_WITH_CONDITIONS (DOMAIN §9). */
  verdict_status: 'READY' | 'BLOCKED';
  layers_executed: number;
  compiled_on: IsoDate;
  payload_hash: string;
  /** `resultArtifacts('compilation', payload)`: one per provenance digest */
  artifacts: ArtifactRef[];
}

/** Attests a capital adequacy assessment of a project (DOMAIN §4). */
export interface AdequacyAssessedData {
  /** `ADQ-…` */
  assessment_id: string;
  project_id: string;
  overall: GradedScore;
  vector: Record<AdequacyMember, GradedScore>;
  in_balance: boolean;
  assessed_on: IsoDate;
  payload_hash: string;
  /** `resultArtifacts('adequacy', payload)`: one per provenance digest */
  artifacts: ArtifactRef[];
}

/** Attests a three-scenario simulation of a draw and its recommendation (DOMAIN §10). */
export interface DrawSimulatedData {
  /** `SIM-…` */
  simulation_id: string;
  draw_id: string;
  project_id: string;
  recommendation: 'APPROVE' | 'DELAY' | 'REVIEW';
  simulated_on: IsoDate;
  payload_hash: string;
  /** `resultArtifacts('simulation', payload)`: one per provenance digest */
  artifacts: ArtifactRef[];
}

/** Attests a project certification with its grade and validity; it supersedes the project's previous one (DOMAIN §11). */
export interface CertificationIssuedData {
  /** `CERT-…` */
  certification_id: string;
  project_id: string;
  grade: Grade;
  score: number;
  issued_on: IsoDate;
  valid_until: IsoDate;
  /**
   * Whether the public badge shows the project's name: the lender's choice at certification.
   * Absent on certifications recorded before the choice existed, whose badges then show no name.
   */
  show_project_name?: boolean;
  payload_hash: string;
  /** `resultArtifacts('certification', payload)`: one per provenance digest */
  artifacts: ArtifactRef[];
}

/** Attests the digests of a recorded document at notarization, in a US jurisdiction (SPEC §6). */
export interface DocumentNotarizedData {
  /** `NOT-…` */
  notarization_id: string;
  document_id: string;
  document_type: string;
  project_id: string;
  jurisdiction: string;
  notarized_at: IsoInstant;
  /** Over the JCS of the recorded document (SPEC names them sha256 / sha3 / blake2b). */
  multi_hash: MultiHash;
  payload_hash: string;
  /** `resultArtifacts('notarization', payload)`, then `{kind: 'notarization', hash}` for each of `multi_hash` */
  artifacts: ArtifactRef[];
  /**
   * NOTARIAL_ACT: a notary's verified act (docs/duties.md); HASH_STAMPED: the seed's bare digests,
   * recorded but never satisfying the gate. Absent on events before signed duties: HASH_STAMPED.
   */
  status?: NotarizationStatus;
  /** The act, when one was performed (status NOTARIAL_ACT). */
  act?: NotarialActRecord | null;
}

export type NotarizationStatus = 'NOTARIAL_ACT' | 'HASH_STAMPED';

/** A notarial act as recorded: the terms the notary signed, the notary's key and signature. */
export interface NotarialActRecord {
  notary_signer_id: string;
  notary_name: string;
  commission_number: string;
  commission_state: string;
  commission_expires_on: IsoDate;
  act_type: 'acknowledgment' | 'jurat';
  act_date: IsoDate;
  appeared_signer_id: string;
  document_id: string;
  document_sha256: string;
  key_id: string;
  signature: string;
}

/** A pain.001 party: name, account, and its agent (BIC, ABA routing, or null → NOTPROVIDED). */
export interface InstructionParty {
  name: string;
  /**
   * The account as the ledger may show it: its masked number (issue 15), or — on instructions
   * recorded before — an internal reference. The number itself is in the account vault.
   */
  account: string;
  agent:
    | { bic: string; aba_routing?: string | undefined }
    | { bic?: string | undefined; aba_routing: string }
    | null;
  /** The registered account (`acct_…`) whose number the vault reveals at delivery. */
  account_id?: string;
  scheme?: 'US_ABA' | 'IBAN';
}

/** Everything a payment instruction says besides its message id and amount (regenerable from the event). */
export interface PaymentInstructionFacts {
  created_at: IsoInstant;
  requested_execution_date: IsoDate;
  debtor: InstructionParty;
  creditor: InstructionParty;
  currency: 'USD';
  end_to_end_id: string;
  remittance_info: string;
  /** PmtTpInf for the rail (src/payments/pain001.ts); absent before issue 15. */
  payment_type?: {
    service_level: string;
    local_instrument: { cd: string } | { prtry: string } | null;
    category_purpose: string;
    charge_bearer: 'SHAR' | 'DEBT' | 'CRED' | 'SLEV' | null;
  };
}

/** Attests that money for a draw was pushed on a rail after its gate passed; the draw is FUNDED. */
export interface PaymentPushedData {
  /** `PAY-…` */
  payment_id: string;
  draw_id: string;
  project_id: string;
  /** G702 line 8 (current payment due), or the REDUCED amount. */
  amount: number;
  rail: PushRail;
  /** pain.001 message id. */
  message_id: string;
  funded_on: IsoDate;
  /** The compilation the push ran at the head (recorded just before this event). */
  compilation_id: string;
  draw_verdict: DrawVerdict;
  /**
   * What the payment was decided on, so an auditor reads it from the ledger alone (absent on
   * payments recorded before it was kept): the hash of the compilation recorded beside it, the
   * SHA-256 of the application bytes the certification chain signed, the acceptance of conditions
   * the verdict gate relied on, G702 line 8 and the fundable amount the amount comes from, and
   * every gate with its detail — as a refused push records them.
   */
  basis?: PaymentBasis;
  instruction: PaymentInstructionFacts;
  payload_hash: string;
  /** `resultArtifacts('payment', payload)`, then `{kind: 'payment_instruction', hash: sha256(xml)}` */
  artifacts: ArtifactRef[];
}

/** What a recorded payment was decided on (`PaymentPushedData.basis`). */
export interface PaymentBasis {
  /** `payload_hash` of the `DrawCompiled` the push recorded beside it. */
  compilation_hash: string;
  /** SHA-256 of the draw's application as it stood (the bytes every counted signature covers). */
  application_sha256: string;
  /** The `DrawConditionsAccepted` the verdict gate relied on, or null (a FUNDABLE draw). */
  acceptance_id: string | null;
  /** G702 line 8 of the application. */
  current_payment_due: Cents;
  /** The compilation's fundable amount: what `amount` pays. */
  fundable_amount: Cents;
  gates: GateResult[];
}

/** Attests that a lender key with `draws:approve` accepted a draw's open conditions (or its reduced amount). */
export interface DrawConditionsAcceptedData {
  /** `ACC-…` */
  acceptance_id: string;
  draw_id: string;
  project_id: string;
  /** The verdict at the head when accepted: FUNDABLE_WITH_CONDITIONS or REDUCED. */
  draw_verdict: DrawVerdict;
  /** Codes of the findings open for the draw that the lender accepted. */
  accepted_codes: string[];
  finding_ids: string[];
  /**
   * The amount the verdict made fundable when accepted (REDUCED: the reduced amount); absent on
   * acceptances recorded before it was kept.
   */
  fundable_amount?: Cents;
  reason: string;
  accepted_on: IsoDate;
  payload_hash: string;
  /** `resultArtifacts('draw_acceptance', payload)`: one per provenance digest */
  artifacts: ArtifactRef[];
}

/** One gate's result at a payment push (SPEC §6 `GATE_UNMET` body). */
export interface GateResult {
  gate: string;
  passed: boolean;
  detail: string;
}

/** Attests a refused payment push and every gate's result (ARCHITECTURE §5: audited rejection). */
export interface PaymentPushBlockedData {
  draw_id: string;
  project_id: string;
  rail: PushRail | null;
  gates: GateResult[];
  /** The compilation the push ran at the head, and its verdict. */
  compilation_id: string;
  draw_verdict: DrawVerdict;
  attempted_on: IsoDate;
  payload_hash: string;
  /** `resultArtifacts('payment_blocked', payload)`: one per provenance digest */
  artifacts: ArtifactRef[];
}

/** Attests that the lender rejected a draw, with its reasons: the draw is REJECTED and can never be paid (DOMAIN §1). */
export interface DrawRejectedData {
  /** `REJ-…` */
  rejection_id: string;
  draw_id: string;
  project_id: string;
  reasons: string[];
  rejected_on: IsoDate;
  payload_hash: string;
  /** `resultArtifacts('draw_rejection', payload)`: one per provenance digest */
  artifacts: ArtifactRef[];
}

/** The payment outbox handed a recorded payment's pain.001 to the rail (issue 14 item 6). */
export interface PaymentInstructionDeliveredData {
  payment_id: string;
  draw_id: string;
  message_id: string;
  /** Where the instruction went: a file path for the embedded rail, a bank reference otherwise. */
  location: string;
  /** SHA-256 of the delivered bytes (the `payment_instruction` artifact of `PaymentPushed`). */
  sha256: string;
  attempt: number;
  delivered_at: IsoInstant;
}

/** A delivery attempt failed; the outbox retries at `next_attempt_at` (exponential backoff). */
export interface PaymentInstructionFailedData {
  payment_id: string;
  draw_id: string;
  message_id: string;
  attempt: number;
  error: string;
  failed_at: IsoInstant;
  /**
   * When it is tried again; null when it never can be (an account it names was erased in the ledger:
   * no instruction can be built for it any more, so the payment needs a person, not a retry).
   */
  next_attempt_at: IsoInstant | null;
}

/** The `coverage` of a rail result (src/rails/coverage.ts): which of its facts the rail had. */
export interface RailCoverage {
  facts_present: string[];
  facts_missing: string[];
}

/** Attests one rail's evaluation of an org's (or one project's) facts at `as_of` (SPEC §7; every scan is recorded). */
export interface RailScannedData {
  /** DOMAIN §8 rail name, e.g. `SCHEDULE`. */
  rail: string;
  /** The project the scan was narrowed to, or null for the whole org. */
  project_id: string | null;
  posture: 'NOMINAL' | 'ELEVATED' | 'CRITICAL';
  score: number;
  finding_codes: string[];
  coverage: RailCoverage;
  as_of: IsoInstant;
  payload_hash: string;
  /** `resultArtifacts('rail_scan', payload)`: one per provenance digest */
  artifacts: ArtifactRef[];
}

/** Attests a `scan_all` of the eleven rails: the combined posture and what each rail said (SPEC §7). */
export interface RailsScannedData {
  project_id: string | null;
  governance_posture: 'NOMINAL' | 'ELEVATED' | 'CRITICAL';
  composite_score: number;
  rails: { name: string; posture: 'NOMINAL' | 'ELEVATED' | 'CRITICAL'; score: number }[];
  /** Rails that keep the scan from being clear (not NOMINAL and not excused by the profile). */
  not_clear: string[];
  as_of: IsoInstant;
  payload_hash: string;
  /** `resultArtifacts('rail_scan_all', payload)`: one per provenance digest */
  artifacts: ArtifactRef[];
}

export interface GovernanceEventMap {
  ProjectScanned: ProjectScannedData;
  DrawCompiled: DrawCompiledData;
  AdequacyAssessed: AdequacyAssessedData;
  DrawSimulated: DrawSimulatedData;
  CertificationIssued: CertificationIssuedData;
  DocumentNotarized: DocumentNotarizedData;
  PaymentPushed: PaymentPushedData;
  PaymentPushBlocked: PaymentPushBlockedData;
  DrawRejected: DrawRejectedData;
  DrawConditionsAccepted: DrawConditionsAcceptedData;
  PaymentInstructionDelivered: PaymentInstructionDeliveredData;
  PaymentInstructionFailed: PaymentInstructionFailedData;
  RailScanned: RailScannedData;
  RailsScanned: RailsScannedData;
}
export type GovernanceEventType = keyof GovernanceEventMap;

export const GOVERNANCE_EVENT_TYPES: readonly GovernanceEventType[] = [
  'ProjectScanned',
  'DrawCompiled',
  'AdequacyAssessed',
  'DrawSimulated',
  'CertificationIssued',
  'DocumentNotarized',
  'PaymentPushed',
  'PaymentPushBlocked',
  'DrawRejected',
  'DrawConditionsAccepted',
  'PaymentInstructionDelivered',
  'PaymentInstructionFailed',
  'RailScanned',
  'RailsScanned',
];

export function isGovernanceEventType(type: string): type is GovernanceEventType {
  return (GOVERNANCE_EVENT_TYPES as readonly string[]).includes(type);
}

/** `project-prj_…` / `draw-DRW-…` (ARCHITECTURE §3.1). */
export const projectStream = (projectId: string): string => `project-${projectId}`;
export const drawStream = (drawId: string): string => `draw-${drawId}`;

/** Builds one governance event; `id` is the event id the result id was minted from, when known. */
export function governanceEvent<T extends GovernanceEventType>(
  type: T,
  stream: string,
  data: GovernanceEventMap[T],
  id?: string,
): EventInput<T, GovernanceEventMap[T]> & { schema: number } {
  const event: EventInput<T, GovernanceEventMap[T]> & { schema: number } = {
    stream,
    type,
    schema: GOVERNANCE_EVENT_SCHEMA,
    data,
  };
  if (id !== undefined) event.id = id;
  return event;
}
