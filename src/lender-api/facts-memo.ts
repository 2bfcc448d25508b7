/**
 * Remembers what the credit rules derive from an entity's facts (its score, the facts part of its
 * behavioral assessment) while those facts stay the same, so repeated `score` calls on a busy
 * entity cost the report's assembly, not a fresh walk over every project, draw and observation.
 *
 * The facts `entityFacts` assembles for entity X come from the projects X takes part in
 * (`projects.by_entity[X]`: their draws, documents, change orders and the observations and
 * findings on them), X's own observations, the findings attributed to X and X's registry check.
 * An event therefore changes X's facts only when it concerns X or one of X's projects, and it
 * names what it concerns: its stream and payload carry entity ids, project ids, or ids of objects
 * that belong to a project (draws, documents, change orders, observations, findings). So each
 * fact event forgets only the entities it touches (ISSUE 19 per-entity invalidation): the entities
 * it names, every party of every project it touches, and the entities the findings of those
 * projects are (or were, until this event) attributed to. A site observation (any kind but a
 * milestone) is narrower still: the rules read it only as a fact of the entity it names or, naming
 * nobody, of its project's GC, so it concerns that one entity, not the project's every party; and
 * of that entity's derivations it forgets only those that read observations (`readsObservations`:
 * the safety record's score, the composite, the behavioral basis), keeping the costly context of
 * its participation and findings and the other dimensions' signals and scores; its remembered
 * observation list takes the observation in rather than being read again
 * (`withObservationRecorded`), and so does the safety record's signal list, the observation's own
 * signals put in their place (`withSafetySignalsRecorded`). An
 * event that names nothing this recognises forgets everything, so an unforeseen event type costs
 * speed, never correctness.
 *
 * The credit capability's own events (issued reports, behavioral transitions, registry
 * verifications) are folded only by the credit read model, so they leave the facts as they were
 * (test/unit/credit/facts-neutral-events.test.ts), and so do the governance results no facts read
 * model folds and compilations (`FACTS_NEUTRAL`). A scan writes only the findings it names, so it
 * forgets only the entities those are or were attributed to, where one changed (`#scanned`). Keys carry the day (see `derived` in
 * src/credit/inputs.ts), so a new day computes afresh too. The one credit event that does change
 * facts — a RegistryVerified carrying a live SAM.gov answer, which the registry check then reads
 * for 24 hours — is covered by the caller: `entityFacts` asks for the memo of the entity *and its
 * registry outcome*, so a new outcome starts a fresh memo. Remembered values are shared by every
 * later call, so callers treat them as read-only (they are not frozen: they hold references into
 * the live read models, which the projections go on updating).
 */
import { FINDINGS_EVENTS, governance, type GovernanceState } from '../../projections/governance.js';
import { observationsProjection } from '../../projections/observations.js';
import { GOVERNANCE_EVENTS_FOLDED, projectsProjection } from '../../projections/projects.js';
import { GOVERNANCE_EVENT_TYPES } from '../governance/events.js';
import type { FindingRecord } from '../governance/findings.js';
import type { SealedEvent } from '../platform/ledger/index.js';
import type { Observation, ObservationRecordedData } from '../projects/index.js';
import type { ProjectionRuntime } from '../platform/projections/runtime.js';
import {
  CREDIT_EVENT_TYPES,
  DERIVATION,
  furnisherOf,
  readsObservations,
  withObservationRecorded,
  withSafetySignalsRecorded,
  type DerivationMemo,
  type Signal,
} from '../credit/index.js';
import { own } from '../platform/records.js';

/** What the memo follows: the read models, where they stand, and each event they apply. */
export type MemoRuntime = Pick<ProjectionRuntime, 'state' | 'position' | 'onApplied'>;

/** Entities remembered at once; the oldest is forgotten first. */
export const REMEMBERED_ENTITIES = 5_000;

/**
 * Events after which every entity's facts are as they were, so the memo keeps everything: the credit
 * capability's own (folded by the credit read model alone), and the governance results that neither
 * the projects read model folds (`GOVERNANCE_EVENTS_FOLDED`: compilations, payments and rejections
 * move a draw's status) nor write a finding (`FINDINGS_EVENTS`: scans) — adequacy, simulations,
 * certifications, notarizations, refused pushes, accepted conditions, deliveries and rail scans.
 * Each of those names its project, so each forgot every party of it, and the governance command
 * after it computed the GC's score afresh (~15 ms at 1M events). A spec folds a generated ledger
 * and holds the facts read models unchanged across every event this set names — but a compilation's.
 *
 * A compilation (`DrawCompiled`) is folded by the projects read model into two fields no credit rule
 * reads: the draw's `compiled_seq`, and its status from SUBMITTED to COMPILED, which the rules never
 * tell apart (they ask whether a draw is FUNDED or REJECTED). A spec holds every entity's score and
 * behavioral decision equal with and without those two fields over a generated ledger, and the same
 * fold spec holds the facts read models unchanged but for them.
 */
const FACTS_NEUTRAL: ReadonlySet<string> = new Set([
  ...CREDIT_EVENT_TYPES,
  ...GOVERNANCE_EVENT_TYPES.filter(
    (type) => !GOVERNANCE_EVENTS_FOLDED.has(type) && !FINDINGS_EVENTS.has(type),
  ),
  'DrawCompiled',
]);

/** Whether the memo keeps everything across an event of this type (see `FACTS_NEUTRAL`). */
export function isFactsNeutral(type: string): boolean {
  return FACTS_NEUTRAL.has(type);
}

/** Resource ids (src/platform/ids.ts: a prefix and 16 base32 characters) an event may name. */
const RESOURCE_ID = /^(ent_|prj_|DRW-|CO-|WAIV-|COI-|INSP-|TTL-|INV-|BOS-|OBS-|FND-)[a-z2-7]{16}$/;
/** Strings longer than this are text, not ids; payload walks stop at this many values. */
const ID_MAX_LENGTH = 24;
const WALK_LIMIT = 10_000;

class EntityMemo implements DerivationMemo {
  readonly #values = new Map<string, unknown>();
  constructor(private readonly counts: { computed: number }) {}
  remember<T>(key: string, compute: () => T): T {
    if (this.#values.has(key)) return this.#values.get(key) as T;
    const value = compute();
    this.counts.computed += 1;
    this.#values.set(key, value);
    return value;
  }
  /** Forgets the derivations whose key `which` names. */
  forget(which: (key: string) => boolean): void {
    for (const key of [...this.#values.keys()]) if (which(key)) this.#values.delete(key);
  }
  /**
   * A site observation of the entity was recorded: its remembered observation lists take it in
   * (`withObservationRecorded`, or are forgotten where only a fresh read can tell), and so do the
   * safety record's signals of each day whose list took it in (`withSafetySignalsRecorded`); where
   * the day's list is unchanged (not the entity's, or dated after the day) the signals and the
   * safety record's score stay. Every other derivation that reads observations is forgotten.
   */
  observationRecorded(
    recorded: Observation | undefined,
    furnisherOf: (signal: Signal) => string | null,
  ): number {
    let takenIn = 0;
    /** Per day: whether its observation list kept its value or took the observation in. */
    const lists = new Map<string, 'kept' | 'taken'>();
    for (const key of [...this.#values.keys()]) {
      if (!key.startsWith(DERIVATION.observations)) continue;
      const before = this.#values.get(key);
      const next = recorded === undefined ? undefined : withObservationRecorded(before, recorded);
      if (next === undefined) this.#values.delete(key);
      else {
        this.#values.set(key, next);
        lists.set(dayOfKey(key), next === before ? 'kept' : 'taken');
        takenIn += 1;
      }
    }
    for (const key of [...this.#values.keys()]) {
      if (!readsObservations(key) || key.startsWith(DERIVATION.observations)) continue;
      const day = dayOfKey(key);
      const list = lists.get(day);
      if (key.startsWith(SAFETY_SIGNALS) && list !== undefined) {
        if (list === 'kept') continue;
        const next = withSafetySignalsRecorded(
          this.#values.get(key) as Signal[],
          recorded!,
          day,
          furnisherOf,
        );
        if (next === undefined) this.#values.delete(key);
        else {
          this.#values.set(key, next);
          takenIn += 1;
        }
      } else if (!(key.startsWith(SAFETY_SCORE) && list === 'kept')) this.#values.delete(key);
    }
    return takenIn;
  }
}

const SAFETY_SIGNALS = DERIVATION.signals('safety_record');
const SAFETY_SCORE = DERIVATION.dimension('safety_record');

/** The day a derivation's key ends with (`signals:safety_record:2026-11-30` → `2026-11-30`). */
function dayOfKey(key: string): string {
  return key.slice(key.lastIndexOf(':') + 1);
}

/**
 * What one event touches: entities whose every derivation it may change, and entities of whom it
 * is a site observation (only what reads observations changes); or, when it names nothing
 * recognised, everything.
 */
type Touched =
  | {
      entities: ReadonlySet<string>;
      observed: ReadonlySet<string>;
      /** The site observation recorded, as the read model now holds it (if it does). */
      recorded?: Observation;
    }
  | 'all';

export class FactsMemo {
  readonly #runtime: MemoRuntime;
  /** entity id → (registry outcome → memo), least recently created entity first. */
  readonly #entities = new Map<string, Map<string, EntityMemo>>();
  /**
   * project id → the entities remembered (now or before) that take part in it: the reverse of
   * `projects.by_entity`, for those entities only. An entity is indexed when it is first
   * remembered, not every entity of the ledger when the memo is taken (issue 19: ~0.1 s of the
   * first score after a start at 1M events): an entity never remembered has nothing to forget.
   */
  readonly #parties = new Map<string, Set<string>>();
  /** How much of each indexed entity's `projects.by_entity` list `#parties` has taken in. */
  readonly #indexed = new Map<string, number>();
  /**
   * finding id → the entity it was attributed to when last seen (a rescan may move it) and, where
   * known, the record as it then was (`printOf`): every finding of each entity when it is
   * remembered, every finding a scan names, and every finding of each project another event
   * touches (without its record: the next scan naming it counts it as changed).
   */
  readonly #attributed = new Map<string, Seen>();
  /** The seq of the last event that may have changed some entity's facts. */
  #epoch: number;
  /**
   * Entities forgotten one by one, entities whose observation-derived values were forgotten, full
   * clears, and derivations computed (for tests and metrics).
   */
  forgotten = 0;
  observed = 0;
  /**
   * Remembered observation lists that took a new site observation in (or kept their value) rather
   * than being forgotten, and safety-record signal lists that took its signals in.
   */
  takenIn = 0;
  clears = 0;
  readonly #counts = { computed: 0 };
  get computed(): number {
    return this.#counts.computed;
  }

  constructor(runtime: MemoRuntime) {
    this.#runtime = runtime;
    this.#epoch = runtime.position;
    runtime.onApplied((event) => this.#applied(event));
  }

  get epoch(): number {
    return this.#epoch;
  }

  /** The memo for one entity's facts as they are now, given its registry outcome. */
  for(entityId: string, outcome = ''): DerivationMemo {
    let byOutcome = this.#entities.get(entityId);
    if (!byOutcome) {
      if (this.#entities.size >= REMEMBERED_ENTITIES) {
        const oldest = this.#entities.keys().next().value;
        if (oldest !== undefined) this.#entities.delete(oldest);
      }
      byOutcome = new Map();
      this.#entities.set(entityId, byOutcome);
      this.#remembering(entityId);
    }
    let memo = byOutcome.get(outcome);
    if (!memo) {
      memo = new EntityMemo(this.#counts);
      byOutcome.set(outcome, memo);
    }
    return memo;
  }

  /**
   * The entity's remembered memo when it has one; otherwise a memo for this one call, remembered
   * nowhere. For a pass over every entity (the behavior evaluator, hourly and 5 s after each
   * start): taking `for` there remembered every entity of the ledger — 2,260 at 1M events, a node's
   * RSS past 1.1 GiB a minute after its start with no request at all — and pushed the entities
   * lenders are scoring out of the memo. What the pass derives is shared within its call.
   */
  peek(entityId: string, outcome = ''): DerivationMemo {
    return this.#entities.get(entityId)?.get(outcome) ?? new EntityMemo(this.#counts);
  }

  /** Entities remembered now. */
  get size(): number {
    return this.#entities.size;
  }

  #applied(event: SealedEvent): void {
    if (FACTS_NEUTRAL.has(event.type)) return;
    this.#epoch = event.seq;
    const touched = this.#touched(event);
    if (touched === 'all') {
      this.#entities.clear();
      this.clears += 1;
      return;
    }
    for (const entity of touched.entities) if (this.#entities.delete(entity)) this.forgotten += 1;
    if (touched.observed.size === 0) return;
    // As `gatherSignals` names a signal's furnisher, from the read models as they now stand.
    const facts = {
      projects: this.#runtime.state(projectsProjection),
      observations: this.#runtime.state(observationsProjection),
    };
    const furnisher = (signal: Signal): string | null => furnisherOf(signal, facts);
    for (const entity of touched.observed) {
      const byOutcome = this.#entities.get(entity);
      if (!byOutcome) continue;
      for (const memo of byOutcome.values())
        this.takenIn += memo.observationRecorded(touched.recorded, furnisher);
      this.observed += 1;
    }
  }

  /** The entities whose facts `event` (already folded) may have changed. */
  #touched(event: SealedEvent): Touched {
    const ps = this.#runtime.state(projectsProjection);
    if (ps.by_entity === undefined) return 'all';
    const obs = this.#runtime.state(observationsProjection);
    const g = this.#runtime.state(governance);
    if (event.type === SCAN) {
      const named = idsIn(event);
      return named === null ? 'all' : { entities: this.#scanned(named, g), observed: new Set() };
    }
    const entities = new Set<string>();
    const projects = new Set<string>();
    const addProject = (id: string | null | undefined): void => {
      if (id) projects.add(id);
    };
    const ids = idsIn(event);
    if (ids === null) return 'all';
    let recognised = false;
    const observed = new Set<string>();
    let recorded: Observation | undefined;
    const site = siteObservation(event);
    if (site !== null) {
      // One entity's fact, not every party's: the credit rules read an observation only through
      // `observationsOf` (safety record, behavioral triggers), as a fact of the entity it names or,
      // naming nobody, of its project's GC (the controlling employer on the site). And of that
      // entity's derivations, only those that read observations change.
      recognised = true;
      ids.delete(site.observation_id);
      if (site.project_id !== null) ids.delete(site.project_id);
      if (site.entity_id !== null) ids.delete(site.entity_id);
      const holder =
        site.entity_id ??
        (site.project_id === null ? null : (ps.projects[site.project_id]?.general_contractor ?? null));
      if (holder !== null) observed.add(holder);
      recorded = obs.observations[site.observation_id];
    }
    for (const id of ids) {
      if (id.startsWith('ent_')) entities.add(id);
      else if (id.startsWith('prj_')) projects.add(id);
      else if (id.startsWith('DRW-')) addProject(ps.draws[id]?.project_id);
      else if (id.startsWith('CO-')) addProject(ps.change_orders[id]?.project_id);
      else if (id.startsWith('OBS-')) {
        const o = obs.observations[id];
        addProject(o?.project_id);
        if (o?.entity_id) entities.add(o.entity_id);
      } else if (id.startsWith('FND-')) {
        const f = g.findings[id];
        addProject(f?.project_id);
        if (f?.entity_id) entities.add(f.entity_id);
        const before = this.#attributed.get(id);
        if (before !== undefined) entities.add(before.entity);
      } else addProject(ps.documents[id]?.project_id);
    }
    if (entities.size === 0 && projects.size === 0 && !recognised) return 'all';
    // Named entities may have joined a project with this event: take their new projects in first
    // (those ever indexed; any other is indexed in full when it is remembered).
    for (const entity of entities) if (this.#indexed.has(entity)) this.#index(entity);
    for (const project of projects) {
      for (const party of this.#parties.get(project) ?? []) entities.add(party);
      for (const findingId of g.findings_by_project[project] ?? []) {
        const before = this.#attributed.get(findingId);
        if (before !== undefined) entities.add(before.entity);
        const now = g.findings[findingId]?.entity_id ?? null;
        if (now !== null) {
          entities.add(now);
          this.#attributed.set(findingId, { entity: now, print: null });
        }
      }
    }
    return recorded === undefined ? { entities, observed } : { entities, observed, recorded };
  }

  /**
   * A recorded scan: of the read models the facts come from, its fold writes the findings it names
   * alone (no projects or observations read model folds it), so it changes the facts of the
   * entities a named finding is or was attributed to, and only where that finding changed — not
   * every party of its project. Compilations, adequacy, certifications and payment pushes each
   * record a scan on the way, and a rescan that finds the same only stamps the record's
   * `last_scan_id`, which no credit rule reads: each such command forgot its project's every party
   * and the next computed the GC's score afresh (~15 ms at 1M events).
   */
  #scanned(named: ReadonlySet<string>, g: GovernanceState): Set<string> {
    const entities = new Set<string>();
    for (const id of named) {
      if (!id.startsWith('FND-')) continue;
      const record = own(g.findings, id);
      const now = record?.entity_id ?? null;
      const seen = this.#attributed.get(id);
      // A record is kept (and read) only for an entity remembered now, or to compare with one kept:
      // what the memo holds follows the entities lenders score, not every finding ever scanned.
      const remembered = now !== null && this.#entities.has(now);
      const print =
        record !== undefined && (remembered || (seen?.print ?? null) !== null) ? printOf(record) : null;
      if (seen !== undefined && seen.print !== null && seen.print === print && seen.entity === now) continue;
      if (seen !== undefined) entities.add(seen.entity);
      if (now === null) this.#attributed.delete(id);
      else {
        entities.add(now);
        this.#attributed.set(id, { entity: now, print: remembered ? print : null });
      }
    }
    return entities;
  }

  /**
   * An entity is remembered from now on: what later events must forget it by — the projects it
   * takes part in and the findings attributed to it — is taken from the read models as they are
   * (overwriting what an event that named nothing recognised may have left behind).
   */
  #remembering(entity: string): void {
    this.#index(entity);
    const g = this.#runtime.state(governance);
    for (const findingId of own(g.findings_by_entity, entity) ?? []) {
      const record = own(g.findings, findingId);
      this.#attributed.set(findingId, { entity, print: record === undefined ? null : printOf(record) });
    }
  }

  /** Takes the projects `entity` joined since last time into the reverse index. */
  #index(entity: string): void {
    const byEntity = this.#runtime.state(projectsProjection).by_entity;
    const list = byEntity === undefined ? undefined : own(byEntity, entity);
    if (!list) return;
    const from = this.#indexed.get(entity) ?? 0;
    for (let i = from; i < list.length; i += 1) {
      const project = list[i]!;
      let set = this.#parties.get(project);
      if (!set) this.#parties.set(project, (set = new Set()));
      set.add(entity);
    }
    this.#indexed.set(entity, list.length);
  }
}

/** A finding as the memo last saw it attributed. */
interface Seen {
  entity: string;
  /** The record as it then was (`printOf`), or null when not read (counted as changed). */
  print: string | null;
}

/** The one governance result whose fold writes findings and nothing else the facts come from. */
const SCAN = 'ProjectScanned';

/**
 * A finding record as the credit rules can read it: every field but `last_scan_id` (which scan last
 * saw it, stamped by every rescan that finds it again).
 */
function printOf(record: FindingRecord): string {
  const { last_scan_id: _seenBy, ...read } = record;
  return JSON.stringify(read);
}

/**
 * The resource ids an event names in its stream and payload (an iterative walk; strings of id
 * shape only), or null when its payload is too large to walk (the caller then forgets everything).
 */
function idsIn(event: SealedEvent): Set<string> | null {
  const out = new Set<string>();
  const dash = event.stream.indexOf('-');
  const streamId = dash >= 0 ? event.stream.slice(dash + 1) : '';
  if (RESOURCE_ID.test(streamId)) out.add(streamId);
  const stack: unknown[] = [event.data];
  let visited = 0;
  while (stack.length > 0) {
    if ((visited += 1) > WALK_LIMIT) return null;
    const value = stack.pop();
    if (typeof value === 'string') {
      if (value.length <= ID_MAX_LENGTH && RESOURCE_ID.test(value)) out.add(value);
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const item of Object.values(value as Record<string, unknown>)) stack.push(item);
    }
  }
  return out;
}

/**
 * A recorded observation other than a milestone (which completes its project's schedule, a fact of
 * every party's): what it is about. Null for any other event.
 */
function siteObservation(event: SealedEvent): ObservationRecordedData | null {
  if (event.type !== 'ObservationRecorded') return null;
  const data = event.data as ObservationRecordedData;
  return data.kind === 'milestone' ? null : data;
}

const memos = new WeakMap<MemoRuntime, FactsMemo>();

/** The one FactsMemo of a runtime (created on first use, following it from then on). */
export function factsMemoOf(runtime: MemoRuntime): FactsMemo {
  let memo = memos.get(runtime);
  if (!memo) {
    memo = new FactsMemo(runtime);
    memos.set(runtime, memo);
  }
  return memo;
}
