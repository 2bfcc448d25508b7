/**
 * Damage SQLite finds in the node's read-model file while it serves (ARCHITECTURE §5). The file
 * holds only what folding the ledger gives, so damage costs no fact, but what it answers can no
 * longer be trusted: the file reports it (`ReadModelsDamaged`, 503 READ_MODELS_DAMAGED at the HTTP
 * edge), appends are suspended through the Ledger's guard (as after an integrity failure), and a
 * marker beside the file (`read-models.db.damage`) makes the next start set it aside and rebuild it
 * from the ledger. A start never reads the whole file to look for damage (`PRAGMA quick_check`
 * reads 1.1 GB at 1M events); damage in a data page is met when a read or a flush reaches it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomically } from '../atomic-file.js';

/** What SQLite reported, where, and when it was first met. */
export interface ReadModelDamage {
  path: string;
  /** SQLite's code (SQLITE_CORRUPT, SQLITE_CORRUPT_INDEX, SQLITE_NOTADB…). */
  code: string;
  reason: string;
  detected_at: string;
}

/** What the operator does about it, said the same way in the log, /readyz and every 503. */
export const REPAIR =
  'restart the node: it sets the file aside and rebuilds the read models from the ledger (or stop it and run npm run projections:rebuild)';

/**
 * The node's read-model file is damaged: this answer cannot be given from it, and no command is
 * decided on it (appends are suspended until a restart rebuilds the file). The ledger is untouched.
 */
export class ReadModelsDamaged extends Error {
  readonly type = 'read_models_damaged' as const;
  constructor(
    readonly damage: ReadModelDamage,
    options?: { cause?: unknown },
  ) {
    super(
      `the read models at ${damage.path} are damaged (${damage.code}: ${damage.reason}); appends are suspended`,
      options,
    );
    this.name = 'ReadModelsDamaged';
  }
}

/** An error saying the file is not a readable database (as opposed to busy, full…). */
export function isCorruption(error: unknown): boolean {
  if (error instanceof ReadModelsDamaged) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

/** The marker a node leaves beside its read-model file when it meets damage in it. */
export function damageMarkerOf(path: string): string {
  return `${path}.damage`;
}

/** Records the damage durably beside the file, so the next start sets the file aside. */
export function markDamaged(damage: ReadModelDamage): void {
  writeFileAtomically(damageMarkerOf(damage.path), `${JSON.stringify(damage)}\n`);
}

/** The damage a node recorded beside the file at `path`, or null (any marker counts, even torn). */
export function markedDamage(path: string): ReadModelDamage | null {
  const marker = damageMarkerOf(path);
  if (!existsSync(marker)) return null;
  try {
    return JSON.parse(readFileSync(marker, 'utf8')) as ReadModelDamage;
  } catch {
    return { path, code: 'UNKNOWN', reason: `unreadable marker ${marker}`, detected_at: '' };
  }
}
