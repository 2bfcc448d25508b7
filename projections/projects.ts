/**
 * The `projects` read model (ARCHITECTURE §6): projects, SOV, change orders, documents, draws with
 * their derived G702/G703 columns, signatures, funding and finding resolutions, indexed per org
 * and per project. Draw status follows governance's `DrawCompiled` / `PaymentPushed` /
 * `DrawRejected` (shapes in src/projects/events.ts) so every draw fact lives here.
 * Pure: state is a function of the ledger prefix; it updates the state it owns in place.
 */
import type { SealedEvent } from '../src/platform/ledger/index.js';
import type { Projection } from '../src/platform/projections/runtime.js';
import { cloneJson } from '../src/platform/projections/clone.js';
import { appendOnlyLists, appendTo } from '../src/platform/projections/read-model-file.js';
import {
  isProjectsEventType,
  type DocumentSignedData,
  type DrawSignedData,
  type DrawSubmittedData,
  type GovernanceDrawEventMap,
  type ObservationRecordedData,
  type ProjectsEventMap,
  type ProjectsEventType,
} from '../src/projects/events.js';
import {
  DOCUMENT_TYPES,
  type Document,
  type DocumentType,
  type Draw,
  type ProjectIndex,
  type ProjectsState,
} from '../src/projects/facts.js';
import { freezeApplication } from '../src/projects/pay-application.js';

type Known = { [T in ProjectsEventType]: SealedEvent<T, ProjectsEventMap[T]> }[ProjectsEventType];

export const projectsProjection: Projection<ProjectsState> = {
  name: 'projects',
  // 3: `by_entity` (the credit bureau's participation index). 4: signed duties (attested signatures,
  // `document_signatures`). 5: an org's project and resolution ids as append-only lists
  // (`project_ids_by_org`, `resolution_ids_by_org`), not arrays in one record per org.
  // 6: `documents_by_entity` and `by_project[…].document_ids_by_type` (an entity's own documents,
  // a project's documents of one type: a score reads those, not every document of its projects),
  // `by_project[…].document_parties_by_type` (an org's counterparties without its documents).
  version: 6,
  init: () => ({
    projects: {},
    change_orders: {},
    documents: {},
    draws: {},
    resolutions: {},
    by_project: {},
    project_ids_by_org: appendOnlyLists(),
    resolution_ids_by_org: appendOnlyLists(),
    by_entity: {},
    documents_by_entity: appendOnlyLists(),
    document_signatures: {},
  }),
  evolve(state, event) {
    const org_id = event.meta.org_id;
    // Every fact is org-scoped; an event without an org cannot be one of ours.
    if (org_id === null) return state;
    if (isProjectsEventType(event.type)) applyFact(state, event as Known, org_id);
    else applyGovernance(state, event, org_id);
    return state;
  },
};

function applyFact(s: ProjectsState, event: Known, org_id: string): void {
  // A project's milestones are written later (`completed_on`): its payload is copied so those writes
  // stay off the sealed event's payload, whose hash must keep verifying. Every other record is a
  // fresh object (draws build their own lines, invoices and signatures) whose nested payload values
  // are never written, so they are shared, not copied — a replay copies nothing it does not write.
  const e: Known = event.type === 'ProjectRegistered' ? { ...event, data: cloneJson(event.data) } : event;
  const recorded = { org_id, recorded_at: e.recorded_at, recorded_seq: e.seq };
  switch (e.type) {
    case 'ProjectRegistered': {
      const { project_id, ...fields } = e.data;
      s.projects[project_id] = {
        ...fields,
        ...recorded,
        id: project_id,
        registered_at: e.recorded_at,
        registered_seq: e.seq,
        last_fact_seq: e.seq,
      };
      s.by_project[project_id] = emptyIndex();
      appendTo(s.project_ids_by_org, org_id, project_id);
      for (const party of [fields.borrower, fields.general_contractor, fields.architect, fields.inspector])
        takesPart(s, party, project_id);
      for (const line of fields.sov) takesPart(s, line.subcontractor, project_id);
      return;
    }
    case 'ChangeOrderRecorded': {
      const { change_order_id, ...fields } = e.data;
      s.change_orders[change_order_id] = { ...fields, ...recorded, id: change_order_id };
      projectIndex(s, fields.project_id).change_order_ids.push(change_order_id);
      touchProject(s, fields.project_id, e.seq);
      return;
    }
    case 'DocumentRecorded': {
      const { document_id, ...fields } = e.data;
      s.documents[document_id] = { ...fields, ...recorded, id: document_id };
      const party = documentParty(s.documents[document_id]);
      const index = projectIndex(s, fields.project_id);
      index.document_ids.push(document_id);
      // Only the types there are: a payload's type is a key here (never `__proto__`).
      if (KNOWN_TYPES.has(fields.type)) {
        if (index.document_ids_by_type !== undefined)
          (index.document_ids_by_type[fields.type] ??= []).push(document_id);
        const parties = index.document_parties_by_type;
        if (typeof party === 'string' && parties !== undefined) {
          const named = (parties[fields.type] ??= []);
          if (!named.includes(party)) named.push(party);
        }
      }
      takesPart(s, party, fields.project_id);
      if (typeof party === 'string' && s.documents_by_entity !== undefined)
        appendTo(s.documents_by_entity, party, document_id);
      touchProject(s, fields.project_id, e.seq);
      if ('draw_id' in fields && fields.draw_id !== null) touchDraw(s, fields.draw_id, e.seq);
      return;
    }
    case 'DrawSubmitted':
      return submitDraw(s, e.data, recorded);
    case 'DrawSigned':
      return signDraw(s, e.data, e);
    case 'DocumentSigned':
      return signDocument(s, e.data, e);
    case 'ObservationRecorded':
      return observe(s, e.data, e.seq);
    case 'FindingResolved': {
      // A finding reopened (found graver, or on new facts) is resolved again: the newer resolution
      // replaces the older, and the org lists the finding once.
      const first = s.resolutions[e.data.finding_id] === undefined;
      s.resolutions[e.data.finding_id] = { ...e.data, ...recorded };
      if (first) appendTo(s.resolution_ids_by_org, org_id, e.data.finding_id);
      return;
    }
    default: {
      const unreachable: never = e;
      return unreachable;
    }
  }
}

interface RecordedAt {
  org_id: string;
  recorded_at: string;
  recorded_seq: number;
}

/** Freezes the G702/G703 as of submission: C uses the change orders recorded so far. */
function submitDraw(s: ProjectsState, d: DrawSubmittedData, recorded: RecordedAt): void {
  const project = s.projects[d.project_id];
  const index = s.by_project[d.project_id];
  if (!project || !index) return;
  const changeOrders = index.change_order_ids.flatMap((id) => s.change_orders[id] ?? []);
  const previous_funded_total = index.draw_ids.reduce((a, id) => a + (s.draws[id]?.funded_amount ?? 0), 0);
  const { lines, retainage_expected, retainage_withheld, previous_certificates_total, summary } =
    freezeApplication(project.sov, changeOrders, d, previous_funded_total);
  const draw: Draw = {
    ...recorded,
    id: d.draw_id,
    project_id: d.project_id,
    application_no: d.application_no,
    period_from: d.period_from,
    period_to: d.period_to,
    submitted_on: d.submitted_on,
    lines,
    retainage_pct: d.retainage_pct,
    retainage_withheld,
    retainage_expected,
    previous_certificates_total,
    previous_funded_total,
    requested_amount: d.requested_amount,
    invoices: [...d.invoices],
    summary,
    signatures: [],
    status: 'SUBMITTED',
    compiled_seq: null,
    funded_on: null,
    funded_amount: null,
    payment_id: null,
    payment_rail: null,
    last_fact_seq: recorded.recorded_seq,
  };
  s.draws[d.draw_id] = draw;
  index.draw_ids.push(d.draw_id);
  touchProject(s, d.project_id, recorded.recorded_seq);
}

function signDraw(s: ProjectsState, d: DrawSignedData, e: SealedEvent): void {
  const draw = s.draws[d.draw_id];
  if (!draw) return;
  const { role, signer_name, signed_on } = d;
  // Events before signed duties (issue 15) carry the seed's shape: self-attested.
  draw.signatures.push({
    role,
    signer_name,
    signed_on,
    attestation: d.attestation ?? 'SELF_ATTESTED',
    signer_id: d.signer_id ?? null,
    key_id: d.key_id ?? null,
    application_sha256: d.application_sha256 ?? null,
    signature: d.signature ?? null,
    recorded_at: e.recorded_at,
    recorded_seq: e.seq,
  });
  // A signature certifies the draw; it changes nothing a compile reads, so it does not make the
  // latest compilation stale (SPEC §6 gate: "newer than every event that affects the draw"). The
  // `signatures` gate checks signatures itself. Without this, compile → sign → push could never pass.
}

/** A document's execution by signature; it changes nothing a compile reads (like a draw signature). */
function signDocument(s: ProjectsState, d: DocumentSignedData, e: SealedEvent): void {
  if (!s.documents[d.document_id]) return;
  const { project_id: _project, ...signature } = d;
  ((s.document_signatures ??= {})[d.document_id] ??= []).push({
    ...signature,
    recorded_at: e.recorded_at,
    recorded_seq: e.seq,
  });
}

/** A milestone observation completes the project's milestone; any observation is a project fact. */
function observe(s: ProjectsState, d: ObservationRecordedData, seq: number): void {
  if (d.project_id === null) return;
  const project = s.projects[d.project_id];
  if (!project) return;
  if (d.kind === 'milestone') {
    const milestone = project.milestones.find((m) => m.name === d.name);
    if (milestone) milestone.completed_on = d.completed_on;
  }
  project.last_fact_seq = seq;
}

// ---------------------------------------------------------------------------------------------
// Governance events (documented in src/projects/events.ts GovernanceDrawEventMap)
// ---------------------------------------------------------------------------------------------

/**
 * The governance results this read model folds (each moves a draw's status); it leaves every other
 * governance event alone, which the facts memo relies on (src/lender-api/facts-memo.ts).
 */
export const GOVERNANCE_EVENTS_FOLDED: ReadonlySet<string> = new Set<keyof GovernanceDrawEventMap>([
  'DrawCompiled',
  'PaymentPushed',
  'DrawRejected',
]);

const foldsGovernance = (e: SealedEvent): e is SealedEvent<keyof GovernanceDrawEventMap> =>
  GOVERNANCE_EVENTS_FOLDED.has(e.type);

function applyGovernance(s: ProjectsState, e: SealedEvent, org_id: string): void {
  if (!foldsGovernance(e)) return;
  const data = e.data as Partial<GovernanceDrawEventMap[typeof e.type]> | null;
  const draw = typeof data?.draw_id === 'string' ? s.draws[data.draw_id] : undefined;
  if (!draw || draw.org_id !== org_id) return;
  if (e.type === 'DrawCompiled') {
    draw.compiled_seq = e.seq;
    if (draw.status === 'SUBMITTED') draw.status = 'COMPILED';
    return;
  }
  if (draw.status === 'FUNDED') return; // the first payment funds the draw; SPEC §6 refuses a second
  if (e.type === 'DrawRejected') draw.status = 'REJECTED';
  else fund(draw, data as Partial<GovernanceDrawEventMap['PaymentPushed']>, e.recorded_at);
  touchDraw(s, draw.id, e.seq);
}

function fund(draw: Draw, d: Partial<GovernanceDrawEventMap['PaymentPushed']>, recordedAt: string): void {
  draw.status = 'FUNDED';
  draw.funded_amount = typeof d.amount === 'number' ? d.amount : draw.requested_amount;
  draw.funded_on = d.funded_on ?? recordedAt.slice(0, 10);
  draw.payment_id = d.payment_id ?? null;
  draw.payment_rail = d.rail ?? null;
}

// ---------------------------------------------------------------------------------------------
// Indexes
// ---------------------------------------------------------------------------------------------

/** Records that `entity` takes part in the project (once; first appearance keeps its place). */
function takesPart(s: ProjectsState, entity: string | null, project_id: string): void {
  if (entity === null || s.by_entity === undefined) return;
  const ids = (s.by_entity[entity] ??= []);
  if (!ids.includes(project_id)) ids.push(project_id);
}

/** The entity a document names in its own role (src/credit/participation.ts `documentRole`). */
function documentParty(doc: Document): string | null {
  switch (doc.type) {
    case 'LIEN_WAIVER':
      return doc.claimant;
    case 'INVOICE':
    case 'BILL_OF_SALE':
      return doc.vendor;
    case 'INSURANCE_CERTIFICATE':
      return doc.insured;
    case 'INSPECTION_REPORT':
      return doc.inspector;
    case 'TITLE_DATE_DOWN':
      return null;
    default: {
      const unreachable: never = doc;
      return unreachable;
    }
  }
}

function projectIndex(s: ProjectsState, project_id: string): ProjectIndex {
  return (s.by_project[project_id] ??= emptyIndex());
}

const KNOWN_TYPES: ReadonlySet<string> = new Set<DocumentType>(DOCUMENT_TYPES);

function emptyIndex(): ProjectIndex {
  return {
    change_order_ids: [],
    document_ids: [],
    draw_ids: [],
    document_ids_by_type: {},
    document_parties_by_type: {},
  };
}

function touchProject(s: ProjectsState, project_id: string, seq: number): void {
  const project = s.projects[project_id];
  if (project) project.last_fact_seq = seq;
}

/** A fact about a draw is also a fact about its project. */
function touchDraw(s: ProjectsState, draw_id: string, seq: number): void {
  const draw = s.draws[draw_id];
  if (!draw) return;
  draw.last_fact_seq = seq;
  touchProject(s, draw.project_id, seq);
}
