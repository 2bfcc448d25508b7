/**
 * Which projects an entity takes part in and as what (DOMAIN §5: "signals from every project the
 * entity takes part in"). Roles decide which signals are its responsibility: the GC answers for its
 * draws, schedule, site safety and required insurance; every party answers for its own waivers,
 * invoices, certificates, observations and the findings attributed to it.
 */
import type { Document, Draw, EntityId, Project, ProjectsState } from '../projects/facts.js';
import { valuesOf } from '../platform/projections/index.js';
import { own } from '../platform/records.js';

export const PARTICIPATION_ROLES = [
  'general_contractor',
  'borrower',
  'architect',
  'inspector',
  'subcontractor',
  'claimant',
  'vendor',
  'insured',
] as const;
export type ParticipationRole = (typeof PARTICIPATION_ROLES)[number];

export interface Participation {
  project: Project;
  roles: ParticipationRole[];
  /**
   * The project's documents that name the entity in their own role (`documentRole`), in recording
   * order: what the rules read of a project it is not GC of, without reading the others.
   */
  documents: Document[];
}

function projectRoles(project: Project, entity: EntityId): Set<ParticipationRole> {
  const roles = new Set<ParticipationRole>();
  if (project.general_contractor === entity) roles.add('general_contractor');
  if (project.borrower === entity) roles.add('borrower');
  if (project.architect === entity) roles.add('architect');
  if (project.inspector === entity) roles.add('inspector');
  if (project.sov.some((line) => line.subcontractor === entity)) roles.add('subcontractor');
  return roles;
}

function documentRole(doc: Document, entity: EntityId): ParticipationRole | null {
  switch (doc.type) {
    case 'LIEN_WAIVER':
      return doc.claimant === entity ? 'claimant' : null;
    case 'INVOICE':
      return doc.vendor === entity ? 'vendor' : null;
    case 'BILL_OF_SALE':
      return doc.vendor === entity ? 'vendor' : null;
    case 'INSURANCE_CERTIFICATE':
      return doc.insured === entity ? 'insured' : null;
    case 'INSPECTION_REPORT':
      return doc.inspector === entity ? 'inspector' : null;
    case 'TITLE_DATE_DOWN':
      return null;
    default: {
      const unreachable: never = doc;
      return unreachable;
    }
  }
}

/**
 * The documents that may name the entity in their own role, in recording order: through the
 * projection's `documents_by_entity` index when the state has one (those alone are read: an
 * entity's projects hold hundreds of others'); otherwise the documents of `candidates` (its
 * projects by the `by_entity` index) or, without that either, every document. The caller keeps
 * those `documentRole` finds the entity's, which gives the same documents whichever path read them.
 */
function documentsNaming(
  projects: ProjectsState,
  entity: EntityId,
  candidates: readonly Project[] | null,
): Document[] {
  const ownIds = projects.documents_by_entity;
  if (ownIds !== undefined && candidates !== null)
    return (own(ownIds, entity) ?? []).flatMap((id) => projects.documents[id] ?? []);
  if (candidates === null) return valuesOf(projects.documents);
  return candidates.flatMap((p) =>
    (projects.by_project[p.id]?.document_ids ?? []).flatMap((id) => projects.documents[id] ?? []),
  );
}

/**
 * The entity's projects with its roles on each and its own documents there, in project-id order
 * (deterministic). Uses the projection's `by_entity` and `documents_by_entity` indexes when the
 * state has them (only those projects and the entity's own documents are read); a hand-built state
 * without them is scanned in full. Both give the same answer.
 */
export function participationOf(projects: ProjectsState, entity: EntityId): Participation[] {
  const roles = new Map<string, Set<ParticipationRole>>();
  const indexed = projects.by_entity;
  const candidates =
    indexed === undefined ? null : (own(indexed, entity) ?? []).flatMap((id) => projects.projects[id] ?? []);
  for (const project of candidates ?? valuesOf(projects.projects)) {
    const found = projectRoles(project, entity);
    if (found.size > 0) roles.set(project.id, found);
  }
  const documents = new Map<string, Document[]>();
  for (const doc of documentsNaming(projects, entity, candidates)) {
    const role = documentRole(doc, entity);
    if (role === null || projects.projects[doc.project_id] === undefined) continue;
    const set = roles.get(doc.project_id) ?? new Set<ParticipationRole>();
    set.add(role);
    roles.set(doc.project_id, set);
    const list = documents.get(doc.project_id);
    if (list === undefined) documents.set(doc.project_id, [doc]);
    else list.push(doc);
  }
  return [...roles.keys()].sort().map((id) => ({
    project: projects.projects[id]!,
    roles: PARTICIPATION_ROLES.filter((r) => roles.get(id)!.has(r)),
    documents: documents.get(id) ?? [],
  }));
}

/** Projects the entity is the general contractor of, in project-id order. */
export function gcProjects(participation: readonly Participation[]): Project[] {
  return participation.filter((p) => p.roles.includes('general_contractor')).map((p) => p.project);
}

/** Whether the entity billed on a draw: the GC always, a subcontractor when one of its lines moved. */
export function billedOn(project: Project, draw: Draw, entity: EntityId): boolean {
  if (project.general_contractor === entity) return true;
  const own = new Set(project.sov.filter((l) => l.subcontractor === entity).map((l) => l.line));
  return draw.lines.some((l) => own.has(l.line) && l.this_period + l.stored_materials > 0);
}
