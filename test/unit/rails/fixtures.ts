/**
 * The pinned clock and ids every rail test shares (no wall clock, no randomness).
 */
export const NOW = new Date('2026-06-15T12:00:00.000Z');
export const TODAY = '2026-06-15';
export const ORG = 'org_alpha';
export const OTHER_ORG = 'org_beta';
export const GC = 'ent_gc00000000000001';
export const OTHER_GC = 'ent_gc00000000000002';
export const PRJ = 'prj_aaaaaaaaaaaaaaaa';

export const RECORDED = { org_id: ORG, recorded_at: '2026-06-01T09:00:00.000Z', recorded_seq: 1 };
