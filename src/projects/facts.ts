/**
 * The facts every engine reads (DOMAIN §1): the read-model types the `projects` and `observations`
 * projections hold. Governance scans (DOMAIN §2–§3), capital adequacy (§4), credit (§5) and the
 * rails (§8) code against these shapes and nothing else of this capability.
 *
 * Conventions, so engines never have to guess:
 * - Money is integer cents (`Cents`); change-order amounts and deltas may be negative (deductive
 *   change orders), every other amount is ≥ 0.
 * - Dates are ISO `YYYY-MM-DD` (`IsoDate`); instants are ISO-8601 UTC (`IsoInstant`).
 * - Percentages are numbers 0–100 (DOMAIN preamble).
 * - Absent values are `null`, never a missing key: a JSON snapshot then round-trips to an equal
 *   state, and engines test `=== null` instead of juggling `undefined`.
 * - Every fact carries `org_id`, the `recorded_at` instant and the `recorded_seq` of the event that
 *   recorded it (evidence and "newer than every event that affects the draw" checks need the seq).
 */
import type { UsJurisdiction } from './jurisdictions.js';
import type { ProfileName, PushRail, SignerRole } from './profiles.js';

/** Integer cents. */
export type Cents = number;
/** Calendar date, `YYYY-MM-DD`. */
export type IsoDate = string;
/** Instant, ISO-8601 UTC (`2026-03-01T12:00:00.000Z`). */
export type IsoInstant = string;
/** A registry entity id, `ent_` + 16 base32 chars (owned by the registry capability). */
export type EntityId = string;

/** Where and when a fact entered the ledger. */
export interface Recorded {
  org_id: string;
  recorded_at: IsoInstant;
  recorded_seq: number;
}

// ---------------------------------------------------------------------------------------------
// Project
// ---------------------------------------------------------------------------------------------

/** One schedule-of-values line (G703 columns A–C before change orders). */
export interface SovLine {
  /** Line number, unique within the project (G703 column A). */
  line: number;
  description: string;
  /** Original scheduled value, cents (G703 column C before change orders). */
  scheduled_value: Cents;
  trade: string;
  /** The subcontractor performing the line, when not the GC itself. */
  subcontractor: EntityId | null;
}

/** Insurance coverage types (DOMAIN §1 insurance certificate). */
export const COVERAGE_TYPES = ['GL', 'BUILDERS_RISK', 'WORKERS_COMP', 'AUTO', 'UMBRELLA'] as const;
export type CoverageType = (typeof COVERAGE_TYPES)[number];

/** A coverage the GC must hold (DOMAIN §3 INSURANCE_EXPIRY). */
export interface RequiredCoverage {
  type: CoverageType;
  min_limit: Cents;
}

/** A schedule milestone (DOMAIN §1 "milestones (optional)", §8 SCHEDULE rail slippage). */
export interface Milestone {
  name: string;
  due_on: IsoDate;
  /** Set at registration or by a later `milestone` observation (§8 SCHEDULE). */
  completed_on: IsoDate | null;
}

export interface Project extends Recorded {
  /** `prj_…` */
  id: string;
  name: string;
  profile: ProfileName;
  borrower: EntityId;
  general_contractor: EntityId;
  architect: EntityId | null;
  inspector: EntityId | null;
  jurisdiction: UsJurisdiction;
  loan_amount: Cents;
  equity: Cents;
  /** Original contract sum (G702 line 1). */
  contract_sum: Cents;
  /**
   * Owner's/lender's contingency budget outside the SOV, cents; 0 when registration names none.
   * DOMAIN §4 cashflow counts "remaining contingency" among sources, so it has to be a fact.
   */
  contingency: Cents;
  retainage_pct: number;
  interest_rate_pct: number;
  start_date: IsoDate;
  completion_date: IsoDate;
  maturity_date: IsoDate;
  sov: SovLine[];
  required_coverages: RequiredCoverage[];
  /** Empty when registration named none. */
  milestones: Milestone[];
  registered_at: IsoInstant;
  registered_seq: number;
  /**
   * Seq of the latest fact recorded on this project (change order, document, draw, signature,
   * observation, draw status change). A compilation older than this is stale (SPEC §6 gate).
   */
  last_fact_seq: number;
}

// ---------------------------------------------------------------------------------------------
// Change order
// ---------------------------------------------------------------------------------------------

export interface ChangeOrderLine {
  line: number;
  /** Signed change to the line's scheduled value, cents. */
  delta: Cents;
}

export interface ChangeOrder extends Recorded {
  /** `CO-…` */
  id: string;
  project_id: string;
  /** The owner's change-order number as written on the document (unique per project). */
  number: string;
  /** Signed amount, cents; may differ from Σ deltas — that difference is a §2 finding, not a reject. */
  amount: Cents;
  lines: ChangeOrderLine[];
  description: string;
  /** null = not executed; only executed change orders move scheduled values (DOMAIN §2). */
  executed_on: IsoDate | null;
  lender_approved_on: IsoDate | null;
  work_started_on: IsoDate | null;
}

// ---------------------------------------------------------------------------------------------
// Documents (DOMAIN §1), a union on `type`
// ---------------------------------------------------------------------------------------------

export const DOCUMENT_TYPES = [
  'LIEN_WAIVER',
  'INSURANCE_CERTIFICATE',
  'INSPECTION_REPORT',
  'TITLE_DATE_DOWN',
  'INVOICE',
  'BILL_OF_SALE',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Id prefix per document type (src/platform/ids.ts). */
export const DOCUMENT_ID_PREFIX: Readonly<Record<DocumentType, string>> = {
  LIEN_WAIVER: 'WAIV-',
  INSURANCE_CERTIFICATE: 'COI-',
  INSPECTION_REPORT: 'INSP-',
  TITLE_DATE_DOWN: 'TTL-',
  INVOICE: 'INV-',
  BILL_OF_SALE: 'BOS-',
};

export interface DocumentBase extends Recorded {
  /** Prefixed per `DOCUMENT_ID_PREFIX`. */
  id: string;
  project_id: string;
}

export const WAIVER_TYPES = [
  'CONDITIONAL_PROGRESS',
  'UNCONDITIONAL_PROGRESS',
  'CONDITIONAL_FINAL',
  'UNCONDITIONAL_FINAL',
] as const;
export type WaiverType = (typeof WAIVER_TYPES)[number];

/** An exception carved out of a lien waiver (DOMAIN §2: any exception → WARNING). */
export interface WaiverException {
  description: string;
  /** The amount excepted, when the waiver states one. */
  amount: Cents | null;
}

export interface LienWaiver extends DocumentBase {
  type: 'LIEN_WAIVER';
  claimant: EntityId;
  /** The draw (payment) the waiver releases; a draw of the same project. */
  draw_id: string;
  waiver_type: WaiverType;
  amount: Cents;
  through_date: IsoDate;
  /** null while the waiver is not yet signed. */
  signed_on: IsoDate | null;
  /** Executed = signed and delivered (SPEC §6 gate "every lien waiver the draw requires is executed"). */
  executed: boolean;
  /** Empty = no exceptions. */
  exceptions: WaiverException[];
}

export interface InsuranceCertificate extends DocumentBase {
  type: 'INSURANCE_CERTIFICATE';
  insured: EntityId;
  coverage_type: CoverageType;
  limit: Cents;
  effective_on: IsoDate;
  expires_on: IsoDate;
  /** Whether the lender is named additional insured. */
  additional_insured: boolean;
}

export interface InspectionLine {
  line: number;
  /** Inspector's percent complete for the line, 0–100. */
  percent_complete: number;
}

export interface InspectionReport extends DocumentBase {
  type: 'INSPECTION_REPORT';
  /** The draw inspected; null for a site inspection not tied to one draw. */
  draw_id: string | null;
  inspector: EntityId;
  inspected_on: IsoDate;
  lines: InspectionLine[];
  stored_materials_verified: boolean;
}

/** A lien found by a title date-down (DOMAIN §3 TITLE_DATE_DOWN, §5 lien claims). */
export interface TitleLien {
  claimant_name: string;
  /** The claimant's registry id, when it is a governed entity. */
  claimant: EntityId | null;
  amount: Cents;
  recorded_on: IsoDate;
}

export interface TitleDateDown extends DocumentBase {
  type: 'TITLE_DATE_DOWN';
  effective_on: IsoDate;
  /** Empty = clean date-down. */
  new_liens: TitleLien[];
}

export interface Invoice extends DocumentBase {
  type: 'INVOICE';
  vendor: EntityId;
  /** The vendor's invoice number (DOMAIN §2 duplicate = same vendor + number in an earlier draw). */
  number: string;
  amount: Cents;
  /** The SOV line billed. */
  line: number;
  /** The draw the invoice was issued against, when stated; draws also list invoices themselves. */
  draw_id: string | null;
}

/** Stored materials on one SOV line covered by a bill of sale. */
export interface BillOfSaleLine {
  line: number;
  description: string;
  amount: Cents;
}

export interface BillOfSale extends DocumentBase {
  type: 'BILL_OF_SALE';
  vendor: EntityId | null;
  /** The draw whose stored materials it supports, when stated. */
  draw_id: string | null;
  lines: BillOfSaleLine[];
  /** Σ lines.amount (checked at ingestion). */
  amount: Cents;
  /** Stored materials insured (DOMAIN §2 STORED_MATERIALS_UNSUPPORTED). */
  insured: boolean;
}

export type Document =
  LienWaiver | InsuranceCertificate | InspectionReport | TitleDateDown | Invoice | BillOfSale;

// ---------------------------------------------------------------------------------------------
// Draw (AIA G702/G703 pay application)
// ---------------------------------------------------------------------------------------------

export const DRAW_STATUSES = ['SUBMITTED', 'COMPILED', 'FUNDED', 'REJECTED'] as const;
export type DrawStatus = (typeof DRAW_STATUSES)[number];

/** One G703 continuation-sheet row. Stated columns D/E/F; everything else derived. */
export interface DrawLine {
  /** Column A. */
  line: number;
  /** Column B (from the SOV). */
  description: string;
  /** SOV scheduled value before change orders. */
  original_scheduled_value: Cents;
  /** Σ deltas of change orders counted into C (see `scheduled_value`). */
  change_order_delta: Cents;
  /**
   * Column C: original + deltas of change orders recorded before the draw and executed on or
   * before its `period_to` — frozen at submission, as the contractor's sheet is.
   */
  scheduled_value: Cents;
  /** Column D, as stated: work completed in previous applications. */
  previous: Cents;
  /** Column E, as stated: work completed this period. */
  this_period: Cents;
  /** Column F, as stated: materials presently stored (not in D or E). */
  stored_materials: Cents;
  /** Column G = D + E + F. */
  completed_and_stored: Cents;
  /** Column H = G / C × 100, rounded to 2 decimals; 0 when C is 0. */
  percent_complete: number;
  /** Column I = C − G (negative when over-billed). */
  balance_to_finish: Cents;
  /** Column J = round(G × retainage_pct / 100). */
  retainage: Cents;
}

/** The G702 application summary, derived from the lines and the project's facts at submission. */
export interface DrawSummary {
  /** Line 1: Σ original scheduled values of the SOV. */
  original_contract_sum: Cents;
  /** Line 2: Σ change-order deltas counted into C. */
  net_change_orders: Cents;
  /** Line 3 = 1 + 2 (Σ C). */
  contract_sum_to_date: Cents;
  /** Line 4: Σ G. */
  total_completed_and_stored: Cents;
  /** Line 5: the draw's `retainage_withheld`. */
  retainage: Cents;
  /** Line 6 = 4 − 5. */
  total_earned_less_retainage: Cents;
  /** Line 7: the draw's `previous_certificates_total`. */
  previous_certificates: Cents;
  /** Line 8 = 6 − 7. */
  current_payment_due: Cents;
  /** Line 9 = 3 − 6. */
  balance_to_finish_including_retainage: Cents;
}

/**
 * How a signature was given (docs/duties.md): ED25519 — an enrolled signer's Ed25519 signature over
 * the SHA-256 of the draw's application, verified on receipt; SELF_ATTESTED — the seed's unsigned
 * shape (a role and a name typed by whoever holds a key), recorded but never counted by the gate.
 */
export type SignatureAttestation = 'ED25519' | 'SELF_ATTESTED';

export interface Signature {
  role: SignerRole;
  signer_name: string;
  signed_on: IsoDate;
  attestation: SignatureAttestation;
  /** The enrolled signer (`sgn_…`) and key, null when self-attested. */
  signer_id: string | null;
  key_id: string | null;
  /** SHA-256 (hex) of the application signed; a later change to the draw voids the signature. */
  application_sha256: string | null;
  /** Base64 Ed25519 signature, null when self-attested. */
  signature: string | null;
  recorded_at: IsoInstant;
  recorded_seq: number;
}

/** A signed lien waiver (or other document): the claimant's signer executed it (docs/duties.md). */
export interface DocumentSignature {
  document_id: string;
  signer_id: string;
  key_id: string;
  signer_name: string;
  /** SHA-256 (hex) of the document's signing bytes. */
  document_sha256: string;
  signature: string;
  signed_on: IsoDate;
  recorded_at: IsoInstant;
  recorded_seq: number;
}

export interface Draw extends Recorded {
  /** `DRW-…` */
  id: string;
  project_id: string;
  application_no: number;
  period_from: IsoDate;
  period_to: IsoDate;
  submitted_on: IsoDate;
  /** Every SOV line exactly once, in SOV order. */
  lines: DrawLine[];
  retainage_pct: number;
  /** As stated on the application, or `retainage_expected` when the application states none. */
  retainage_withheld: Cents;
  /** Derived: round(retainage_pct × Σ G / 100) — DOMAIN §2 RETAINAGE_MISCALCULATED compares. */
  retainage_expected: Cents;
  /** As stated (G702 line 7), or `previous_funded_total` when the application states none. */
  previous_certificates_total: Cents;
  /** Derived: Σ funded_amount of the project's draws funded before this one was submitted. */
  previous_funded_total: Cents;
  requested_amount: Cents;
  /** `INV-…` ids of the project's invoices supporting this application. */
  invoices: string[];
  summary: DrawSummary;
  /** In recording order; one per role at most. */
  signatures: Signature[];
  status: DrawStatus;
  /** Seq of the latest `DrawCompiled` for this draw (governance), null before any. */
  compiled_seq: number | null;
  /** Set by governance's `PaymentPushed`. */
  funded_on: IsoDate | null;
  funded_amount: Cents | null;
  payment_id: string | null;
  payment_rail: PushRail | null;
  /** Seq of the latest fact about this draw (submission, signature, document naming it, status). */
  last_fact_seq: number;
}

// ---------------------------------------------------------------------------------------------
// Observations (DOMAIN §8 rail facts), a union on `kind`
// ---------------------------------------------------------------------------------------------

export const OBSERVATION_KINDS = [
  'certified_payroll',
  'milestone',
  'osha_citation',
  'incident',
  'hours_worked',
  'emissions_report',
  'environmental_inspection',
  'material_delivery',
  'equipment_log',
  'weather_forecast',
  'thermal_scan',
  'cost_index',
] as const;
export type ObservationKind = (typeof OBSERVATION_KINDS)[number];

export interface ObservationBase extends Recorded {
  /** `OBS-…` */
  id: string;
  project_id: string | null;
  entity_id: EntityId | null;
  /** The day the fact was observed (rail freshness, recency weighting). */
  observed_on: IsoDate;
}

/** WORKFORCE: one certified payroll (period, headcount, prevailing_wage_ok). */
export interface CertifiedPayroll extends ObservationBase {
  kind: 'certified_payroll';
  period_from: IsoDate;
  period_to: IsoDate;
  headcount: number;
  prevailing_wage_ok: boolean;
}

/** SCHEDULE: a project milestone reached; also sets the project's `milestones[].completed_on`. */
export interface MilestoneObservation extends ObservationBase {
  kind: 'milestone';
  /** Name of a milestone of the project. */
  name: string;
  completed_on: IsoDate;
}

export const OSHA_CITATION_TYPES = ['S', 'W', 'R', 'O'] as const;
/** S serious, W willful, R repeat, O other (DOMAIN §5 points, §8 SAFETY). */
export type OshaCitationType = (typeof OSHA_CITATION_TYPES)[number];

/** SAFETY: an OSHA-style citation. */
export interface OshaCitation extends ObservationBase {
  kind: 'osha_citation';
  activity_nr: string;
  type: OshaCitationType;
  penalty: Cents;
  abate_by: IsoDate;
  /**
   * Not in the §8 column list, but "open abatement past due" cannot be decided without it:
   * null = not yet abated.
   */
  abated_on: IsoDate | null;
}

/** SAFETY: an incident (TRIR numerator). */
export interface Incident extends ObservationBase {
  kind: 'incident';
  recordable: boolean;
  lost_time: boolean;
}

/** SAFETY: hours worked (TRIR denominator: recordables × 200,000 / hours). */
export interface HoursWorked extends ObservationBase {
  kind: 'hours_worked';
  hours: number;
}

/** ENVIRONMENTAL: emissions vs budget. */
export interface EmissionsReport extends ObservationBase {
  kind: 'emissions_report';
  tco2e: number;
  budget_tco2e: number;
}

/** ENVIRONMENTAL: an environmental inspection. */
export interface EnvironmentalInspection extends ObservationBase {
  kind: 'environmental_inspection';
  passed: boolean;
  /** Open violations found (0 when none). */
  violations: number;
}

/** PROCUREMENT: a material delivery. */
export interface MaterialDelivery extends ObservationBase {
  kind: 'material_delivery';
  material: string;
  needed_by: IsoDate;
  /** null = not delivered yet. */
  delivered_on: IsoDate | null;
  quantity: number;
  /** Beyond §8's list: "late *critical* delivery" needs to know which deliveries are critical. */
  critical: boolean;
  /** Beyond §8's list: the SOV line it supplies, so "stored materials billed without delivery" can match. */
  line: number | null;
}

/** EQUIPMENT: an equipment log reading. */
export interface EquipmentLog extends ObservationBase {
  kind: 'equipment_log';
  asset: string;
  /** Operating hours since the last maintenance (failure risk: > 1.2 × interval_hours). */
  hours: number;
  utilization_pct: number;
  last_maintenance_on: IsoDate;
  interval_hours: number;
}

/** WEATHER: a forecast for one day. */
export interface WeatherForecast extends ObservationBase {
  kind: 'weather_forecast';
  /** The day forecast (observed_on is when the forecast was taken). */
  date: IsoDate;
  precip_mm: number;
  wind_kph: number;
  heat_index_c: number;
}

/** WEATHER: a thermal scan. */
export interface ThermalScan extends ObservationBase {
  kind: 'thermal_scan';
  temp_c: number;
  /** Beyond §8's list: the "concrete pour below 5 °C" finding applies only to scans of a pour. */
  concrete_pour: boolean;
}

/** MARKET: a cost index reading vs its baseline (escalation % = (index − baseline) / baseline). */
export interface CostIndex extends ObservationBase {
  kind: 'cost_index';
  material: string;
  index: number;
  baseline: number;
}

export type Observation =
  | CertifiedPayroll
  | MilestoneObservation
  | OshaCitation
  | Incident
  | HoursWorked
  | EmissionsReport
  | EnvironmentalInspection
  | MaterialDelivery
  | EquipmentLog
  | WeatherForecast
  | ThermalScan
  | CostIndex;

// ---------------------------------------------------------------------------------------------
// Finding resolution
// ---------------------------------------------------------------------------------------------

/** An explicit resolution of a governance finding (DOMAIN §2 "or by an explicit resolution"). */
export interface FindingResolution extends Recorded {
  /** `FND-…` (minted by governance). */
  finding_id: string;
  resolution: string;
  resolved_on: IsoDate;
  /** A document of the same org evidencing the cure. */
  evidence_document_id: string | null;
  /**
   * What was resolved: the finding's severity and the facts it rested on (`kind`, `id`) at the
   * head the resolution was decided at. The resolution covers the finding only as found so; absent
   * on resolutions recorded before they were kept (governance `resolutionCovers`).
   */
  severity?: 'WARNING' | 'BLOCKING';
  evidence?: { kind: string; id: string }[];
}

// ---------------------------------------------------------------------------------------------
// Projection states
// ---------------------------------------------------------------------------------------------

/** Ids of one project's facts, each list in recording order. */
export interface ProjectIndex {
  change_order_ids: string[];
  document_ids: string[];
  /**
   * `document_ids` by document type, each in recording order: a rule after one kind (a GC's title
   * date-downs, its inspections) reads those, not the project's hundreds of waivers and invoices.
   * Optional so hand-built states may leave it out; readers then filter `document_ids`.
   */
  document_ids_by_type?: Partial<Record<DocumentType, string[]>>;
  /**
   * The entities the project's documents of each type name in their own role (the claimant of a
   * waiver, the vendor of an invoice…), each once, in first-appearance order: an org's
   * counterparties without reading its projects' documents. Optional as `document_ids_by_type`.
   */
  document_parties_by_type?: Partial<Record<DocumentType, string[]>>;
  /** Recording order, which is also application order for consecutive submissions. */
  draw_ids: string[];
}

/** State of the `projects` projection (projections/projects.ts). Plain objects only (JSON snapshots). */
export interface ProjectsState {
  projects: Record<string, Project>;
  change_orders: Record<string, ChangeOrder>;
  documents: Record<string, Document>;
  draws: Record<string, Draw>;
  /** By finding id. */
  resolutions: Record<string, FindingResolution>;
  by_project: Record<string, ProjectIndex>;
  /**
   * Each org's project ids and finding-resolution ids, in recording order: append-only lists
   * (`appendOnlyLists`), which the read-model file extends by the new ids alone at each flush —
   * not arrays in one record per org, rewritten whole at each flush that touched them (they grow
   * with the org's history, issue 19).
   */
  project_ids_by_org: Record<string, string[]>;
  resolution_ids_by_org: Record<string, string[]>;
  /**
   * Project ids each entity takes part in — as a party, an SOV subcontractor, or the claimant,
   * vendor, insured or inspector of a document — in first-appearance order. Lets the credit
   * bureau find an entity's projects without reading every document (src/credit/participation.ts).
   * Optional so hand-built states may leave it out; readers then scan.
   */
  by_entity?: Record<string, string[]>;
  /**
   * Document ids naming each entity in the document's own role — the claimant of a lien waiver,
   * the vendor of an invoice or bill of sale, the insured of a certificate, the inspector of a
   * report — in recording order: an append-only list (`appendOnlyLists`). Lets the credit bureau
   * read an entity's own documents without reading every document of its projects (a project has
   * hundreds; src/credit/participation.ts). Optional so hand-built states may leave it out; readers
   * then scan the documents of the entity's projects.
   */
  documents_by_entity?: Record<string, string[]>;
  /** Signatures executing documents (lien waivers), by document id, in recording order. */
  document_signatures?: Record<string, DocumentSignature[]>;
}

/** State of the `observations` projection (projections/observations.ts). */
export interface ObservationsState {
  observations: Record<string, Observation>;
  /**
   * Observation ids per org / project / entity, in recording order: append-only lists
   * (`appendOnlyLists`), which the read-model file extends by the new ids alone at each flush —
   * not one growing array per owner in a record rewritten whole (~1.7 MB for an org at 1M events).
   */
  by_org: Record<string, string[]>;
  by_project: Record<string, string[]>;
  by_entity: Record<string, string[]>;
}
