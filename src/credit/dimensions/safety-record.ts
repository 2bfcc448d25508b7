/**
 * safety_record (DOMAIN §5, weight 15): OSHA-style citations (serious 10, willful/repeat 25,
 * other 2 points each), incident rate, open abatements.
 *
 * Score = 100 − SR01 − SR02 − SR03, clamped to 0–100, where
 * - SR01 = Σ weight × citation points;
 * - SR02 = min(40, 10 × TRIR), TRIR = 200,000 × Σ weight × recordables / max(Σ weight × hours, 200,000);
 * - SR03 = 10 per citation still unabated after its abate-by date (a condition true today: weight 1).
 *
 * Whose observations: those naming the entity, plus site observations naming nobody on a project it
 * is GC of (the GC is the controlling employer on its sites).
 */
import type { IsoDate, Observation, OshaCitation } from '../../projects/facts.js';
import { CITATION_POINTS, OPEN_ABATEMENT_POINTS } from '../constants.js';
import { DERIVATION, derived } from '../inputs.js';
import { compareSignals, makeSignal, type Signal, type SignalContext, type SignalDay } from '../signals.js';

/**
 * The entity's observations known by today, in id order: its own, plus the unattributed ones of
 * projects it is GC of, each OSHA activity once (see {@link withoutRestatedCitations}). Read through
 * the projection's `by_entity` / `by_project` indexes, so the cost follows the entity's
 * observations, not the whole ledger's. Remembered per entity and day with the derivations that
 * read observations (a site observation of the entity forgets it): the safety record's signals,
 * the citation triggers and the first fact day all read this list, and a big GC's (~1,300
 * observations on the 100k bench ledger) was read through the read models three times per
 * recomputation. The list is shared: callers only read it.
 */
export function observationsOf(ctx: SignalContext): Observation[] {
  return derived(ctx.facts, `${DERIVATION.observations}${ctx.today}`, (): RememberedObservations => ({
    list: readObservations(ctx),
    entity: ctx.facts.entity_id,
    day: ctx.today,
    gcProjects: new Set(ctx.gc.map((p) => p.id)),
  })).list;
}

/** `observationsOf`'s remembered value: the list, and what decides whether a new observation joins it. */
interface RememberedObservations {
  readonly list: Observation[];
  readonly entity: string;
  readonly day: IsoDate;
  /** The projects the entity is GC of, whose unattributed observations are its own. */
  readonly gcProjects: ReadonlySet<string>;
}

/**
 * The remembered `observationsOf` value once `recorded` (as the read model now holds it) is
 * recorded, exactly as a fresh read would give it: the same list when the observation is not the
 * entity's or is dated after the list's day, else the list with it put in its id-order place. An
 * observation that is not an OSHA citation passes `withoutRestatedCitations` as it is and changes
 * no citation's standing, so nothing else moves. A citation may restate another: undefined, and
 * the caller forgets the value (as it forgets every other derivation that reads observations).
 * This is what keeps a busy GC's score cheap under site observations: re-reading its observations
 * through the read models was half of re-deriving its safety record.
 */
export function withObservationRecorded(remembered: unknown, recorded: Observation): unknown {
  const r = remembered as RememberedObservations;
  if (recorded.kind === 'osha_citation') return undefined;
  const own =
    recorded.entity_id === r.entity ||
    (recorded.entity_id === null && recorded.project_id !== null && r.gcProjects.has(recorded.project_id));
  if (!own || recorded.observed_on > r.day) return r;
  // Where the list's sort puts it: after every id that does not sort after it.
  let lo = 0;
  let hi = r.list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (r.list[mid]!.id.localeCompare(recorded.id) > 0) hi = mid;
    else lo = mid + 1;
  }
  // An id the list already holds sorts right before that place: only a fresh read can tell.
  if (lo > 0 && r.list[lo - 1]!.id === recorded.id) return undefined;
  return { ...r, list: [...r.list.slice(0, lo), recorded, ...r.list.slice(lo)] };
}

function readObservations(ctx: SignalContext): Observation[] {
  const { observations, by_entity, by_project } = ctx.facts.observations;
  const own = (index: Record<string, string[]>, key: string): string[] =>
    Object.hasOwn(index, key) ? index[key]! : [];
  const known = (id: string): Observation[] => {
    const o = observations[id];
    return o !== undefined && o.observed_on <= ctx.today ? [o] : [];
  };
  const attributed = own(by_entity, ctx.facts.entity_id).flatMap(known);
  const unattributed = ctx.gc.flatMap((p) =>
    own(by_project, p.id)
      .flatMap(known)
      .filter((o) => o.entity_id === null),
  );
  return withoutRestatedCitations([...attributed, ...unattributed]).sort((a, b) => a.id.localeCompare(b.id));
}

/** OSHA activity numbers compare without case or spaces (`"1234 567"` is `1234567`). */
function activityKey(citation: OshaCitation): string {
  return citation.activity_nr.replace(/\s+/g, '').toUpperCase();
}

/**
 * One OSHA activity is one citation, however often it is furnished. Each furnishing project's latest
 * record of it is that project's statement (a later record restates it: its abatement, a corrected
 * type); of those statements the gravest counts — the most points, then an abatement still open,
 * then the first furnished — and the others count nothing. So a copy can never lower the charge:
 * counting every record let one lender charge a firm's citation again and again (three copies of
 * one willful citation: safety 100 → 0, composite −15, PROBATION in every lender's report), and
 * letting the first furnisher own the activity would let a lender shield a firm by furnishing a
 * public citation first as "other" or abated. A furnisher can still state a graver citation than
 * another's — as it could furnish a citation of its own — and every signal names its project.
 */
function withoutRestatedCitations(observations: Observation[]): Observation[] {
  const byActivity = new Map<string, Map<string, OshaCitation>>();
  const inOrder = observations
    .filter((o): o is OshaCitation => o.kind === 'osha_citation')
    .sort((a, b) => a.recorded_seq - b.recorded_seq);
  for (const c of inOrder) {
    const key = activityKey(c);
    let statements = byActivity.get(key);
    if (!statements) byActivity.set(key, (statements = new Map<string, OshaCitation>()));
    // A Map keeps a key's first insertion place: projects stay in the order they first furnished it.
    statements.set(`${c.org_id}\u0000${c.project_id}`, c);
  }
  const standing = new Set<string>();
  for (const statements of byActivity.values()) {
    let gravest: OshaCitation | null = null;
    for (const c of statements.values()) if (gravest === null || graver(c, gravest)) gravest = c;
    standing.add(gravest!.id);
  }
  return observations.filter((o) => o.kind !== 'osha_citation' || standing.has(o.id));
}

/** Strictly graver: more points, or as many with its abatement still open. */
function graver(a: OshaCitation, b: OshaCitation): boolean {
  const points = CITATION_POINTS[a.type] - CITATION_POINTS[b.type];
  if (points !== 0) return points > 0;
  return a.abated_on === null && b.abated_on !== null;
}

function citationSignals(ctx: SignalDay, citation: OshaCitation): Signal[] {
  const evidence = [{ kind: 'observation', id: citation.id }];
  const points = CITATION_POINTS[citation.type];
  const out = [
    makeSignal(ctx, 'SR01', 'points', points, citation.observed_on, citation.project_id, evidence),
  ];
  if (citation.abated_on === null && citation.abate_by < ctx.today) {
    out.push(
      makeSignal(ctx, 'SR03', 'points', OPEN_ABATEMENT_POINTS, ctx.today, citation.project_id, evidence),
    );
  }
  return out;
}

function observationSignals(ctx: SignalDay, o: Observation): Signal[] {
  const evidence = [{ kind: 'observation', id: o.id }];
  switch (o.kind) {
    case 'osha_citation':
      return citationSignals(ctx, o);
    case 'incident':
      return [
        makeSignal(ctx, 'SR02', 'recordables', o.recordable ? 1 : 0, o.observed_on, o.project_id, evidence),
      ];
    case 'hours_worked':
      return [makeSignal(ctx, 'SR02', 'hours', o.hours, o.observed_on, o.project_id, evidence)];
    case 'certified_payroll':
    case 'milestone':
    case 'emissions_report':
    case 'environmental_inspection':
    case 'material_delivery':
    case 'equipment_log':
    case 'weather_forecast':
    case 'thermal_scan':
    case 'cost_index':
      return [];
    default: {
      const unreachable: never = o;
      return unreachable;
    }
  }
}

export function safetyRecordSignals(ctx: SignalContext): Signal[] {
  return observationsOf(ctx).flatMap((o) => observationSignals(ctx, o));
}

/**
 * The remembered safety-record signals of `day` once `recorded` — a site observation that is not an
 * OSHA citation — has been taken into the entity's remembered observation list of that day
 * (`withObservationRecorded` gave a new list): the same signals with the observation's own put in
 * their `compareSignals` place, each naming its furnisher (`furnisherOf`, as `gatherSignals` names
 * it). That is what a fresh derivation gives: such an observation's signals depend on it and the
 * day alone, and it changes no citation's standing. Undefined — the caller forgets the list — for a
 * citation, or where a new signal compares equal to one already listed (only a fresh sort can
 * tell its place). A busy GC's list (~1,300 signals on the 100k bench ledger) was derived and
 * sorted again for every site observation on its projects.
 */
export function withSafetySignalsRecorded(
  remembered: readonly Signal[],
  recorded: Observation,
  day: IsoDate,
  furnisherOf: (signal: Signal) => string | null,
): Signal[] | undefined {
  if (recorded.kind === 'osha_citation') return undefined;
  const list = [...remembered];
  for (const signal of observationSignals({ today: day }, recorded)) {
    if (signal.observed_on > day) continue;
    const furnisher = furnisherOf(signal);
    const s = furnisher === null ? signal : { ...signal, furnisher };
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareSignals(list[mid]!, s) > 0) hi = mid;
      else lo = mid + 1;
    }
    if (lo > 0 && compareSignals(list[lo - 1]!, s) === 0) return undefined;
    list.splice(lo, 0, s);
  }
  return list;
}
