/**
 * Deciding `POST /api/observations` (DOMAIN §8 rail facts). The project, when named, must be the
 * org's; a milestone must be one of the project's and a delivery's SOV line one of its lines. The
 * event goes to the project's stream, else the entity's, else the org's (market-wide readings such
 * as cost indexes); its `meta.org_id` (hash-covered) names the furnishing org.
 *
 * Facts about an entity feed every lender's credit report, so who may furnish them is narrow
 * (OWASP API6): a lender only about an entity taking part in the named project of its own
 * (an unknown entity and a stranger to the project answer the same 404), and a fact about an
 * entity outside any project only the platform operator (403 for a tenant).
 */
import { isoDate } from '../platform/clock.js';
import { idFromUuid } from '../platform/ids.js';
import type { RecordObservationBody } from './contract.js';
import {
  accepted,
  forbidden,
  invalid,
  notFound,
  orNull,
  type DecideContext,
  type Decided,
  type Issue,
} from './decision.js';
import {
  entityStream,
  orgStream,
  projectsEvent,
  projectStream,
  type DistributiveOmit,
  type ObservationRecordedData,
} from './events.js';
import type { Project, ProjectsState } from './facts.js';
import { getProject, isPartyTo } from './queries.js';
import { checkEntity, checkHappened, checkSovLine } from './references.js';

export function decideRecordObservation(
  state: ProjectsState,
  body: RecordObservationBody,
  ctx: DecideContext,
): Decided {
  const project = body.project_id === undefined ? null : getProject(state, ctx.org_id, body.project_id);
  if (project === undefined) return notFound(`unknown project ${body.project_id ?? ''}`);
  const furnisher = furnisherRefusal(state, project, body, ctx);
  if (furnisher !== null) return furnisher;
  const issues = observationIssues(project, body, ctx);
  if (issues.length > 0)
    return invalid('the observation references something unknown, or is dated after today', issues);

  const observation_id = idFromUuid('OBS-', ctx.eventId);
  const { project_id: _p, entity, observed_on: _o, ...fields } = body;
  const data: ObservationRecordedData = {
    observation_id,
    project_id: project?.id ?? null,
    entity_id: orNull(entity),
    observed_on: body.observed_on,
    ...kindFields(fields),
  };
  const stream = project
    ? projectStream(project.id)
    : entity !== undefined
      ? entityStream(entity)
      : orgStream(ctx.org_id);
  return accepted(projectsEvent('ObservationRecorded', ctx.eventId, stream, data), observation_id);
}

/** Refuses a fact the caller may not furnish about `body.entity`; null when it may. */
function furnisherRefusal(
  state: ProjectsState,
  project: Project | null,
  body: RecordObservationBody,
  ctx: DecideContext,
): Decided | null {
  const entity = body.entity;
  if (entity === undefined) return null;
  if (project === null) {
    if (ctx.platform_operator !== true)
      return forbidden('facts about an entity outside any project are furnished by the platform operator');
    return ctx.lookups.entityExists(entity) ? null : notFound(`unknown entity ${entity}`);
  }
  if (!ctx.lookups.entityExists(entity) || !isPartyTo(state, project, entity))
    return notFound(`no entity ${entity} takes part in project ${project.id}`);
  return null;
}

function observationIssues(
  project: Project | null,
  body: RecordObservationBody,
  ctx: DecideContext,
): Issue[] {
  const issues: Issue[] = [];
  checkEntity(ctx, issues, ['entity'], body.entity);
  // An observation reports what was seen: a day after today has not been seen yet (a forecast's
  // observed_on is the day it was taken).
  const today = isoDate(ctx.now);
  if (body.observed_on > today)
    issues.push({
      path: ['observed_on'],
      code: 'out_of_range',
      message: `observed_on ${body.observed_on} is after today (${today})`,
    });
  // Dates inside the fact that say when something happened are held to the same day (deadlines —
  // abate_by, needed_by — and a forecast's date may lie ahead). Reached ahead, a milestone never
  // slipped (SCHEDULE_SLIPPAGE, the GC's schedule_performance) whenever it was really reached;
  // abated ahead, a willful or repeat citation stopped being CRITICAL and an abatement past its
  // deadline stopped counting as open (safety rail, the GC's safety_record) at once; delivered
  // ahead, a late critical delivery stopped being reported before anything arrived; a payroll
  // certified for weeks not yet worked kept WORKFORCE_PAYROLL_MISSING quiet until they passed.
  if (body.kind === 'milestone') checkHappened(ctx, issues, ['completed_on'], body.completed_on);
  if (body.kind === 'osha_citation') checkHappened(ctx, issues, ['abated_on'], body.abated_on);
  if (body.kind === 'material_delivery') checkHappened(ctx, issues, ['delivered_on'], body.delivered_on);
  if (body.kind === 'certified_payroll') checkHappened(ctx, issues, ['period_to'], body.period_to);
  // A service not yet done is no service: the EQUIPMENT rail's finding cites it as the day the
  // hours since service count from ("260 hours since service on 2027-06-01").
  if (body.kind === 'equipment_log')
    checkHappened(ctx, issues, ['last_maintenance_on'], body.last_maintenance_on);
  const needsProject = (what: string) =>
    issues.push({ path: ['project_id'], code: 'project_required', message: `${what} needs a project_id` });
  if (body.kind === 'milestone') {
    if (!project) needsProject('a milestone');
    else if (!project.milestones.some((m) => m.name === body.name)) {
      issues.push({
        path: ['name'],
        code: 'unknown_milestone',
        message: `${project.id} has no milestone "${body.name}"`,
      });
    }
  }
  if (body.kind === 'material_delivery' && body.line !== undefined) {
    if (!project) needsProject('a delivery for an SOV line');
    else checkSovLine(project, issues, ['line'], body.line);
  }
  return issues;
}

type KindBody = DistributiveOmit<RecordObservationBody, 'project_id' | 'entity' | 'observed_on'>;
type KindFields = DistributiveOmit<
  ObservationRecordedData,
  'observation_id' | 'project_id' | 'entity_id' | 'observed_on'
>;

/** Kind-specific fields as the fact states them: optional values become null or their default. */
function kindFields(body: KindBody): KindFields {
  switch (body.kind) {
    case 'osha_citation':
      return { ...body, abated_on: orNull(body.abated_on) };
    case 'material_delivery':
      return {
        ...body,
        delivered_on: orNull(body.delivered_on),
        critical: body.critical ?? false,
        line: orNull(body.line),
      };
    case 'thermal_scan':
      return { ...body, concrete_pour: body.concrete_pour ?? false };
    case 'certified_payroll':
    case 'milestone':
    case 'incident':
    case 'hours_worked':
    case 'emissions_report':
    case 'environmental_inspection':
    case 'equipment_log':
    case 'weather_forecast':
    case 'cost_index':
      return { ...body };
    default: {
      const unreachable: never = body;
      return unreachable;
    }
  }
}
