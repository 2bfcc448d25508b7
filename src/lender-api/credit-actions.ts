/**
 * The lender actions over the credit capability (SPEC §4): score, portfolio, verify, eligibility.
 * Entity references resolve by name, alias, EIN or ent_ id (404 with candidates, 409 ambiguous).
 * `score` records a CreditReportIssued inquiry (plus any behavioral transition now due) and
 * `verify` a RegistryVerified, so both are auditable.
 */
import type { Request } from 'express';
import { z } from 'zod';
import { credit as creditProjection } from '../../projections/credit.js';
import { projectsProjection } from '../../projections/projects.js';
import type { ProjectsState } from '../projects/index.js';
import { registryProjection } from '../../projections/registry.js';
import { authOf } from '../platform/http/context.js';
import { runCommand } from '../platform/http/command.js';
import { readAnchor } from '../platform/http/ledger-anchor.js';
import { ProblemError } from '../platform/http/problem.js';
import type { Service } from '../platform/http/service.js';
import { nameText } from '../platform/http/validate.js';
import type { SamApiSource } from '../registry/index.js';
import { resolveEntity } from '../registry/routes.js';
import type { EntityRecord } from '../registry/state.js';
import {
  assessedEligibility,
  creditReportFor,
  portfolioRow,
  registryVerified,
  type CreditReport,
  type PortfolioRow,
} from '../credit/index.js';
import { defineAction, type LenderAction } from './actions.js';
import { entityFacts, registryCheckOf, registryStatusOf } from './entity-facts.js';
import { liveRegistryFor } from './sam-live.js';
import { valuesOf } from '../platform/projections/index.js';

const EntityRef = nameText(200);
export const EntityBody = z.strictObject({ entity: EntityRef });
export const PortfolioBody = z
  .strictObject({
    scope: z.enum(['all', 'portfolio']).default('all'),
    sort: z.enum(['score', 'name']).default('score'),
    limit: z.int().min(1).max(500).default(100),
    cursor: z.string().max(200).optional(),
  })
  .optional();

function entityOf(s: Service, ref: string): EntityRecord {
  return resolveEntity(s.runtime.state(registryProjection), ref);
}

/** Entities taking part in the org's projects (SPEC §4 portfolio scope). */
export function counterpartiesOf(s: Service, org_id: string): Set<string> {
  return counterpartiesIn(s.runtime.state(projectsProjection), org_id);
}

/** The document types whose parties are an org's counterparties, and where each names it. */
const COUNTERPARTY_DOCUMENTS = ['LIEN_WAIVER', 'INVOICE', 'INSURANCE_CERTIFICATE'] as const;

/**
 * `counterpartiesOf` over the projects read model: the parties of each of the org's projects and
 * the entities its waivers, invoices and insurance certificates name — from the project index's
 * `document_parties_by_type` (no document is read: an org's projects hold ~100k at 1M events),
 * or, in a state without it, from the documents themselves.
 */
export function counterpartiesIn(p: ProjectsState, org_id: string): Set<string> {
  const ids = new Set<string>();
  for (const projectId of p.project_ids_by_org[org_id] ?? []) {
    const project = p.projects[projectId];
    if (!project) continue;
    for (const id of [project.borrower, project.general_contractor, project.architect, project.inspector])
      if (id) ids.add(id);
    for (const line of project.sov) if (line.subcontractor) ids.add(line.subcontractor);
    const parties = p.by_project[projectId]?.document_parties_by_type;
    if (parties !== undefined) {
      for (const type of COUNTERPARTY_DOCUMENTS) for (const id of parties[type] ?? []) ids.add(id);
      continue;
    }
    for (const docId of p.by_project[projectId]?.document_ids ?? []) {
      const doc = p.documents[docId];
      if (!doc) continue;
      if (doc.type === 'LIEN_WAIVER') ids.add(doc.claimant);
      if (doc.type === 'INVOICE') ids.add(doc.vendor);
      if (doc.type === 'INSURANCE_CERTIFICATE') ids.add(doc.insured);
    }
  }
  return ids;
}

/**
 * The offset a portfolio cursor carries: the decimal digits `next_cursor` wraps, nothing else
 * (Number() also read '' as 0, ' 1' and '0x1' as 1 and '1e1' as 10, so a damaged cursor served a
 * page — often the first again — instead of saying it was not ours).
 */
function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const n = /^\d{1,9}$/.test(text) ? Number(text) : -1;
  if (n < 0)
    throw new ProblemError('INVALID_REQUEST', 'cursor is not one this API issued', {
      errors: [{ path: 'cursor', code: 'invalid_value', message: 'unknown cursor' }],
    });
  return n;
}

/**
 * Computes an entity's credit report at the current ledger position and records it (with any
 * behavioral transition now due) as a CreditReportIssued inquiry. Shared by `score` and the PDF.
 * With `sam` (SAM_API_KEY set) the registry check is SAM.gov's live answer (asked first, at the
 * edge); a fresh answer is recorded as a RegistryVerified beside the inquiry.
 */
export async function issueCreditReport(
  s: Service,
  req: Request,
  ref: string,
  sam: SamApiSource | null = null,
): Promise<CreditReport> {
  const entity = entityOf(s, ref);
  const live = await liveRegistryFor(s, sam, entity);
  const anchor = await readAnchor(s);
  const committed = await runCommand(s.ledger, req, () => {
    const now = s.clock.now();
    const facts = entityFacts(s, entity, now, live);
    const issued = creditReportFor(s.runtime.state(creditProjection), {
      entity: entity.legal_name,
      facts,
      now,
      ledger_head: anchor,
      viewer_org_id: authOf(req).org_id,
    });
    // After the inquiry, so the inquiry's id (derived from an Idempotency-Key by position) is the
    // same whether or not a retry found this answer already recorded.
    const learned =
      live?.kind === 'answer' && live.fresh ? [registryVerified(entity.entity_id, facts.registry)] : [];
    return { events: [...issued.events, ...learned], result: issued.report };
  });
  return committed.result;
}

/** The lender actions; `sam` is the SAM.gov API adapter when SAM_API_KEY is configured. */
export function creditActions(s: Service, sam: SamApiSource | null = null): LenderAction[] {
  const score = defineAction({
    name: 'score',
    description:
      'Governance credit report for an entity (name, alias, EIN or ent_ id); records a CreditReportIssued inquiry.',
    body_doc: { entity: 'string — legal name, alias/DBA, EIN (NN-NNNNNNN) or ent_ id' },
    schema: EntityBody,
    counted: true,
    appends: true,
    async handle(req, body) {
      return (await issueCreditReport(s, req, body.entity, sam)) as unknown as Record<string, unknown>;
    },
  });

  const portfolio = defineAction({
    name: 'portfolio',
    description:
      'Scores of every governed entity (scope "all") or of the counterparties on your projects (scope "portfolio").',
    body_doc: {
      scope: '"all" (default) | "portfolio"',
      sort: '"score" (default) | "name"',
      limit: '1–500 (100)',
      cursor: 'opaque, from next_cursor',
    },
    schema: PortfolioBody,
    counted: true,
    handle(req, body) {
      const opts = body ?? { scope: 'all' as const, sort: 'score' as const, limit: 100 };
      const now = s.clock.now();
      const registry = s.runtime.state(registryProjection);
      const inScope = opts.scope === 'portfolio' ? counterpartiesOf(s, authOf(req).org_id) : null;
      const entities = valuesOf(registry.entities).filter(
        (e) => inScope === null || inScope.has(e.entity_id),
      );
      const creditState = s.runtime.state(creditProjection);
      const rows: PortfolioRow[] = entities.map((e) =>
        portfolioRow(creditState, e.legal_name, entityFacts(s, e, now), now),
      );
      rows.sort(
        opts.sort === 'name'
          ? (a, b) => a.entity.localeCompare(b.entity) || a.entity_id.localeCompare(b.entity_id)
          : (a, b) =>
              b.composite_score - a.composite_score ||
              a.entity.localeCompare(b.entity) ||
              a.entity_id.localeCompare(b.entity_id),
      );
      const offset = decodeCursor(opts.cursor);
      const data = rows.slice(offset, offset + opts.limit);
      const next =
        offset + opts.limit < rows.length
          ? Buffer.from(String(offset + opts.limit)).toString('base64url')
          : null;
      return { data, next_cursor: next, as_of: now.toISOString() };
    },
  });

  const verify = defineAction({
    name: 'verify',
    description:
      'Federal contractor registry check (SAM.gov registration and exclusions) for an entity — live from the SAM.gov API when the service has a SAM_API_KEY (answers reused for 24 h), else from the imported SAM extracts; records RegistryVerified.',
    body_doc: { entity: 'string — legal name, alias/DBA, EIN or ent_ id' },
    schema: EntityBody,
    counted: true,
    appends: true,
    async handle(req, body) {
      const entity = entityOf(s, body.entity);
      const live = await liveRegistryFor(s, sam, entity);
      const committed = await runCommand(s.ledger, req, () => {
        const now = s.clock.now();
        const check = registryCheckOf(s, entity, now, live);
        const status = registryStatusOf(check, now);
        const contractor_registry = {
          registration: check.registration,
          exclusions: check.exclusions,
          uei: check.uei,
          cage: check.cage,
          legal_name: check.legal_name,
          registration_expires_on: check.registration_expires_on,
          exclusion_records: check.exclusion_records.map(
            ({ program, type, agency, active_on, terminates_on }) => ({
              program,
              type,
              agency,
              active_on,
              terminates_on,
            }),
          ),
          source: status.source,
          checked_at: status.checked_at,
          ...(status.fallback ? { fallback: status.fallback } : {}),
        };
        return {
          events: [registryVerified(entity.entity_id, status)],
          result: { entity: entity.legal_name, entity_id: entity.entity_id, contractor_registry },
        };
      });
      return committed.result;
    },
  });

  const eligibility = defineAction({
    name: 'eligibility',
    description:
      'Payment release authorization level (PRAL), eligible payment rails, marketplace access and credit-improvement actions with recomputed gains.',
    body_doc: { entity: 'string — legal name, alias/DBA, EIN or ent_ id' },
    schema: EntityBody,
    counted: true,
    handle(_req, body) {
      const entity = entityOf(s, body.entity);
      const now = s.clock.now();
      const result = assessedEligibility(s.runtime.state(creditProjection), entityFacts(s, entity, now), now);
      return { entity: entity.legal_name, entity_id: entity.entity_id, ...result };
    },
  });

  return [score, portfolio, verify, eligibility];
}
