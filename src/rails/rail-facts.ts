/**
 * Builds the slice a rail evaluates from the read models. Org scoping happens here and only here:
 * a fact enters only if the org's index lists it *and* the fact itself carries the org's id, so
 * another org's projects, draws, documents or observations can never be counted.
 */
import type {
  IsoDate,
  ObservationKind,
  ObservationsState,
  Project,
  ProjectsState,
  Recorded,
} from '../projects/facts.js';
import { latestOf } from './dates.js';
import {
  RAIL_NAMES,
  type PlatformWatermarks,
  type PortfolioFacts,
  type RailFacts,
  type RailName,
} from './rail.js';

export interface RailFactsOptions {
  /** Narrow to one project (`?project_id=`); null or absent = the whole org. */
  project_id?: string | null;
  platform: PlatformWatermarks;
  /**
   * The caller's judgement of a distressed project (COUNTERPARTY), asked about the org's own
   * projects only: never a pass over every project of every org (issue 19).
   */
  isDistressed: (project_id: string) => boolean;
}

/** The org's facts listed by `ids`, dropping unknown ids and any fact of another org. */
function pick<T extends Recorded>(table: Record<string, T>, ids: readonly string[], org_id: string): T[] {
  return ids.flatMap((id) => {
    const fact = table[id];
    return fact !== undefined && fact.org_id === org_id ? [fact] : [];
  });
}

function portfolioOf(
  orgProjects: readonly Project[],
  isDistressed: (project_id: string) => boolean,
): PortfolioFacts {
  const ids = [...new Set(orgProjects.map((p) => p.id))];
  return {
    projects: orgProjects
      .map((p) => ({ id: p.id, general_contractor: p.general_contractor, loan_amount: p.loan_amount }))
      .sort((a, b) => (a.id < b.id ? -1 : 1)),
    distressed_project_ids: ids.filter((id) => isDistressed(id)).sort(),
  };
}

export function railFactsFor(
  projectsState: ProjectsState,
  observationsState: ObservationsState,
  org_id: string,
  options: RailFactsOptions,
): RailFacts {
  const project_id = options.project_id ?? null;
  const orgProjects = pick(projectsState.projects, projectsState.project_ids_by_org[org_id] ?? [], org_id);
  const projects = project_id === null ? orgProjects : orgProjects.filter((p) => p.id === project_id);
  const inScope = new Set(projects.map((p) => p.id));
  const indexes = projects.flatMap((p) => {
    const index = projectsState.by_project[p.id];
    return index === undefined ? [] : [index];
  });
  // Narrowed: the project's own index (recording order, like the org's), not a pass over every
  // observation the org ever recorded — governance reads this slice on every command.
  const observations =
    project_id === null
      ? pick(observationsState.observations, observationsState.by_org[org_id] ?? [], org_id)
      : pick(
          observationsState.observations,
          inScope.has(project_id) ? (observationsState.by_project[project_id] ?? []) : [],
          org_id,
        );
  const facts: Omit<RailFacts, 'platform'> = {
    org_id,
    project_id,
    projects,
    draws: pick(
      projectsState.draws,
      indexes.flatMap((i) => i.draw_ids),
      org_id,
    ),
    change_orders: pick(
      projectsState.change_orders,
      indexes.flatMap((i) => i.change_order_ids),
      org_id,
    ),
    documents: pick(
      projectsState.documents,
      indexes.flatMap((i) => i.document_ids),
      org_id,
    ),
    observations,
    portfolio: portfolioOf(orgProjects, options.isDistressed),
  };
  return {
    ...facts,
    platform: { ...options.platform, rail_data_last_observed: railDataLastObserved(facts) },
  };
}

/** The rail each observation kind feeds (DOMAIN §8 table); exhaustive over the kinds. */
export function railOfObservation(kind: ObservationKind): RailName {
  switch (kind) {
    case 'certified_payroll':
      return 'WORKFORCE';
    case 'milestone':
      return 'SCHEDULE';
    case 'osha_citation':
    case 'incident':
    case 'hours_worked':
      return 'SAFETY';
    case 'emissions_report':
    case 'environmental_inspection':
      return 'ENVIRONMENTAL';
    case 'material_delivery':
      return 'PROCUREMENT';
    case 'equipment_log':
      return 'EQUIPMENT';
    case 'weather_forecast':
    case 'thermal_scan':
      return 'WEATHER';
    case 'cost_index':
      return 'MARKET';
    default: {
      const unreachable: never = kind;
      throw new TypeError(`unknown observation kind ${String(unreachable)}`);
    }
  }
}

/** Day part of an instant (documents and change orders date from when they were recorded). */
const dayRecorded = (f: Recorded): IsoDate => f.recorded_at.slice(0, 10);

/**
 * Latest day each rail was fed, from the slice itself (so another org's fresh data can never make
 * this org's rail look fresh). Observations count by `observed_on`; SCHEDULE also by draw
 * submissions, INSURANCE by certificates, MARKET by change orders. SYSTEM_RISK and COUNTERPARTY
 * are not fed by observations: always null.
 */
export function railDataLastObserved(facts: Omit<RailFacts, 'platform'>): Record<RailName, IsoDate | null> {
  const days = new Map<RailName, IsoDate[]>(RAIL_NAMES.map((name) => [name, []]));
  const add = (rail: RailName, day: IsoDate): void => {
    days.get(rail)?.push(day);
  };
  for (const o of facts.observations) add(railOfObservation(o.kind), o.observed_on);
  for (const d of facts.draws) add('SCHEDULE', d.submitted_on);
  for (const d of facts.documents) if (d.type === 'INSURANCE_CERTIFICATE') add('INSURANCE', dayRecorded(d));
  for (const c of facts.change_orders) add('MARKET', dayRecorded(c));
  return Object.fromEntries(RAIL_NAMES.map((name) => [name, latestOf(days.get(name) ?? [])])) as Record<
    RailName,
    IsoDate | null
  >;
}
