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

/**
 * The shortest time between two analyses, however fast the ledger moves (issue 13 item 8): a busy
 * ledger moves on every request, and a public page that rescored every entity on each move was a
 * cheap way to load the server. The page says which ledger position it shows.
 */
export const METHODOLOGY_REFRESH_MS = 5_000;

interface Computed {
  page: string;
  asOf: BiasAsOf;
  at: number;
}

export function mountMethodology(s: Service, template: string): void {
  // Scoring every entity costs ~1 ms each; on a public, unauthenticated page the rendered page is
  // cached keyed by ledger position, reused for a minute while the ledger stands still and for
  // METHODOLOGY_REFRESH_MS however fast it moves, so a burst of reloads rescores nothing.
  let last: Computed | null = null;
  const current = (): Computed => {
    const now = s.clock.now();
    const seq = s.runtime.position;
    if (last) {
      const age = now.getTime() - last.at;
      if (age >= 0 && age < METHODOLOGY_REFRESH_MS) return last;
      if (last.asOf.ledger_seq === seq && age >= 0 && age < REUSE_MS) return last;
    }
    const subjects: BiasSubject[] = governedSubjects(s, now);
    const bias: BiasAnalysis = biasAnalysis(subjects);
    const asOf: BiasAsOf = { computed_at: now.toISOString(), ledger_seq: seq };
    const page = renderMethodologyPage({ template, methodology: METHODOLOGY, bias, subjects, asOf });
    last = { page: page.value, asOf, at: now.getTime() };
    return last;
  };

  s.routes.add('GET', METHODOLOGY_PATH, (_req, res) => {
    res.type('html').set('Cache-Control', 'no-store').send(current().page);
  });
}
