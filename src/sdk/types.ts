/**
 * Result and request types of the Plumbline HTTP API (SPEC §4–§9), declared here rather than
 * imported from the server so the SDK's declarations stand alone in one .d.ts. Field names are the
 * wire's (snake_case); money is integer cents; dates `YYYY-MM-DD`, instants ISO-8601 UTC.
 * test/sdk/types-match.ts holds these assignable from the server's own types, so they cannot drift.
 */

export type Cents = number;
export type IsoDate = string;
export type IsoInstant = string;

export interface LedgerHead {
  seq: number;
  hash: string;
}

/** ARCHITECTURE §7: three digests over the JCS of the payload and the ledger anchor. */
export interface Provenance {
  sha256: string;
  sha3_256: string;
  blake2b_256: string;
  ledger: LedgerHead;
}

/** `201 {id, ledger}` of every ingestion append (SPEC §5). */
export interface Created {
  id: string;
  ledger: LedgerHead;
}

/** SPEC §2 pagination. */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export interface PageOptions {
  limit?: number;
  cursor?: string;
}

// ---------------------------------------------------------------------------------------------
// Lender credit API (SPEC §4)
// ---------------------------------------------------------------------------------------------

export type Grade = 'A' | 'B' | 'C' | 'D' | 'F';
export type BehavioralState =
  'PROVISIONAL' | 'GOOD_STANDING' | 'WATCH' | 'PROBATION' | 'RESTRICTED' | 'SUSPENDED';
export type RemediationVelocity = 'NO_VIOLATIONS' | 'RESPONSIVE' | 'PARTIAL' | 'NON_RESPONSIVE';
export type ConflictStatus = 'CLEAR' | 'CONFLICTS_PRESENT';
export type CreditDimension =
  | 'payment_integrity'
  | 'draw_accuracy'
  | 'compliance_standing'
  | 'safety_record'
  | 'schedule_performance'
  | 'remediation_responsiveness';

export interface DimensionScore {
  score: number;
  grade: Grade;
  weight: number;
  signals: number;
  /** Distinct furnishers (lenders, the platform operator, the SAM registry) of those signals. */
  furnishers: number;
  insufficient_data: boolean;
  factors: { code: string; impact: number; description: string }[];
}

export interface RegistrySourceRef {
  kind: 'sam_extract' | 'sam_api';
  file?: string;
  as_of: string;
  /** sam_api: when SAM.gov answered (the service reuses an answer for 24 hours). */
  fetched_at?: string;
}

/** Present when the service's live SAM.gov check failed and its imported extract answered instead. */
export interface RegistryFallback {
  reason: 'timeout' | 'network' | 'unauthorized' | 'rate_limited' | 'http_error' | 'bad_response';
  /** SAM.gov's HTTP status, when it answered. */
  status: number | null;
  detail: string;
}

export interface CreditReport {
  ok: true;
  entity: string;
  entity_id: string;
  as_of: IsoInstant;
  credit: {
    composite_score: number;
    grade: Grade;
    confidence: 'LOW' | 'MEDIUM' | 'HIGH';
    /** The counts confidence is judged on: HIGH with ≥ 20 signals across ≥ 2 projects, MEDIUM with ≥ 5. */
    confidence_basis: { signals: number; projects: number };
    dimensions: Record<CreditDimension, DimensionScore>;
    /** Up to 4, most adverse first. */
    reason_codes: { code: string; description: string }[];
  };
  behavioral: {
    state: BehavioralState;
    last_assessed: string;
    since: IsoDate;
    previous_state: BehavioralState | null;
  };
  conflicts: {
    active_conflicts: number;
    status: ConflictStatus;
    items: { code: string; project_id: string | null; since: string }[];
  };
  remediation: {
    velocity: RemediationVelocity;
    open_findings: number;
    resolved_findings: number;
    median_days_to_cure: number | null;
  };
  contractor_registry: {
    registration: 'active' | 'inactive';
    exclusions: 'clear' | 'excluded';
    checked_at: IsoInstant;
    source: RegistrySourceRef;
    fallback?: RegistryFallback;
  };
  /** SHA-256 of the JCS of the report without provenance_hash/provenance. */
  provenance_hash: string;
  provenance: Provenance;
}

export interface PortfolioOptions {
  scope?: 'all' | 'portfolio';
  sort?: 'score' | 'name';
  limit?: number;
  cursor?: string;
}

export interface PortfolioRow {
  entity: string;
  entity_id: string;
  composite_score: number;
  grade: Grade;
  behavioral_state: BehavioralState;
  conflicts_status: ConflictStatus;
  remediation_velocity: RemediationVelocity;
  last_assessed: string;
}

export interface Portfolio extends Page<PortfolioRow> {
  ok: true;
  as_of: IsoInstant;
}

export interface RegistryVerification {
  ok: true;
  entity: string;
  entity_id: string;
  contractor_registry: {
    registration: 'active' | 'inactive';
    exclusions: 'clear' | 'excluded';
    uei: string | null;
    cage: string | null;
    legal_name: string | null;
    registration_expires_on: string | null;
    exclusion_records: {
      program: string | null;
      type: string | null;
      agency: string | null;
      active_on: string | null;
      terminates_on: string | null;
    }[];
    source: RegistrySourceRef;
    checked_at: IsoInstant;
    fallback?: RegistryFallback;
  };
}

export interface HistoryOptions {
  limit?: number;
  /** Page to events before this seq (from `next_before`). */
  before?: number;
}

export interface HistoryItem {
  seq: number;
  type: string;
  occurred_at: string;
  recorded_at: IsoInstant;
  project_id: string | null;
  severity: 'info' | 'warning' | 'blocking';
  summary: string;
  event_hash: string;
}

export interface History {
  ok: true;
  entity: string;
  entity_id: string;
  events: HistoryItem[];
  next_before: number | null;
}

export interface Eligibility {
  ok: true;
  entity: string;
  entity_id: string;
  payment_recommendation: { pral: string; rationale: string[] };
  eligible_payment_rails: string[];
  marketplace_access: { tier: string; programs: string[] };
  /** `factor`: the reason code whose removal `expected_gain` is computed for. */
  credit_improvement: { dimension: string; factor: string; action: string; expected_gain: number }[];
}

export interface Usage {
  ok: true;
  key_id: string;
  org_id: string;
  limit: number;
  used: number;
  remaining: number;
  window: string;
  resets_at: IsoInstant;
  by_action: Record<string, number>;
}

/** A signed link to one entity's printable credit report (`action=pdf_link`), valid 300 s. */
export interface PdfLink {
  ok: true;
  /** The legal name of the entity the reference resolved to. */
  entity: string;
  /** Its ent_ id, which the link names. */
  entity_id: string;
  url: string;
  /** The same link relative to the service (path and query). */
  path: string;
  expires_at: IsoInstant;
}

export interface Discovery {
  ok: true;
  api: string;
  version: string;
  description: string;
  authentication: string;
  endpoints: Record<
    string,
    { description: string; body: Record<string, string> | null; counts_against_quota: boolean }
  >;
  response_schema: Record<string, unknown>;
  rate_limit: string;
  [member: string]: unknown;
}

// ---------------------------------------------------------------------------------------------
// Registry and ingestion (SPEC §5)
// ---------------------------------------------------------------------------------------------

export type EntityRole =
  'general_contractor' | 'subcontractor' | 'supplier' | 'owner' | 'architect' | 'inspector' | 'lender';

export interface CreateEntityBody {
  legal_name: string;
  aliases?: string[];
  ein?: string;
  uei?: string;
  cage?: string;
  roles: EntityRole[];
  business_types?: string[];
  state?: string;
}

export interface Entity {
  entity_id: string;
  legal_name: string;
  aliases: string[];
  ein: string | null;
  uei: string | null;
  cage: string | null;
  roles: EntityRole[];
  business_types: string[];
  state: string | null;
  org_id: string | null;
  registered_at: string;
  seq: number;
}

export type ProfileName = 'construction' | 'treasury' | 'insurance' | 'government' | 'supply_chain';
export type PaymentRail = 'ACH' | 'Wire' | 'RTP' | 'SWIFT' | 'ESCROW';
export type CoverageType = 'GL' | 'BUILDERS_RISK' | 'WORKERS_COMP' | 'AUTO' | 'UMBRELLA';

export interface RegisterProjectBody {
  name: string;
  profile?: ProfileName;
  borrower: string;
  general_contractor: string;
  architect?: string;
  inspector?: string;
  /** US state or territory code. */
  jurisdiction: string;
  loan_amount: Cents;
  equity: Cents;
  contract_sum: Cents;
  contingency?: Cents;
  retainage_pct: number;
  interest_rate_pct: number;
  start_date: IsoDate;
  completion_date: IsoDate;
  maturity_date: IsoDate;
  sov: { line: number; description: string; scheduled_value: Cents; trade: string; subcontractor?: string }[];
  required_coverages: { type: CoverageType; min_limit: Cents }[];
  milestones?: { name: string; due_on: IsoDate; completed_on?: IsoDate }[];
}

interface Recorded {
  org_id: string;
  recorded_at: IsoInstant;
  recorded_seq: number;
}

export interface Project extends Recorded {
  id: string;
  name: string;
  profile: ProfileName;
  borrower: string;
  general_contractor: string;
  architect: string | null;
  inspector: string | null;
  jurisdiction: string;
  loan_amount: Cents;
  equity: Cents;
  contract_sum: Cents;
  contingency: Cents;
  retainage_pct: number;
  interest_rate_pct: number;
  start_date: IsoDate;
  completion_date: IsoDate;
  maturity_date: IsoDate;
  sov: {
    line: number;
    description: string;
    scheduled_value: Cents;
    trade: string;
    subcontractor: string | null;
  }[];
  required_coverages: { type: CoverageType; min_limit: Cents }[];
  milestones: { name: string; due_on: IsoDate; completed_on: IsoDate | null }[];
  registered_at: IsoInstant;
  registered_seq: number;
  last_fact_seq: number;
}

export interface RecordChangeOrderBody {
  number: string;
  amount: Cents;
  lines: { line: number; delta: Cents }[];
  description: string;
  executed_on?: IsoDate;
  lender_approved_on?: IsoDate;
  work_started_on?: IsoDate;
}

export interface ChangeOrder extends Recorded {
  id: string;
  project_id: string;
  number: string;
  amount: Cents;
  lines: { line: number; delta: Cents }[];
  description: string;
  executed_on: IsoDate | null;
  lender_approved_on: IsoDate | null;
  work_started_on: IsoDate | null;
}

export type WaiverType =
  'CONDITIONAL_PROGRESS' | 'UNCONDITIONAL_PROGRESS' | 'CONDITIONAL_FINAL' | 'UNCONDITIONAL_FINAL';
export type DocumentType =
  | 'LIEN_WAIVER'
  | 'INSURANCE_CERTIFICATE'
  | 'INSPECTION_REPORT'
  | 'TITLE_DATE_DOWN'
  | 'INVOICE'
  | 'BILL_OF_SALE';

/** `POST /api/projects/:id/documents`: a union on `type` (DOMAIN §1). */
export type RecordDocumentBody =
  | {
      type: 'LIEN_WAIVER';
      claimant: string;
      draw_id: string;
      waiver_type: WaiverType;
      amount: Cents;
      through_date: IsoDate;
      signed_on?: IsoDate;
      executed: boolean;
      exceptions?: { description: string; amount?: Cents }[];
    }
  | {
      type: 'INSURANCE_CERTIFICATE';
      insured: string;
      coverage_type: CoverageType;
      limit: Cents;
      effective_on: IsoDate;
      expires_on: IsoDate;
      additional_insured: boolean;
    }
  | {
      type: 'INSPECTION_REPORT';
      draw_id?: string;
      inspector: string;
      inspected_on: IsoDate;
      lines: { line: number; percent_complete: number }[];
      stored_materials_verified: boolean;
    }
  | {
      type: 'TITLE_DATE_DOWN';
      effective_on: IsoDate;
      new_liens: { claimant_name: string; claimant?: string; amount: Cents; recorded_on: IsoDate }[];
    }
  | { type: 'INVOICE'; vendor: string; number: string; amount: Cents; line: number; draw_id?: string }
  | {
      type: 'BILL_OF_SALE';
      vendor?: string;
      draw_id?: string;
      lines: { line: number; description: string; amount: Cents }[];
      amount: Cents;
      insured: boolean;
    };

interface DocumentBase extends Recorded {
  id: string;
  project_id: string;
}

export type Document =
  | (DocumentBase & {
      type: 'LIEN_WAIVER';
      claimant: string;
      draw_id: string;
      waiver_type: WaiverType;
      amount: Cents;
      through_date: IsoDate;
      signed_on: IsoDate | null;
      executed: boolean;
      exceptions: { description: string; amount: Cents | null }[];
    })
  | (DocumentBase & {
      type: 'INSURANCE_CERTIFICATE';
      insured: string;
      coverage_type: CoverageType;
      limit: Cents;
      effective_on: IsoDate;
      expires_on: IsoDate;
      additional_insured: boolean;
    })
  | (DocumentBase & {
      type: 'INSPECTION_REPORT';
      draw_id: string | null;
      inspector: string;
      inspected_on: IsoDate;
      lines: { line: number; percent_complete: number }[];
      stored_materials_verified: boolean;
    })
  | (DocumentBase & {
      type: 'TITLE_DATE_DOWN';
      effective_on: IsoDate;
      new_liens: { claimant_name: string; claimant: string | null; amount: Cents; recorded_on: IsoDate }[];
    })
  | (DocumentBase & {
      type: 'INVOICE';
      vendor: string;
      number: string;
      amount: Cents;
      line: number;
      draw_id: string | null;
    })
  | (DocumentBase & {
      type: 'BILL_OF_SALE';
      vendor: string | null;
      draw_id: string | null;
      lines: { line: number; description: string; amount: Cents }[];
      amount: Cents;
      insured: boolean;
    });

/** An AIA G702/G703-shaped pay application (SPEC §5). */
export interface SubmitDrawBody {
  application_no: number;
  period_from: IsoDate;
  period_to: IsoDate;
  submitted_on?: IsoDate;
  lines: { line: number; previous: Cents; this_period: Cents; stored_materials: Cents }[];
  retainage_pct: number;
  retainage_withheld?: Cents;
  previous_certificates_total?: Cents;
  invoices: string[];
  requested_amount: Cents;
}

export interface DrawLine {
  line: number;
  description: string;
  original_scheduled_value: Cents;
  change_order_delta: Cents;
  scheduled_value: Cents;
  previous: Cents;
  this_period: Cents;
  stored_materials: Cents;
  completed_and_stored: Cents;
  percent_complete: number;
  balance_to_finish: Cents;
  retainage: Cents;
}

export interface Draw extends Recorded {
  id: string;
  project_id: string;
  application_no: number;
  period_from: IsoDate;
  period_to: IsoDate;
  submitted_on: IsoDate;
  lines: DrawLine[];
  retainage_pct: number;
  retainage_withheld: Cents;
  retainage_expected: Cents;
  previous_certificates_total: Cents;
  previous_funded_total: Cents;
  requested_amount: Cents;
  invoices: string[];
  summary: {
    original_contract_sum: Cents;
    net_change_orders: Cents;
    contract_sum_to_date: Cents;
    total_completed_and_stored: Cents;
    retainage: Cents;
    total_earned_less_retainage: Cents;
    previous_certificates: Cents;
    current_payment_due: Cents;
    balance_to_finish_including_retainage: Cents;
  };
  signatures: {
    role: string;
    signer_name: string;
    signed_on: IsoDate;
    /** ED25519: an enrolled signer's verified signature; SELF_ATTESTED: never counted by the gate (docs/duties.md). */
    attestation: 'ED25519' | 'SELF_ATTESTED';
    signer_id: string | null;
    key_id: string | null;
    /** SHA-256 of the application signed; a later change to the draw voids the signature. */
    application_sha256: string | null;
    signature: string | null;
    recorded_at: IsoInstant;
    recorded_seq: number;
  }[];
  status: 'SUBMITTED' | 'COMPILED' | 'FUNDED' | 'REJECTED';
  compiled_seq: number | null;
  funded_on: IsoDate | null;
  funded_amount: Cents | null;
  payment_id: string | null;
  payment_rail: PaymentRail | null;
  last_fact_seq: number;
}

/**
 * An enrolled signer's signature (`signDraw(privateKey, draw)` makes it, docs/duties.md), or the
 * seed's unsigned shape, recorded as SELF_ATTESTED and never counted by the payment gate.
 */
export type SignDrawBody =
  | {
      /** A role of the project's profile certification chain (construction: Contractor, Architect, Lender). */
      role: string;
      signer_id: string;
      /** Base64 Ed25519 signature over the SHA-256 of the draw's signing document. */
      signature: string;
      signed_on?: IsoDate;
    }
  | { role: string; signer_name: string; signed_on: IsoDate };

/** `POST /api/observations`: rail facts, `kind` ∈ DOMAIN §8 with that kind's fields. */
export interface RecordObservationBody {
  kind: string;
  project_id?: string;
  entity?: string;
  observed_on: IsoDate;
  [field: string]: unknown;
}

export interface Observation extends Recorded {
  id: string;
  kind: string;
  project_id: string | null;
  entity_id: string | null;
  observed_on: IsoDate;
}

export interface ResolveFindingBody {
  resolution: string;
  resolved_on: IsoDate;
  evidence_document_id?: string;
}

// ---------------------------------------------------------------------------------------------
// Project governance (SPEC §6)
// ---------------------------------------------------------------------------------------------

export interface GovernanceFinding {
  id: string;
  code: string;
  severity: 'WARNING' | 'BLOCKING';
  draw_id: string | null;
  entity_id: string | null;
  title: string;
  detail: string;
  evidence: { kind: string; id: string }[];
  detected_on: IsoDate;
  [member: string]: unknown;
}

/** A DOMAIN §4 adequacy score: an integer 0–100 and its grade. */
export interface GradedScore {
  score: number;
  grade: Grade;
}

export interface AdequacyVector {
  lender: GradedScore;
  contractor: GradedScore;
  project: GradedScore;
  cashflow: GradedScore;
  compliance: GradedScore;
  risk: GradedScore;
}

export interface ScanResult {
  scan_id: string;
  project_id: string;
  scan_verdict: string;
  contradictions: { count: number; items: GovernanceFinding[] };
  temporal: { count: number; items: GovernanceFinding[] };
  adequacy: { overall: GradedScore; vector: AdequacyVector };
  as_of: IsoInstant;
  provenance: Provenance;
}

export interface CompileResult {
  compilation: {
    compilation_id: string;
    draw_id: string;
    verdict_status: string;
    draw_verdict: string;
    layers_executed: number;
    trace: {
      engine: string;
      layer: number;
      status: 'FIRED' | 'SKIPPED' | 'BLOCKED' | 'FAILED';
      detail?: string;
    }[];
    evidence_available: unknown[];
    [member: string]: unknown;
  };
  project_id: string;
  as_of: IsoInstant;
  provenance: Provenance;
}

export interface AdequacyResult {
  assessment_id: string;
  project_id: string;
  adequacy: {
    overall: GradedScore;
    vector: AdequacyVector;
    in_balance: unknown;
    figures: Record<string, unknown>;
  };
  as_of: IsoInstant;
  provenance: Provenance;
}

export interface SimulationScenario {
  name: string;
  capital: {
    disbursed_after: Cents;
    undisbursed_after: Cents;
    cost_to_complete: Cents;
    in_balance_gap: Cents;
    interest_carry: Cents;
    retainage_held: Cents;
  };
  risk: { score: number; posture: string; open_blocking: number; expected_loss: Cents };
  [member: string]: unknown;
}

export interface SimulationResult {
  simulation_id: string;
  draw_id: string;
  recommendation: string;
  scenarios: SimulationScenario[];
  as_of: IsoInstant;
  provenance: Provenance;
}

export interface CertificationResult {
  certification: {
    id: string;
    project_id: string;
    grade: string;
    score: number;
    capped: boolean;
    issued_on: IsoDate;
    valid_until: IsoDate;
    badge_url: string;
    /** Whether the public badge shows the project's name. */
    show_project_name: boolean;
    /** The scan recorded beside the certificate (its findings set the cap). */
    scan_id: string;
  };
  as_of: IsoInstant;
  provenance: Provenance;
}

/**
 * A notarial act (docs/duties.md): the enrolled notary's Ed25519 signature over
 * `notarialActDocument(terms)` (the notary's commission as enrolled, the act, the document's SHA-256).
 */
export interface NotarialActClaim {
  /** The org's enrolled Notary signer (`sgn_…`). */
  notary_signer_id: string;
  act_type: 'acknowledgment' | 'jurat';
  /** On or before today; for a lien waiver, on or after its signing. */
  act_date: IsoDate;
  /** The signer (`sgn_…`) who appeared before the notary. */
  appeared_signer_id: string;
  /** Base64 Ed25519 signature (64 bytes). */
  signature: string;
}

export interface NotarizeBody {
  document_type: DocumentType;
  document_id: string;
  /** US state or territory code; with an act, the notary's commissioning state. */
  jurisdiction: string;
  /** Without it the digests are a bare hash stamp (HASH_STAMPED), which no notarization gate accepts. */
  act?: NotarialActClaim;
}

/** A recorded notarial act: the terms the notary signed, the key and the signature. */
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

export interface NotarizationResult {
  notarization_id: string;
  document_type: DocumentType;
  document_id: string;
  jurisdiction: string;
  notarized_at: IsoInstant;
  multi_hash: { sha256: string; sha3: string; blake2b: string };
  status: 'HASH_STAMPED' | 'NOTARIAL_ACT';
  act: NotarialActRecord | null;
  ledger: LedgerHead;
}

export interface PaymentResult {
  payment: {
    id: string;
    draw_id: string;
    amount: Cents;
    rail: PaymentRail;
    status: 'SUBMITTED';
    instruction: { format: 'pain.001'; message_id: string };
    [member: string]: unknown;
  };
  provenance: Provenance;
}

/** `POST /api/draws/{id}/accept` (scope `draws:approve`): the conditions or reduced amount accepted. */
export interface DrawAcceptanceResult {
  acceptance: {
    /** `ACC-…` */
    id: string;
    draw_id: string;
    draw_verdict: 'FUNDABLE_WITH_CONDITIONS' | 'REDUCED';
    /** Codes of the findings open for the draw at the head that this acceptance covers. */
    accepted_codes: string[];
    finding_ids: string[];
    /** What a push may pay: G702 line 8, or the REDUCED amount. */
    fundable_amount: Cents;
    reason: string;
    accepted_on: IsoDate;
  };
  provenance: Provenance;
}

/** `POST /api/draws/{id}/reject`: the draw is REJECTED and can never be paid. */
export interface DrawRejectionResult {
  rejection: {
    /** `REJ-…` */
    id: string;
    draw_id: string;
    project_id: string;
    reasons: string[];
    rejected_on: IsoDate;
  };
  provenance: Provenance;
}

export interface AuditVerification {
  verdict: 'AUTHENTIC' | 'TAMPERED';
  reason:
    | 'EVENT_VERIFIED'
    | 'ARTIFACT_VERIFIED'
    | 'UNKNOWN_HASH'
    | 'CONTENT_MISMATCH'
    | 'CHAIN_BROKEN'
    | 'TREE_MISMATCH';
  detail?: string;
  seq?: number;
  match?: { kind: string; seq: number; event_id: string | null; type: string; recorded_at: string | null };
  chain: { verified_through: number; head: number };
}

// ---------------------------------------------------------------------------------------------
// Rails and profiles (SPEC §7)
// ---------------------------------------------------------------------------------------------

export type RailName =
  | 'SYSTEM_RISK'
  | 'WORKFORCE'
  | 'SCHEDULE'
  | 'SAFETY'
  | 'INSURANCE'
  | 'ENVIRONMENTAL'
  | 'PROCUREMENT'
  | 'EQUIPMENT'
  | 'WEATHER'
  | 'COUNTERPARTY'
  | 'MARKET';

export type Posture = 'NOMINAL' | 'ELEVATED' | 'CRITICAL';

export interface RailFinding {
  code: string;
  severity: 'INFO' | 'WARNING' | 'CRITICAL';
  project_id: string | null;
  entity_id: string | null;
  title: string;
  detail: string;
  evidence: unknown;
  observed_on: string;
}

/** Which of the facts a rail reads it had; none → ELEVATED with an `INSUFFICIENT_DATA` finding. */
export interface RailCoverage {
  facts_present: string[];
  facts_missing: string[];
}

export interface RailResult {
  rail: RailName;
  posture: Posture;
  score: number;
  findings: RailFinding[];
  coverage: RailCoverage;
  as_of: IsoInstant;
  provenance_hash: string;
  provenance: Provenance;
}

export interface ScanAllResult {
  governance_posture: Posture;
  composite_score: number;
  rails: {
    name: RailName;
    posture: Posture;
    score: number;
    findings: RailFinding[];
    coverage: RailCoverage;
    /** False only for a rail without evidence that the project's profile makes optional. */
    counted: boolean;
  }[];
  total_findings: number;
  /** Counted rails that are not NOMINAL: empty means the scan is clear. */
  not_clear: RailName[];
  as_of: IsoInstant;
  /** SHA-256 of the JCS of the answer without provenance_hash, provenance and ledger. */
  provenance_hash: string;
  provenance: Provenance;
  /** The recording event (RailsScanned): the same as provenance.ledger. */
  ledger: LedgerHead;
  [member: string]: unknown;
}

export interface GovernanceProfile {
  name: ProfileName;
  engines: number;
  gates: string[];
  gate_count: number;
  payment_rails: PaymentRail[];
  certification_chain: string[];
  notarized_document_types: string[];
  /** Rails the profile lets go without evidence (the others count as not clear when empty). */
  optional_rails: RailName[];
}

// ---------------------------------------------------------------------------------------------
// Ledger read API (SPEC §9)
// ---------------------------------------------------------------------------------------------

export interface LedgerEvent {
  seq: number;
  id: string;
  stream: string;
  type: string;
  schema: number;
  data: unknown;
  meta: {
    org_id: string | null;
    actor: string;
    request_id: string;
    correlation_id?: string;
    causation_id?: string;
  };
  recorded_at: IsoInstant;
  content_hash: string;
  prev_hash: string;
  hash: string;
}

/** Another org's event: only what the chain needs. */
export interface RedactedLedgerEvent {
  seq: number;
  type: 'Redacted';
  recorded_at: IsoInstant;
  content_hash: string;
  prev_hash: string;
  hash: string;
}

export type LedgerEntry = LedgerEvent | RedactedLedgerEvent;

export interface LedgerPage {
  events: LedgerEntry[];
  head: LedgerHead;
}

export interface LedgerVerifyStatus {
  ok: boolean;
  verified_through: number;
  head: LedgerHead;
  issues: { code: string; seq: number; expected: string; actual: string }[];
  last_run_at: string | null;
}

// ---------------------------------------------------------------------------------------------
// Transparency log (docs/transparency-log.md)
// ---------------------------------------------------------------------------------------------

/**
 * Proof that an event is leaf `leaf_index` of the tree a signed checkpoint commits to. Event hashes
 * are hex; Merkle hashes are standard base64.
 */
export interface LedgerReceipt {
  event: { seq: number; prev_hash: string; content_hash: string; hash: string };
  leaf_index: number;
  tree_size: number;
  inclusion_proof: string[];
  /** The signed checkpoint note (log signature first, then any witness cosignatures). */
  checkpoint: string;
}

/** Proof that the tree of size `to` extends the tree of size `from`. */
export interface LedgerConsistencyProof {
  from: number;
  to: number;
  consistency_proof: string[];
  /** The signed checkpoint note of size `to`, when `to` is the latest checkpoint's size; else null. */
  checkpoint: string | null;
}
