/**
 * Read helpers over the projected facts. Every helper takes the caller's org and answers
 * `undefined` (or an empty page) for another org's id, exactly as for an unknown one
 * (ARCHITECTURE §4). Lists are in recording order with `limit` + opaque cursor (SPEC §2).
 */
import { DEFAULT_PAGE_LIMIT, decodeCursor, encodeCursor } from './contract-primitives.js';
import type {
  ChangeOrder,
  Document,
  DocumentType,
  Draw,
  FindingResolution,
  Observation,
  ObservationKind,
  ObservationsState,
  Project,
  ProjectsState,
} from './facts.js';
import { PROFILES, type SignerRole } from './profiles.js';
import { own } from '../platform/records.js';

export interface PageRequest {
  limit?: number;
  /** An opaque cursor from a previous page; an unreadable one starts from the beginning. */
  cursor?: string;
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

function ownedBy<T extends { org_id: string }>(item: T | undefined, org_id: string): T | undefined {
  return item && item.org_id === org_id ? item : undefined;
}

export const getProject = (s: ProjectsState, org_id: string, id: string): Project | undefined =>
  ownedBy(own(s.projects, id), org_id);
export const getChangeOrder = (s: ProjectsState, org_id: string, id: string): ChangeOrder | undefined =>
  ownedBy(own(s.change_orders, id), org_id);
export const getDocument = (s: ProjectsState, org_id: string, id: string): Document | undefined =>
  ownedBy(own(s.documents, id), org_id);
export const getDraw = (s: ProjectsState, org_id: string, id: string): Draw | undefined =>
  ownedBy(own(s.draws, id), org_id);
export const getResolution = (
  s: ProjectsState,
  org_id: string,
  finding_id: string,
): FindingResolution | undefined => ownedBy(own(s.resolutions, finding_id), org_id);
export const getObservation = (s: ObservationsState, org_id: string, id: string): Observation | undefined =>
  ownedBy(own(s.observations, id), org_id);

/** The governed entities a document names (claimant, vendor, insured, inspector). */
function documentParties(doc: Document): (string | null)[] {
  switch (doc.type) {
    case 'LIEN_WAIVER':
      return [doc.claimant];
    case 'INVOICE':
    case 'BILL_OF_SALE':
      return [doc.vendor];
    case 'INSURANCE_CERTIFICATE':
      return [doc.insured];
    case 'INSPECTION_REPORT':
      return [doc.inspector];
    case 'TITLE_DATE_DOWN':
      return [];
    default: {
      const unreachable: never = doc;
      return unreachable;
    }
  }
}

/**
 * Whether the entity takes part in the project: a party to it, an SOV subcontractor, or named by
 * one of its documents (the projection's `by_entity` index; a hand-built state is scanned).
 * What a lender may furnish facts about (OWASP API6: no facts about strangers to its projects).
 */
export function isPartyTo(s: ProjectsState, project: Project, entity: string): boolean {
  if (s.by_entity !== undefined) return (own(s.by_entity, entity) ?? []).includes(project.id);
  const named = [project.borrower, project.general_contractor, project.architect, project.inspector];
  if (named.includes(entity) || project.sov.some((l) => l.subcontractor === entity)) return true;
  return (own(s.by_project, project.id)?.document_ids ?? []).some((id) => {
    const doc = own(s.documents, id);
    return doc !== undefined && documentParties(doc).includes(entity);
  });
}

/** Slices an id list into a page, resolving ids through `lookup`. */
export function paginate<T>(
  ids: readonly string[],
  lookup: (id: string) => T | undefined,
  page: PageRequest,
): Page<T> {
  const limit = page.limit ?? DEFAULT_PAGE_LIMIT;
  const start = page.cursor === undefined ? 0 : (decodeCursor(page.cursor) ?? 0);
  const data: T[] = [];
  for (const id of ids.slice(start, start + limit)) {
    const item = lookup(id);
    if (item !== undefined) data.push(item);
  }
  const end = start + limit;
  return { data, next_cursor: end < ids.length ? encodeCursor(end) : null };
}

export function listProjects(s: ProjectsState, org_id: string, page: PageRequest = {}): Page<Project> {
  return paginate(s.project_ids_by_org[org_id] ?? [], (id) => getProject(s, org_id, id), page);
}

/** Ids of one of the org's projects' facts; empty for another org's project. */
function projectIndex(s: ProjectsState, org_id: string, project_id: string) {
  return getProject(s, org_id, project_id) ? s.by_project[project_id] : undefined;
}

export function listChangeOrders(
  s: ProjectsState,
  org_id: string,
  project_id: string,
  page: PageRequest = {},
) {
  const ids = projectIndex(s, org_id, project_id)?.change_order_ids ?? [];
  return paginate(ids, (id) => getChangeOrder(s, org_id, id), page);
}

export function listDraws(
  s: ProjectsState,
  org_id: string,
  project_id: string,
  page: PageRequest = {},
): Page<Draw> {
  return paginate(projectIndex(s, org_id, project_id)?.draw_ids ?? [], (id) => getDraw(s, org_id, id), page);
}

/** Documents of a project, optionally of one type (the filter applies before paging). */
export function listDocuments(
  s: ProjectsState,
  org_id: string,
  project_id: string,
  page: PageRequest = {},
  type?: DocumentType,
): Page<Document> {
  let ids = projectIndex(s, org_id, project_id)?.document_ids ?? [];
  if (type !== undefined) ids = ids.filter((id) => s.documents[id]?.type === type);
  return paginate(ids, (id) => getDocument(s, org_id, id), page);
}

export function listResolutions(s: ProjectsState, org_id: string, page: PageRequest = {}) {
  return paginate(s.resolution_ids_by_org[org_id] ?? [], (id) => getResolution(s, org_id, id), page);
}

export interface ObservationFilter {
  project_id?: string;
  entity_id?: string;
  kind?: ObservationKind;
}

/** The org's observations, narrowed by project, entity and/or kind (filters apply before paging). */
export function listObservations(
  s: ObservationsState,
  org_id: string,
  filter: ObservationFilter = {},
  page: PageRequest = {},
): Page<Observation> {
  const lookup = (id: string) => getObservation(s, org_id, id);
  const { project_id, entity_id, kind } = filter;
  // Unfiltered, a page reads its own records only: the filter below read every observation the org
  // ever recorded for each page (1.26 s a page at 1M events, 5.7 ms at 100k; issue 19).
  if (project_id === undefined && entity_id === undefined && kind === undefined)
    return paginate(s.by_org[org_id] ?? [], lookup, page);
  // Else the narrowest list that holds every match, in recording order as the org's list is (so a
  // match keeps its place, and a cursor its meaning): the project's or the entity's observations,
  // kept to the org's own.
  const base =
    project_id !== undefined
      ? own(s.by_project, project_id)
      : entity_id !== undefined
        ? own(s.by_entity, entity_id)
        : s.by_org[org_id];
  const ids = (base ?? []).filter((id) => {
    const o = lookup(id);
    if (!o) return false;
    if (project_id !== undefined && o.project_id !== project_id) return false;
    if (entity_id !== undefined && o.entity_id !== entity_id) return false;
    return kind === undefined || o.kind === kind;
  });
  return paginate(ids, lookup, page);
}

// ---------------------------------------------------------------------------------------------
// Engine conveniences: everything about one project, unpaged
// ---------------------------------------------------------------------------------------------

/** One project's facts in recording order — what a governance scan of the project reads. */
export interface ProjectFacts {
  project: Project;
  change_orders: ChangeOrder[];
  documents: Document[];
  draws: Draw[];
}

export function projectFacts(s: ProjectsState, org_id: string, project_id: string): ProjectFacts | undefined {
  const project = getProject(s, org_id, project_id);
  const index = s.by_project[project_id];
  if (!project || !index) return undefined;
  return {
    project,
    change_orders: index.change_order_ids.flatMap((id) => s.change_orders[id] ?? []),
    documents: index.document_ids.flatMap((id) => s.documents[id] ?? []),
    draws: index.draw_ids.flatMap((id) => s.draws[id] ?? []),
  };
}

/** Chain roles of the draw's profile that have not signed yet (SPEC §6 signatures gate). */
export function missingSignatures(s: ProjectsState, draw: Draw): SignerRole[] {
  const project = s.projects[draw.project_id];
  if (!project) return [];
  const signed = new Set(draw.signatures.map((sig) => sig.role));
  return PROFILES[project.profile].certification_chain.filter((role) => !signed.has(role));
}
