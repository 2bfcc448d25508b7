/**
 * Argument parsing and exit codes of the operations CLIs, apart from the rest of scripts/lib/cli.ts
 * so that a CLI with no ledger to open (the signer) loads neither the service's composition nor its
 * configuration: `npm run signer` then starts in a fraction of the time (the README runs it ten
 * times a pass).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** sysexits EX_USAGE: for CLIs whose exit 2 means something else (ledger:monitor, ledger:audit). */
export const EXIT_USAGE_EX = 64;

export interface Cli<V> {
  values: V;
  positionals: string[];
  json: boolean;
}

/**
 * A count or port given on the command line: decimal digits only, else NaN (which every caller's
 * integer check refuses). `Number()` read `1e3` as 1000, `0x10` as 16 and an empty value as 0.
 */
export function decimalInteger(text: string | undefined): number {
  return text !== undefined && /^[0-9]{1,15}$/.test(text) ? Number(text) : Number.NaN;
}

/** Parses argv; prints usage and exits 0 on --help, `usageExit` (default 2) on a bad flag. */
export function parseCli<O extends NonNullable<ParseArgsConfig['options']>>(
  usage: string,
  options: O,
  usageExit = EXIT_USAGE,
) {
  try {
    const parsed = parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      options: { ...options, help: { type: 'boolean', short: 'h' }, json: { type: 'boolean' } },
    });
    const values = parsed.values as Record<string, unknown>;
    if (values.help) {
      process.stdout.write(`${usage.trim()}\n`);
      process.exit(EXIT_OK);
    }
    return { values: parsed.values, positionals: parsed.positionals, json: values.json === true };
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${usage.trim()}\n`);
    process.exit(usageExit);
  }
}
