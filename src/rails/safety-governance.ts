/**
 * SAFETY rail (DOMAIN §8, path /api/safety-governance): OSHA-style citations, abatements past
 * due and the total recordable incident rate (TRIR).
 */
import type { Incident, HoursWorked, IsoDate, OshaCitation } from '../projects/facts.js';
import { dayOf, daysBetween } from './dates.js';
import { finding, type RailFinding } from './findings.js';
import { groupBy, observationsOf, siteOf } from './observations.js';
import { RAIL_PATHS, type Rail, type RailFacts } from './rail.js';
import { evaluateWith, observed, type FactCheck } from './coverage.js';
import { exceeds, settled } from './thresholds.js';

/**
 * Days a citation and an incident count for. DOMAIN §8 names no window; OSHA rates are annual
 * (TRIR's 200,000-hour base is 100 workers for a year), so citations weigh for the same year.
 */
export const SAFETY_LOOKBACK_DAYS = 365;
/** DOMAIN §8: a TRIR above 3.0 is high. */
export const SAFETY_TRIR_LIMIT = 3.0;
/** DOMAIN §8 / OSHA: TRIR = recordables × 200,000 / hours worked. */
export const SAFETY_TRIR_HOURS_BASE = 200_000;

const inWindow = (today: IsoDate) => (o: { observed_on: IsoDate }) =>
  daysBetween(o.observed_on, today) <= SAFETY_LOOKBACK_DAYS;

const CITATION_NAMES = { S: 'serious', W: 'willful', R: 'repeat' } as const;

/** Willful/repeat citations stop funding until abated; after abatement they still warn for the year. */
function seriousCitations(citations: readonly OshaCitation[]): RailFinding[] {
  return citations.flatMap((c) => {
    if (c.type === 'O') return [];
    const severity = c.type !== 'S' && c.abated_on === null ? 'CRITICAL' : 'WARNING';
    const abated = c.abated_on === null ? 'not abated' : `abated on ${c.abated_on}`;
    return [
      finding('SAFETY_SERIOUS_CITATION', severity, {
        project_id: c.project_id,
        entity_id: c.entity_id,
        title: `OSHA ${CITATION_NAMES[c.type]} citation ${c.activity_nr}`,
        detail: `Citation type ${c.type}, penalty ${(c.penalty / 100).toFixed(2)} USD, ${abated}.`,
        evidence: [{ kind: 'observation', id: c.id }],
        observed_on: c.observed_on,
      }),
    ];
  });
}

function abatementsPastDue(citations: readonly OshaCitation[], today: IsoDate): RailFinding[] {
  return citations.flatMap((c) => {
    if (c.abated_on !== null || c.abate_by >= today) return [];
    return [
      finding('SAFETY_ABATEMENT_PAST_DUE', 'WARNING', {
        project_id: c.project_id,
        entity_id: c.entity_id,
        title: `Abatement past due for citation ${c.activity_nr}`,
        detail: `Abatement was due on ${c.abate_by}, ${daysBetween(c.abate_by, today)} days ago, and is still open.`,
        evidence: [{ kind: 'observation', id: c.id }],
        observed_on: today,
      }),
    ];
  });
}

/** TRIR of one site (or, for facts not tied to a project, one employer); no hours, no rate. */
function trirFinding(incidents: readonly Incident[], hours: readonly HoursWorked[]): RailFinding[] {
  const recordables = incidents.filter((i) => i.recordable);
  // Hours arrive as decimals (1292.4) and their binary sum drifts: three reports of 200,000 hours
  // in all summed to 199999.99999999997, and 3 recordables read TRIR 3.0000000000000004 — "above"
  // DOMAIN §8's 3.0. The total and the rate are settled before they meet the limit (thresholds.ts).
  const totalHours = settled(hours.reduce((sum, h) => sum + h.hours, 0));
  const subject = recordables[0] ?? hours[0];
  if (totalHours <= 0 || subject === undefined) return [];
  const trir = (recordables.length * SAFETY_TRIR_HOURS_BASE) / totalHours;
  if (!exceeds(trir, SAFETY_TRIR_LIMIT)) return [];
  const facts = [...recordables, ...hours];
  return [
    finding('SAFETY_TRIR_HIGH', 'WARNING', {
      project_id: subject.project_id,
      entity_id: subject.project_id === null ? subject.entity_id : null,
      title: 'Recordable incident rate high',
      detail: `TRIR ${trir.toFixed(2)} (${recordables.length} recordable incidents over ${totalHours} hours, limit ${SAFETY_TRIR_LIMIT.toFixed(1)}).`,
      evidence: facts.map((o) => ({ kind: 'observation', id: o.id })),
      observed_on: facts.map((o) => o.observed_on).reduce((a, b) => (a >= b ? a : b)),
    }),
  ];
}

function trirFindings(facts: RailFacts, today: IsoDate): RailFinding[] {
  const incidents = groupBy(observationsOf(facts, 'incident').filter(inWindow(today)), siteOf);
  const hours = groupBy(observationsOf(facts, 'hours_worked').filter(inWindow(today)), siteOf);
  return [...hours.keys()].flatMap((key) => trirFinding(incidents.get(key) ?? [], hours.get(key) ?? []));
}

export function safetyFindings(facts: RailFacts, now: Date): RailFinding[] {
  const today = dayOf(now);
  const citations = observationsOf(facts, 'osha_citation');
  return [
    ...seriousCitations(citations.filter(inWindow(today))),
    ...abatementsPastDue(citations, today),
    ...trirFindings(facts, today),
  ];
}

/** The facts the SAFETY rail reads (DOMAIN §8 table): none of them → INSUFFICIENT_DATA. */
export const SAFETY_FACTS: readonly FactCheck[] = [
  observed('osha_citation'),
  observed('incident'),
  observed('hours_worked'),
];

export const SAFETY_RAIL: Rail = {
  name: 'SAFETY',
  path: RAIL_PATHS.SAFETY,
  evaluate: evaluateWith('SAFETY', SAFETY_FACTS, safetyFindings),
};
