/**
 * Reading a rail's observations out of the slice: by kind (narrowed to its type), grouped by a
 * key, and "latest wins" when a later observation supersedes an earlier one of the same subject.
 */
import type { IsoDate, Observation, ObservationKind } from '../projects/facts.js';
import type { RailFacts } from './rail.js';

export type ObservationOf<K extends ObservationKind> = Extract<Observation, { kind: K }>;

export function observationsOf<K extends ObservationKind>(facts: RailFacts, kind: K): ObservationOf<K>[] {
  return facts.observations.filter((o): o is ObservationOf<K> => o.kind === kind);
}

/** Groups in first-seen order; the key is any string (use `keyOf` for composite keys). */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group === undefined) groups.set(k, [item]);
    else group.push(item);
  }
  return groups;
}

/** A composite group key; null parts stay distinguishable from any id. */
export function keyOf(...parts: readonly (string | number | null)[]): string {
  return JSON.stringify(parts);
}

/** A site: the project, or the entity for facts not tied to a project. */
export function siteOf(o: { project_id: string | null; entity_id: string | null }): string {
  return o.project_id !== null ? keyOf('project', o.project_id) : keyOf('entity', o.entity_id);
}

/** Observation order: by observed_on, then by recording order. */
export function compareObserved(
  a: { observed_on: IsoDate; recorded_seq: number },
  b: { observed_on: IsoDate; recorded_seq: number },
): number {
  if (a.observed_on !== b.observed_on) return a.observed_on < b.observed_on ? -1 : 1;
  return a.recorded_seq - b.recorded_seq;
}

/** The most recently observed item (ties: the later recorded); undefined for none. */
export function latest<T extends { observed_on: IsoDate; recorded_seq: number }>(
  items: readonly T[],
): T | undefined {
  return items.reduce<T | undefined>(
    (best, o) => (best === undefined || compareObserved(o, best) > 0 ? o : best),
    undefined,
  );
}

/** One observation per subject: the latest of each group. */
export function latestPer<T extends { observed_on: IsoDate; recorded_seq: number }>(
  items: readonly T[],
  subject: (item: T) => string,
): T[] {
  return [...groupBy(items, subject).values()].flatMap((group) => {
    const last = latest(group);
    return last === undefined ? [] : [last];
  });
}
