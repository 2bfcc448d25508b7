/**
 * Shared plumbing for the operations CLIs: argument parsing with --help/--json (./args.ts), a
 * progress bar on stderr (never mixed into --json output), and opening the configured ledger:
 * EventStoreDB when EVENTSTORE_URL is set, else the embedded SQLite file in DATA_DIR (the same
 * `openEventStore` the service composes with).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import cliProgress from 'cli-progress';
import { loadConfig, type Config } from '../../src/config.js';
import { openEventStore, storedIntegrityFailure, type OpenedEventStore } from '../../src/compose.js';
import { ReadModelFile, ReadModelFileBusy } from '../../src/platform/projections/read-model-file.js';
import { readModelDamage } from '../../src/platform/projections/read-model-recovery.js';
import { EXIT_FAILED, EXIT_USAGE } from './args.js';

export {
  decimalInteger,
  EXIT_FAILED,
  EXIT_OK,
  EXIT_USAGE,
  EXIT_USAGE_EX,
  parseCli,
  type Cli,
} from './args.js';

export function config(): Config {
  try {
    return loadConfig();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(EXIT_USAGE);
  }
}

export function ledgerPath(cfg: Config): string {
  return join(cfg.DATA_DIR, 'ledger.db');
}

export interface OpenLedgerOptions {
  /**
   * Refuse (exit 2) a DATA_DIR without a ledger instead of creating one: for a CLI that only reads
   * or changes what is there (verify, rebuild, list, revoke), a mistyped DATA_DIR is not an empty
   * ledger.
   */
  mustExist?: boolean;
  /** The exit code for a ledger file SQLite cannot read (default 2); ledger:verify's is 1, failed. */
  damagedExit?: number;
  /** With --json the refusal is also written to stdout as `{ok: false, error}`. */
  json?: boolean;
  /**
   * The CLI appends (keys create/revoke, import-sam, ledger:generate): refuse (exit 1) while a node
   * has recorded an integrity failure, whose appends stay suspended until LEDGER_INTEGRITY_OVERRIDE.
   */
  appends?: boolean;
}

/** SQLite's codes for a file that is not (or no longer) a readable database. */
const DAMAGED_CODES = ['SQLITE_NOTADB', 'SQLITE_CORRUPT'];

function errorCode(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  const code = (error as { code?: unknown }).code ?? (cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : '';
}

/**
 * Opens the configured ledger (EVENTSTORE_URL, else DATA_DIR/ledger.db) and the files beside it. A
 * ledger that cannot be opened (DATA_DIR not a directory, no permission, a file SQLite cannot read)
 * ends the CLI with one line naming it, never a stack trace.
 */
export async function openLedger(cfg: Config, opts: OpenLedgerOptions = {}): Promise<OpenedEventStore> {
  const where = ledgerLocation(cfg);
  const refuse = (message: string, exit: number): never => {
    if (opts.json) process.stdout.write(`${JSON.stringify({ ok: false, error: message }, null, 2)}\n`);
    process.stderr.write(`${message}\n`);
    process.exit(exit);
  };
  if (opts.mustExist && !cfg.EVENTSTORE_URL && !existsSync(ledgerPath(cfg)))
    refuse(`no ledger at ${where} (DATA_DIR=${cfg.DATA_DIR}): nothing was opened or created`, EXIT_USAGE);
  let opened: OpenedEventStore;
  try {
    opened = await openEventStore({
      dataDir: cfg.DATA_DIR,
      eventStoreUrl: cfg.EVENTSTORE_URL,
      eventStoreMaxAppendBytes: cfg.EVENTSTORE_MAX_APPEND_SIZE,
    });
  } catch (error) {
    const problem = ledgerOpenProblem(cfg, error);
    if (problem === null) throw error;
    return refuse(problem.message, problem.damaged ? (opts.damagedExit ?? EXIT_USAGE) : EXIT_USAGE);
  }
  const failure = opts.appends ? storedIntegrityFailure(opened.tiles) : null;
  if (failure !== null) {
    await opened.close();
    refuse(
      `refusing to append: appends to ${where} are suspended since its integrity check failed at seq ${failure.seq} (${failure.code}); npm run ledger:verify names it, and a restart of the service with LEDGER_INTEGRITY_OVERRIDE=1 lifts the suspension`,
      EXIT_FAILED,
    );
  }
  return opened;
}

/**
 * What kept the ledger from opening, in one line: a file SQLite cannot read (`damaged`), or a
 * system error such as a DATA_DIR that is a file or not writable; null for anything else (a bug
 * keeps its stack trace).
 */
export function ledgerOpenProblem(cfg: Config, error: unknown): { message: string; damaged: boolean } | null {
  const code = errorCode(error);
  if (code === '') return null;
  const where = ledgerLocation(cfg);
  if (DAMAGED_CODES.some((c) => code.startsWith(c)))
    return { message: `the ledger at ${where} is damaged: SQLite cannot read it (${code})`, damaged: true };
  return { message: `cannot open the ledger at ${where}: ${(error as Error).message}`, damaged: false };
}

/**
 * The read-model file for a CLI that folds (keys, import-sam): the node's own when no live service
 * keeps it and it is not damaged, else none — the CLI then folds in its heap, from seq 1, and says
 * so (one writer per file; a damaged file is the service's to set aside and rebuild at its start).
 */
export function readModelsForCli(opened: OpenedEventStore): { disk?: ReadModelFile } {
  const damage = readModelDamage(opened.readModelPath);
  if (damage !== null) {
    process.stderr.write(
      `the read models at ${opened.readModelPath} are damaged (${damage}): folding the ledger in memory instead\n`,
    );
    return {};
  }
  try {
    return { disk: ReadModelFile.own(opened.readModelPath) };
  } catch (error) {
    if (!(error instanceof ReadModelFileBusy)) throw error;
    process.stderr.write(
      `${error.message.replace(/; stop it first$/, '')}: folding the ledger in memory instead\n`,
    );
    return {};
  }
}

/** Where the ledger lives, for messages: the EventStoreDB URL or the SQLite file. */
export function ledgerLocation(cfg: Config): string {
  return cfg.EVENTSTORE_URL ? `EventStoreDB ${cfg.EVENTSTORE_URL}` : ledgerPath(cfg);
}

/** A progress bar on stderr with events/s and ETA; silent when --json or stderr is not a TTY-less CI log. */
export function progressBar(label: string, enabled: boolean) {
  if (!enabled)
    return { start: (_total: number) => undefined, update: (_n: number) => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    {
      format: `${label} |{bar}| {percentage}% {value}/{total} events | {rate} ev/s | ETA {eta_formatted}`,
      stream: process.stderr,
      noTTYOutput: true,
      notTTYSchedule: 2000,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = performance.now();
  return {
    start: (total: number) => bar.start(Math.max(total, 1), 0, { rate: '0' }),
    update: (n: number) => {
      const seconds = (performance.now() - started) / 1000;
      bar.update(n, { rate: seconds > 0 ? Math.round(n / seconds).toLocaleString('en-US') : '0' });
    },
    stop: () => bar.stop(),
  };
}

export function rate(count: number, ms: number): number {
  return ms > 0 ? Math.round((count * 1000) / ms) : 0;
}
