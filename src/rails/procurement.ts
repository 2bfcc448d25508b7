/**
 * PROCUREMENT rail (DOMAIN §8): critical materials not delivered by the day they were needed, and
 * stored materials billed on the latest pay application with no delivery behind them.
 */
import type { Draw, DrawLine, IsoDate, MaterialDelivery, Project } from '../projects/facts.js';
import { dayOf, daysBetween, latestOf } from './dates.js';
import { finding, type RailFinding } from './findings.js';
import { keyOf, latestPer, observationsOf } from './observations.js';
import { latestDraw } from './progress.js';
import { RAIL_PATHS, type Rail, type RailFacts } from './rail.js';
import { evaluateWith, observed, type FactCheck } from './coverage.js';

/**
 * Days past `needed_by` after which an undelivered critical material is late. DOMAIN §8 says
 * "late critical delivery" with no grace: 0, late from the day after it was needed.
 */
export const PROCUREMENT_LATE_GRACE_DAYS = 0;

/** A later observation of the same order (project, material, needed_by, line) updates it, e.g. once delivered. */
function currentDeliveries(facts: RailFacts): MaterialDelivery[] {
  return latestPer(observationsOf(facts, 'material_delivery'), (d) =>
    keyOf(d.project_id, d.material, d.needed_by, d.line),
  );
}

function lateCritical(deliveries: readonly MaterialDelivery[], today: IsoDate): RailFinding[] {
  return deliveries.flatMap((d) => {
    const late = daysBetween(d.needed_by, today);
    if (!d.critical || d.delivered_on !== null || late <= PROCUREMENT_LATE_GRACE_DAYS) return [];
    return [
      finding('PROCUREMENT_LATE_CRITICAL', 'WARNING', {
        project_id: d.project_id,
        entity_id: d.entity_id,
        title: `Critical material "${d.material}" not delivered`,
        detail: `Needed by ${d.needed_by}, ${late} days ago; quantity ${d.quantity} still undelivered.`,
        evidence: [{ kind: 'observation', id: d.id }],
        observed_on: today,
      }),
    ];
  });
}

/**
 * A record saying the line's material was not delivered by the period end contradicts the billing
 * (CRITICAL); no delivery record at all leaves it unsupported (WARNING).
 */
function storedLineFinding(
  project: Project,
  draw: Draw,
  line: DrawLine,
  records: MaterialDelivery[],
): RailFinding[] {
  const delivered = records.some((d) => d.delivered_on !== null && d.delivered_on <= draw.period_to);
  if (delivered) return [];
  const severity = records.length > 0 ? 'CRITICAL' : 'WARNING';
  const why = records.length > 0 ? 'delivery records show none delivered by' : 'no delivery is recorded by';
  return [
    finding('PROCUREMENT_UNDELIVERED_STORED', severity, {
      project_id: project.id,
      entity_id: project.general_contractor,
      title: `Stored materials billed without delivery on line ${line.line}`,
      detail: `${draw.id} bills ${(line.stored_materials / 100).toFixed(2)} USD of stored materials on line ${line.line}, but ${why} the period end ${draw.period_to}.`,
      evidence: [
        { kind: 'draw', id: draw.id },
        ...records.map((d) => ({ kind: 'observation' as const, id: d.id })),
      ],
      observed_on: latestOf([draw.submitted_on, ...records.map((d) => d.observed_on)]) ?? draw.submitted_on,
    }),
  ];
}

/** Only the latest pay application: column F is what is stored *now*. */
function undeliveredStored(facts: RailFacts, deliveries: readonly MaterialDelivery[]): RailFinding[] {
  return facts.projects.flatMap((project) => {
    const draw = latestDraw(project, facts.draws);
    if (draw === undefined) return [];
    return draw.lines
      .filter((l) => l.stored_materials > 0)
      .flatMap((l) => {
        const records = deliveries.filter((d) => d.project_id === project.id && d.line === l.line);
        return storedLineFinding(project, draw, l, records);
      });
  });
}

export function procurementFindings(facts: RailFacts, now: Date): RailFinding[] {
  const deliveries = currentDeliveries(facts);
  return [...lateCritical(deliveries, dayOf(now)), ...undeliveredStored(facts, deliveries)];
}

/** The facts the PROCUREMENT rail reads (DOMAIN §8 table): none of them → INSUFFICIENT_DATA. */
export const PROCUREMENT_FACTS: readonly FactCheck[] = [
  observed('material_delivery'),
  {
    name: 'stored_materials_billed',
    present: (facts) => facts.draws.some((d) => d.lines.some((l) => l.stored_materials > 0)),
  },
];

export const PROCUREMENT_RAIL: Rail = {
  name: 'PROCUREMENT',
  path: RAIL_PATHS.PROCUREMENT,
  evaluate: evaluateWith('PROCUREMENT', PROCUREMENT_FACTS, procurementFindings),
};
