/**
 * What the load runs send: entity names to score and projects to record observations on, read
 * from a generated dataset's ledger (spread over the whole ledger, deterministic).
 */
import { join } from 'node:path';
import { SqliteEventStore } from '../../src/platform/event-store/sqlite.js';
import { normalizeName } from '../../src/registry/normalize.js';
import type { Dataset } from './datasets.js';

function select<T>(ds: Dataset, sql: string, ...params: unknown[]): T[] {
  const store = SqliteEventStore.open(join(ds.dataDir, 'ledger.db'));
  try {
    return store.database.prepare<unknown[], T>(sql).all(...params);
  } finally {
    void store.close();
  }
}

function spread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]!);
}

/**
 * Contractors and subcontractors (the firms lenders score), by legal name — only names that lead
 * to one firm once normalized as the API matches them (case, punctuation, suffixes): a generated
 * ledger has a few pairs such as "… Co." and "… LLC", which the API rightly answers with 409.
 */
export function entitiesToScore(ds: Dataset, n: number): string[] {
  const rows = select<{ name: string; role: string }>(
    ds,
    `SELECT json_extract(content, '$.data.legal_name') AS name, json_extract(content, '$.data.roles[0]') AS role
       FROM events WHERE type = 'EntityRegistered' ORDER BY seq`,
  );
  const firms = new Map<string, number>();
  for (const r of rows) firms.set(normalizeName(r.name), (firms.get(normalizeName(r.name)) ?? 0) + 1);
  return spread(
    rows
      .filter(
        (r) =>
          (r.role === 'general_contractor' || r.role === 'subcontractor') &&
          firms.get(normalizeName(r.name)) === 1,
      )
      .map((r) => r.name),
    n,
  );
}

/** Project ids of one org (the org of the key the load uses). */
export function projectsOf(ds: Dataset, orgId: string, n: number): string[] {
  const rows = select<{ id: string }>(
    ds,
    `SELECT json_extract(content, '$.data.project_id') AS id FROM events
      WHERE type = 'ProjectRegistered' AND org_id = ? ORDER BY seq`,
    orgId,
  );
  return spread(
    rows.map((r) => r.id),
    n,
  );
}
