/**
 * The `history` action (SPEC §4): an entity's governance timeline, newest first — its own events
 * (registration, behavioral transitions, inquiries, registry checks) and the project facts and
 * findings that concern it. Items from another org's project carry `project_id: null` and a
 * generic summary (ARCHITECTURE §4): the bureau shares signals, not other lenders' deal data.
 */
import { z } from 'zod';
import { governance } from '../../projections/governance.js';
import { observationsProjection } from '../../projections/observations.js';
import { projectsProjection } from '../../projections/projects.js';
import { registryProjection } from '../../projections/registry.js';
import type { SealedEvent } from '../platform/ledger/envelope.js';
import type { Document, Project, ProjectsState } from '../projects/index.js';
import { authOf } from '../platform/http/context.js';
import type { Service } from '../platform/http/service.js';
import { nameText } from '../platform/http/validate.js';
import { resolveEntity } from '../registry/routes.js';
import type { EntityRecord } from '../registry/state.js';
import { STATE_SEVERITY, type BehavioralState } from '../credit/index.js';
import { defineAction, type LenderAction } from './actions.js';
import { valuesOf } from '../platform/projections/index.js';
import { own } from '../platform/records.js';

export const HISTORY_DEFAULT_LIMIT = 50;
export const HistoryBody = z.strictObject({
  entity: nameText(200),
  limit: z.int().min(1).max(500).default(HISTORY_DEFAULT_LIMIT),
  before: z.int().min(1).optional(),
});

type Severity = 'info' | 'warning' | 'blocking';

export interface Concern {
  seq: number;
  project_id: string | null;
  severity: Severity;
  /** Why this event is in the entity's timeline, for the summary. */
  role: string;
}

const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, blocking: 2 };

/** Adds a concern, keeping the more severe of two for the same event. */
function addConcern(out: Map<number, Concern>, c: Concern): void {
  const prior = out.get(c.seq);
  if (!prior || SEVERITY_RANK[c.severity] > SEVERITY_RANK[prior.severity]) out.set(c.seq, c);
}

/**
 * The projects that may concern the entity: those the `by_entity` index lists for it (every project
 * it is a party to or is named on a document of), or every project in a state without the index.
 * Walking every project and each of its documents took 5–6.5 s a request at 1M events (issue 19).
 */
function projectsConcerning(p: ProjectsState, id: string): Project[] {
  const indexed = p.by_entity;
  if (indexed === undefined) return valuesOf(p.projects);
  const ids = own(indexed, id) ?? [];
  return ids.flatMap((projectId) => p.projects[projectId] ?? []);
}

/**
 * The events of the entity's projects that concern it: each project it is a party to (its
 * registration and draws) and each document naming it, with the project it belongs to.
 */
export function projectConcerns(p: ProjectsState, id: string): Map<number, Concern> {
  const out = new Map<number, Concern>();
  const add = (c: Concern): void => addConcern(out, c);
  const projects = projectsConcerning(p, id);
  for (const project of projects) {
    const roles = [
      project.general_contractor === id && 'general contractor',
      project.borrower === id && 'borrower',
      project.architect === id && 'architect',
      project.inspector === id && 'inspector',
      project.sov.some((l) => l.subcontractor === id) && 'subcontractor',
    ].filter((r): r is string => typeof r === 'string');
    const index = p.by_project[project.id];
    if (roles.length > 0) {
      add({ seq: project.registered_seq, project_id: project.id, severity: 'info', role: roles.join(', ') });
      for (const drawId of index?.draw_ids ?? []) {
        const draw = p.draws[drawId];
        if (draw) add({ seq: draw.recorded_seq, project_id: project.id, severity: 'info', role: roles[0]! });
      }
    }
  }
  // The documents that may name it: through the `documents_by_entity` index those alone, not every
  // document of its projects; in a state without the indexes, its projects' documents.
  const concerning = new Set(projects.map((project) => project.id));
  const documentIds =
    p.by_entity !== undefined && p.documents_by_entity !== undefined
      ? (own(p.documents_by_entity, id) ?? [])
      : projects.flatMap((project) => p.by_project[project.id]?.document_ids ?? []);
  for (const docId of documentIds) {
    const doc = p.documents[docId];
    if (doc && namedOn(doc, id) && concerning.has(doc.project_id))
      add({
        seq: doc.recorded_seq,
        project_id: doc.project_id,
        severity: 'info',
        role: 'named on a document',
      });
  }
  return out;
}

/** Whether a document names the entity in its own role (a bill of sale's vendor is not listed here). */
function namedOn(doc: Document, id: string): boolean {
  return (
    (doc.type === 'LIEN_WAIVER' && doc.claimant === id) ||
    (doc.type === 'INVOICE' && doc.vendor === id) ||
    (doc.type === 'INSURANCE_CERTIFICATE' && doc.insured === id) ||
    (doc.type === 'INSPECTION_REPORT' && doc.inspector === id)
  );
}

/** The seqs of every event that concerns the entity, with the project it belongs to. */
function concerns(s: Service, entity: EntityRecord): Map<number, Concern> {
  const id = entity.entity_id;
  const out = projectConcerns(s.runtime.state(projectsProjection), id);
  const add = (c: Concern): void => addConcern(out, c);
  const obs = s.runtime.state(observationsProjection);
  for (const obsId of obs.by_entity[id] ?? []) {
    const o = obs.observations[obsId];
    if (o)
      add({
        seq: o.recorded_seq,
        project_id: o.project_id,
        severity:
          o.kind === 'osha_citation' && (o.type === 'W' || o.type === 'R' || o.type === 'S')
            ? 'warning'
            : 'info',
        role: 'observed',
      });
  }
  const g = s.runtime.state(governance);
  for (const findingId of g.findings_by_entity[id] ?? []) {
    const f = g.findings[findingId];
    if (!f) continue;
    add({
      seq: f.opened_seq,
      project_id: f.project_id,
      severity: f.severity === 'BLOCKING' ? 'blocking' : 'warning',
      role: `finding ${f.code}`,
    });
    if (f.resolved_seq !== null)
      add({
        seq: f.resolved_seq,
        project_id: f.project_id,
        severity: 'info',
        role: `finding ${f.code} resolved`,
      });
  }
  return out;
}

/**
 * A behavioral transition to a more adverse state is a warning; a step back up (PROBATION → WATCH,
 * WATCH → GOOD_STANDING) or PROVISIONAL → GOOD_STANDING is good news, not a warning.
 */
function transitionSeverity(event: SealedEvent): Severity {
  const { from, to } = (event.data ?? {}) as { from?: BehavioralState; to?: BehavioralState };
  if (from === undefined || to === undefined) return 'warning';
  return STATE_SEVERITY[to] > STATE_SEVERITY[from] ? 'warning' : 'info';
}

const DATE_FIELDS = [
  'effective_on',
  'observed_on',
  'scanned_on',
  'funded_on',
  'issued_on',
  'submitted_on',
  'signed_on',
  'resolved_on',
  'checked_at',
  'as_of',
];

function occurredAt(event: SealedEvent): string {
  const data = (event.data ?? {}) as Record<string, unknown>;
  for (const field of DATE_FIELDS) {
    const value = data[field];
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) return value;
  }
  return event.recorded_at;
}

function summaryOf(event: SealedEvent, concern: Concern | undefined, visible: boolean): string {
  if (!visible)
    return `${event.type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()} on another lender's project`;
  const data = (event.data ?? {}) as Record<string, unknown>;
  switch (event.type) {
    case 'BehavioralStateChanged':
      return `behavioral state ${String(data.from)} → ${String(data.to)}`;
    case 'CreditReportIssued':
      return `credit report issued: ${String(data.composite_score)} (${String(data.grade)})`;
    case 'RegistryVerified':
      return `registry checked: registration ${String(data.registration)}, exclusions ${String(data.exclusions)}`;
    default:
      return `${event.type} (${concern?.role ?? 'entity'})`;
  }
}

export function historyAction(s: Service): LenderAction {
  return defineAction({
    name: 'history',
    description:
      'Governance event timeline of an entity, newest first; other lenders’ project ids are redacted.',
    body_doc: {
      entity: 'string — legal name, alias/DBA, EIN or ent_ id',
      limit: 'integer 1–500 (default 50)',
      before: 'seq — page to events before this one (from next_before)',
    },
    schema: HistoryBody,
    counted: true,
    async handle(req, body) {
      const entity = resolveEntity(s.runtime.state(registryProjection), body.entity);
      const viewer = authOf(req).org_id;
      const byseq = concerns(s, entity);
      for (const e of await s.ledger.streamEvents(`entity-${entity.entity_id}`)) {
        if (!byseq.has(e.seq))
          byseq.set(e.seq, {
            seq: e.seq,
            project_id: null,
            severity: e.type === 'BehavioralStateChanged' ? transitionSeverity(e) : 'info',
            role: 'entity',
          });
      }
      const seqs = [...byseq.keys()]
        .filter((q) => body.before === undefined || q < body.before)
        .sort((a, b) => b - a);
      const page = seqs.slice(0, body.limit);
      const projects = s.runtime.state(projectsProjection).projects;
      const events = [];
      for (const event of await s.ledger.eventsAt(page)) {
        const seq = event.seq;
        const concern = byseq.get(seq);
        const projectId = concern?.project_id ?? null;
        const visible =
          projectId === null
            ? event.meta.org_id === null || event.meta.org_id === viewer || event.stream.startsWith('entity-')
            : projects[projectId]?.org_id === viewer;
        events.push({
          seq,
          type: event.type,
          occurred_at: occurredAt(event),
          recorded_at: event.recorded_at,
          project_id: visible ? projectId : null,
          severity: concern?.severity ?? 'info',
          summary: summaryOf(event, concern, visible),
          event_hash: event.hash,
        });
      }
      const last = page[page.length - 1];
      return {
        entity: entity.legal_name,
        entity_id: entity.entity_id,
        events,
        next_before: seqs.length > body.limit && last !== undefined ? last : null,
      };
    },
  });
}
