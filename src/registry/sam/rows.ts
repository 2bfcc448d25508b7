/**
 * What the extract parsers yield: a record or a rejected row, each with the line it starts on
 * (1-based, the header or BOF being line 1), and the one error for a file that cannot be read.
 */

export interface LineReason {
  line: number;
  reason: string;
}

export type ParsedRow<R> =
  | { kind: 'record'; line: number; record: R; repaired?: string }
  | { kind: 'rejected'; line: number; reason: string };

/** The whole file is refused (no header, no BOF/EOF, not a SAM extract): nothing is imported. */
export class SamFileRejected extends Error {
  readonly type = 'sam_file_rejected' as const;
  constructor(
    readonly reason: string,
    readonly line: number | null = null,
  ) {
    super(line === null ? reason : `line ${line}: ${reason}`);
    this.name = 'SamFileRejected';
  }
}

/** Trimmed text, or null when blank. */
export function text(value: string | undefined): string | null {
  const trimmed = (value ?? '').trim();
  return trimmed === '' ? null : trimmed;
}
