/**
 * `GET /compliance-methodology.html` (SPEC §8): the methodology as the scoring code states it and a
 * bias analysis of the ledger as it stands, so both are always current. Public like the other
 * static pages: it shows only rules and group-level aggregates.
 */
import { METHODOLOGY, biasAnalysis, type BiasAnalysis, type BiasSubject } from '../credit/index.js';
import type { Service } from '../platform/http/service.js';
import type { BiasAsOf } from './bias-section.js';
import { governedSubjects } from './bias-subjects.js';
import { renderMethodologyPage } from './methodology-page.js';

export const METHODOLOGY_PATH = '/compliance-methodology.html';

/** How long one analysis is reused while the ledger does not move (scores age with the clock). */
const REUSE_MS = 60_000;

interface Computed {
  subjects: BiasSubject[];
  bias: BiasAnalysis;
  asOf: BiasAsOf;
  at: number;
}

export function mountMethodology(s: Service, template: string): void {
  // Scoring every entity costs ~1 ms each; on a public, unauthenticated page one analysis per
  // ledger position and minute keeps a burst of reloads from rescoring the registry each time.
  let last: Computed | null = null;
  const current = (): Computed => {
    const now = s.clock.now();
    const seq = s.runtime.position;
    if (last && last.asOf.ledger_seq === seq && now.getTime() - last.at < REUSE_MS) return last;
    const subjects = governedSubjects(s, now);
    last = {
      subjects,
      bias: biasAnalysis(subjects),
      asOf: { computed_at: now.toISOString(), ledger_seq: seq },
      at: now.getTime(),
    };
    return last;
  };

  s.routes.add('GET', METHODOLOGY_PATH, (_req, res) => {
    const { subjects, bias, asOf } = current();
    const page = renderMethodologyPage({ template, methodology: METHODOLOGY, bias, subjects, asOf });
    res.type('html').set('Cache-Control', 'no-store').send(page.value);
  });
}
