/**
 * Read views of the credit bureau for the governance pages (issue 18), Bearer `governance:read`,
 * counted on the per-minute policy (not the lender API's daily quota; nothing is recorded):
 * - `GET /api/portfolio`: every governed entity with grade, behavioral state, a trend of its
 *   recorded reports and the caller's open findings on it; sorted server-side, paginated.
 * - `GET /api/entities/:id/credit`: one entity's score history from its recorded reports, current
 *   dimensions, behavioral timeline, and inquiries by month — other lenders' counted, never named.
 */
import { z } from 'zod';
import { credit as creditProjection } from '../../projections/credit.js';
import { governance } from '../../projections/governance.js';
import { registryProjection } from '../../projections/registry.js';
import { authOf } from '../platform/http/context.js';
import { ProblemError } from '../platform/http/problem.js';
import { projectGuard, type Service } from '../platform/http/service.js';
import { parseWith } from '../platform/http/validate.js';
import { resolveEntity } from '../registry/routes.js';
import {
  inquiriesOf,
  planBehavior,
  portfolioRow,
  RECENT_SCORES,
  scoreEntity,
  type PortfolioRow,
} from '../credit/index.js';
import { entityFacts } from './entity-facts.js';
import { valuesOf } from '../platform/projections/index.js';

export const PortfolioQuery = z.strictObject({
  sort: z.enum(['name', 'score', 'grade', 'state', 'open_findings']).default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
  limit: z.coerce.number().int().min(1).max(500).default(25),
  cursor: z.string().max(200).optional(),
});
const EntityParams = z.strictObject({ id: z.string().trim().min(1).max(200) });

/** How many recorded reports a sparkline shows: the scores each entity's credit record keeps. */
export const TREND_POINTS = RECENT_SCORES;

export interface PortfolioEntry extends PortfolioRow {
  trend: number[];
  open_findings: number;
}

function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^\d{1,9}$/.test(text)) throw new ProblemError('INVALID_REQUEST', 'cursor is not one this API issued');
  return Number(text);
}

function compare(
  sort: z.infer<typeof PortfolioQuery>['sort'],
): (a: PortfolioEntry, b: PortfolioEntry) => number {
  switch (sort) {
    case 'name':
      return (a, b) => a.entity.localeCompare(b.entity);
    case 'score':
    case 'grade':
      return (a, b) => a.composite_score - b.composite_score;
    case 'state':
      return (a, b) => a.behavioral_state.localeCompare(b.behavioral_state);
    case 'open_findings':
      return (a, b) => a.open_findings - b.open_findings;
    default: {
      const unhandled: never = sort;
      throw new Error(`unknown sort ${String(unhandled)}`);
    }
  }
}

export function mountCreditViews(s: Service): void {
  const read = projectGuard(s, 'governance:read');

  s.routes.add('GET', '/api/portfolio', ...read, (req, res) => {
    const q = parseWith(PortfolioQuery, req.query, 'query');
    const org_id = authOf(req).org_id;
    const now = s.clock.now();
    const credit = s.runtime.state(creditProjection);
    const g = s.runtime.state(governance);
    const rows: PortfolioEntry[] = valuesOf(s.runtime.state(registryProjection).entities).map((e) => ({
      ...portfolioRow(credit, e.legal_name, entityFacts(s, e, now), now),
      trend: [...(credit.entities[e.entity_id]?.recent_scores ?? [])],
      open_findings: (g.findings_by_entity[e.entity_id] ?? []).filter((id) => {
        const f = g.findings[id];
        return f !== undefined && f.org_id === org_id && f.status === 'OPEN';
      }).length,
    }));
    const by = compare(q.sort);
    rows.sort((a, b) => (q.order === 'asc' ? by(a, b) : by(b, a)) || a.entity_id.localeCompare(b.entity_id));
    const offset = offsetOf(q.cursor);
    const data = rows.slice(offset, offset + q.limit);
    const next = offset + q.limit;
    res.json({
      data,
      total: rows.length,
      next_cursor: next < rows.length ? Buffer.from(String(next)).toString('base64url') : null,
      as_of: now.toISOString(),
    });
  });

  s.routes.add('GET', '/api/entities/:id/credit', ...read, (req, res) => {
    const { id } = parseWith(EntityParams, req.params, 'params');
    const org_id = authOf(req).org_id;
    const now = s.clock.now();
    const entity = resolveEntity(s.runtime.state(registryProjection), id);
    const facts = entityFacts(s, entity, now);
    const score = scoreEntity(facts, now);
    const credit = s.runtime.state(creditProjection);
    const inquiries = inquiriesOf(credit, entity.entity_id);
    const behavior = planBehavior(credit, facts, now, score.composite_score).record;
    const months = new Map<string, { month: string; yours: number; other_lenders: number }>();
    for (const i of inquiries) {
      const month = i.as_of.slice(0, 7);
      const row = months.get(month) ?? { month, yours: 0, other_lenders: 0 };
      if (i.org_id === org_id) row.yours += 1;
      else row.other_lenders += 1;
      months.set(month, row);
    }
    res.json({
      entity_id: entity.entity_id,
      legal_name: entity.legal_name,
      roles: entity.roles,
      current: { composite_score: score.composite_score, grade: score.grade, confidence: score.confidence },
      dimensions: Object.entries(score.dimensions).map(([name, d]) => ({
        name,
        score: d.score,
        grade: d.grade,
        weight: d.weight,
        insufficient_data: d.insufficient_data,
      })),
      reason_codes: score.reason_codes,
      score_history: inquiries.map((i) => ({
        on: i.as_of.slice(0, 10),
        composite_score: i.composite_score,
        grade: i.grade,
        yours: i.org_id === org_id,
      })),
      behavioral: {
        state: behavior.state,
        since: behavior.since,
        previous_state: behavior.previous_state,
        transitions: behavior.transitions.map((t) => ({
          from: t.from,
          to: t.to,
          cause: t.cause.code,
          evidence_count: t.cause.evidence_count,
          effective_on: t.effective_on,
        })),
      },
      inquiries_by_month: [...months.values()].sort((a, b) => a.month.localeCompare(b.month)),
      as_of: now.toISOString(),
    });
  });
}
