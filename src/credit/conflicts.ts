/**
 * Conflicts (DOMAIN §5): open BLOCKING contradictions attributed to the entity plus an active
 * registry exclusion. CLEAR when there are none, else CONFLICTS_PRESENT.
 */
import type { IsoDate } from '../projects/facts.js';
import { dayOf } from './dates.js';
import { attributedFindings, resolvedBy, type EntityFacts } from './inputs.js';

/** The item code of an active registry exclusion (the others are finding codes). */
export const EXCLUSION_CONFLICT_CODE = 'REGISTRY_EXCLUSION';

export interface ConflictItem {
  code: string;
  /** null for the exclusion, and for projects of another org than the viewer (ARCHITECTURE §4). */
  project_id: string | null;
  since: IsoDate;
}

export const CONFLICT_STATUSES = ['CLEAR', 'CONFLICTS_PRESENT'] as const;
export type ConflictStatus = (typeof CONFLICT_STATUSES)[number];

/** SPEC §4 `conflicts`. */
export interface Conflicts {
  active_conflicts: number;
  status: ConflictStatus;
  items: ConflictItem[];
}

/**
 * The entity's conflicts as of `now`. `viewerOrgId` redacts project ids of other orgs (the credit
 * view is cross-tenant but shows derived signals only); null shows every id.
 */
export function conflictsOf(facts: EntityFacts, now: Date, viewerOrgId: string | null = null): Conflicts {
  const today = dayOf(now);
  const items: ConflictItem[] = attributedFindings(facts, today)
    .filter((f) => f.category === 'contradiction' && f.severity === 'BLOCKING' && !resolvedBy(f, today))
    .map((f) => ({
      code: f.code,
      project_id: viewerOrgId === null || f.org_id === viewerOrgId ? f.project_id : null,
      since: f.opened_on,
    }));
  const { registry } = facts;
  if (registry.exclusions === 'excluded') {
    const since = registry.exclusion_active_since ?? registry.checked_at.slice(0, 10);
    items.push({ code: EXCLUSION_CONFLICT_CODE, project_id: null, since });
  }
  items.sort(
    (a, b) =>
      a.since.localeCompare(b.since) ||
      a.code.localeCompare(b.code) ||
      (a.project_id ?? '').localeCompare(b.project_id ?? ''),
  );
  return {
    active_conflicts: items.length,
    status: items.length === 0 ? 'CLEAR' : 'CONFLICTS_PRESENT',
    items,
  };
}
