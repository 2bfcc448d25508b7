/**
 * Events of the `projects` capability: one per ingested fact (SPEC §5). Payloads hold what the
 * fact states, never what can be derived from it — G702/G703 columns are computed by the
 * projection. Money is integer cents; absent values are `null`.
 *
 * Also documented here: the `governance` events this capability's projection folds into the draw
 * status (`DrawCompiled`, `PaymentPushed`, `DrawRejected`), so draw facts live in one place.
 */
import type { EventInput } from '../platform/ledger/index.js';
import type {
  ChangeOrder,
  Document,
  DocumentBase,
  DocumentSignature,
  FindingResolution,
  IsoDate,
  Observation,
  ObservationBase,
  Project,
  Recorded,
  Signature,
} from './facts.js';
import type { PushRail } from './profiles.js';

/** Payload schema version of every event below (ARCHITECTURE §3.1 `schema`). */
export const PROJECTS_EVENT_SCHEMA = 1;

type Stated<T> = Omit<T, keyof Recorded>;
/** Removes keys from each member of a union separately (plain `Omit` would flatten the union). */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Attests that an org registered a project with this profile, parties, money, dates and SOV. */
export interface ProjectRegisteredData extends Omit<
  Stated<Project>,
  'id' | 'registered_at' | 'registered_seq' | 'last_fact_seq'
> {
  project_id: string;
}

/** Attests that a change order with these per-line deltas and dates exists for the project. */
export interface ChangeOrderRecordedData extends Omit<Stated<ChangeOrder>, 'id'> {
  change_order_id: string;
}

/** Attests that a document (waiver, COI, inspection, title date-down, invoice, bill of sale) was received. */
export type DocumentRecordedData = DistributiveOmit<Document, keyof DocumentBase> & {
  document_id: string;
  project_id: string;
};

/** One G703 row as stated by the contractor: columns A, D, E, F. */
export interface DrawLineStated {
  line: number;
  previous: number;
  this_period: number;
  stored_materials: number;
}

/** Attests that a G702/G703 pay application was submitted with these stated figures. */
export interface DrawSubmittedData {
  draw_id: string;
  project_id: string;
  application_no: number;
  period_from: IsoDate;
  period_to: IsoDate;
  submitted_on: IsoDate;
  lines: DrawLineStated[];
  retainage_pct: number;
  /** null = not stated; the projection then uses the expected retainage. */
  retainage_withheld: number | null;
  /** null = not stated; the projection then uses Σ funded before submission. */
  previous_certificates_total: number | null;
  requested_amount: number;
  invoices: string[];
}

type AttestationFields = 'attestation' | 'signer_id' | 'key_id' | 'application_sha256' | 'signature';

/**
 * Attests that a certification-chain role signed the draw: verified Ed25519 (signer, key, the
 * application's SHA-256 and the signature) or self-attested. Events recorded before signed duties
 * lack the attestation fields: they read as SELF_ATTESTED.
 */
export interface DrawSignedData
  extends
    Omit<Signature, 'recorded_at' | 'recorded_seq' | AttestationFields>,
    Partial<Pick<Signature, AttestationFields>> {
  draw_id: string;
  project_id: string;
}

/** Attests that an enrolled signer of the claimant signed the document's signing bytes (verified on receipt). */
export interface DocumentSignedData extends Omit<DocumentSignature, 'recorded_at' | 'recorded_seq'> {
  project_id: string;
}

/** Attests a rail fact (DOMAIN §8) observed on a day, about a project and/or entity. */
export type ObservationRecordedData = DistributiveOmit<Observation, keyof ObservationBase> & {
  observation_id: string;
  project_id: string | null;
  entity_id: string | null;
  observed_on: IsoDate;
};

/** Attests that the org explicitly resolved a governance finding, with optional evidence. */
export type FindingResolvedData = Stated<FindingResolution>;

export interface ProjectsEventMap {
  ProjectRegistered: ProjectRegisteredData;
  ChangeOrderRecorded: ChangeOrderRecordedData;
  DocumentRecorded: DocumentRecordedData;
  DrawSubmitted: DrawSubmittedData;
  DrawSigned: DrawSignedData;
  DocumentSigned: DocumentSignedData;
  ObservationRecorded: ObservationRecordedData;
  FindingResolved: FindingResolvedData;
}
export type ProjectsEventType = keyof ProjectsEventMap;

/** An event this capability appends. */
export type ProjectsEvent = {
  [T in ProjectsEventType]: EventInput<T, ProjectsEventMap[T]> & { id: string; schema: number };
}[ProjectsEventType];

// ---------------------------------------------------------------------------------------------
// Governance events folded into Draw (appended by the governance / payments capabilities)
// ---------------------------------------------------------------------------------------------

/**
 * Shapes this projection relies on; extra fields are ignored. An event whose `draw_id` is unknown
 * or of another org (by `meta.org_id`) is ignored.
 */
export interface GovernanceDrawEventMap {
  /** A compile-for-draw ran (SPEC §6): SUBMITTED → COMPILED; sets `compiled_seq`. */
  DrawCompiled: { draw_id: string };
  /**
   * Money was pushed for the draw (SPEC §6 payment push): → FUNDED with `funded_amount = amount`,
   * `funded_on = funded_on ?? recorded_at's UTC date`, `payment_id`, `payment_rail`.
   */
  PaymentPushed: {
    draw_id: string;
    amount: number;
    payment_id?: string;
    rail?: PushRail;
    funded_on?: IsoDate;
  };
  /** The lender rejected the draw: → REJECTED (a FUNDED draw stays FUNDED). */
  DrawRejected: { draw_id: string };
}

// ---------------------------------------------------------------------------------------------
// Streams and builders
// ---------------------------------------------------------------------------------------------

/** `project-prj_…` (ARCHITECTURE §3.1). */
export const projectStream = (projectId: string): string => `project-${projectId}`;
/** `draw-DRW-…` (ARCHITECTURE §3.1). */
export const drawStream = (drawId: string): string => `draw-${drawId}`;
/** `finding-FND-…`: resolutions belong to the finding, whose project the ledger may not say. */
export const findingStream = (findingId: string): string => `finding-${findingId}`;
/** `entity-ent_…` for entity-only observations; `org-org_…` for market-wide ones. */
export const entityStream = (entityId: string): string => `entity-${entityId}`;
export const orgStream = (orgId: string): string => `org-${orgId}`;

/** Builds the one event a command appends; `id` is the event id the resource id was minted from. */
export function projectsEvent<T extends ProjectsEventType>(
  type: T,
  id: string,
  stream: string,
  data: ProjectsEventMap[T],
): EventInput<T, ProjectsEventMap[T]> & { id: string; schema: number } {
  return { id, stream, type, schema: PROJECTS_EVENT_SCHEMA, data };
}

/** Type guard used by the projections: this capability's events by type name. */
export function isProjectsEventType(type: string): type is ProjectsEventType {
  return Object.hasOwn(EVENT_TYPE_SET, type);
}
const EVENT_TYPE_SET: Readonly<Record<ProjectsEventType, true>> = {
  ProjectRegistered: true,
  ChangeOrderRecorded: true,
  DocumentRecorded: true,
  DrawSubmitted: true,
  DrawSigned: true,
  DocumentSigned: true,
  ObservationRecorded: true,
  FindingResolved: true,
};
