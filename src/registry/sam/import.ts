/**
 * SAM extract import, shared by `npm run import-sam` and `POST /api/registry/import`: streams the
 * file, appends one ledger event per new or changed registry record (in batches), then one
 * SamExtractImported, and returns a summary. Idempotent twice over: a record whose content hash
 * equals the projected one is not re-recorded, and event ids derive from key + previous hash +
 * content hash, so even a stale read model re-appends nothing new.
 */
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { isoDate } from '../../platform/clock.js';
import { derivedEventId } from '../../platform/ids.js';
import type { EventInput, EventMeta } from '../../platform/ledger/envelope.js';
import type { Ledger } from '../../platform/ledger/ledger.js';
import {
  REGISTRY_IMPORTS_STREAM,
  registryRecordStream,
  type SamExtractImportedData,
  type SamFormat,
  type SamRecordData,
} from '../events.js';
import {
  exclusionKey,
  recordContentHash,
  registrationKey,
  type SamExclusionRecord,
  type SamRegistrationRecord,
} from '../records.js';
import { own, type RegistryState } from '../state.js';
import { julianNameToIso } from './dates.js';
import { parseEntityV2, readV2Envelope, type V2Envelope } from './entity-v2.js';
import { parseExclusionsCsv } from './exclusions-csv.js';
import { openSamInput, sniffFormat, spoolToTempFile, type SamInput } from './input.js';
import { SamFileRejected, type LineReason, type ParsedRow } from './rows.js';

/** Events per ledger commit: large enough to amortize the transaction, small enough to stream. */
export const IMPORT_BATCH_SIZE = 500;
/** Rejections (and repairs) listed in the summary; rejected_count has them all. */
export const MAX_REPORTED_REJECTIONS = 1000;
/** Rejections kept in the SamExtractImported event. */
export const MAX_RECORDED_REJECTIONS = 50;

/**
 * What one import over HTTP may hold (OWASP API4/API5: a 0.94 MB zip once expanded to 130,001
 * events). Larger extracts are imported on the host with `npm run import-sam`, which has no limit.
 */
export interface ImportLimits {
  /** Uncompressed bytes of the extract (a zip entry's size, which the zip reader enforces). */
  max_bytes: number;
  /** Rows read, rejected ones included. */
  max_rows: number;
}

/** The limits of `POST /api/registry/import`: 8 MiB uncompressed and 10,000 rows. */
export const HTTP_IMPORT_LIMITS: ImportLimits = { max_bytes: 8 * 1024 * 1024, max_rows: 10_000 };

/** An extract over its import's limits; nothing of it was recorded. */
export class ImportTooLarge extends Error {
  readonly type = 'import_too_large' as const;
  constructor(readonly limits: ImportLimits) {
    super(
      `an import over HTTP is limited to ${limits.max_bytes / (1024 * 1024)} MiB uncompressed and ` +
        `${limits.max_rows.toLocaleString('en-US')} rows; import larger extracts with npm run import-sam`,
    );
    this.name = 'ImportTooLarge';
  }
}

export interface ImportProgress {
  /** `verifying`: the V2 envelope pass; `importing`: the pass that records. */
  phase: 'verifying' | 'importing';
  bytes: number;
  total_bytes: number;
  rows_read: number;
}

export interface ImportOptions {
  ledger: Ledger;
  /** The registry projection's current state; a getter, because the runtime may replace it. */
  registryState: () => RegistryState;
  /** When the import runs: `as_of` for a file whose name and header give no date. */
  now: Date;
  onProgress?: (progress: ImportProgress) => void;
  /** Ledger actor (default "system"; the HTTP route passes the admin key id). */
  actor?: string;
  requestId?: string;
  batchSize?: number;
  /** The name to record for a stream source (an upload has none of its own). */
  fileName?: string;
  /**
   * Refuse the extract (ImportTooLarge) past these limits. With limits, rows are recorded in one
   * commit after the whole file was read, so a refused extract records nothing at all.
   */
  limits?: ImportLimits;
}

export interface ImportSummary {
  format: SamFormat;
  file: string;
  file_sha256: string;
  as_of: string;
  /** Record count the V2 BOF line declares (null for CSV). */
  declared_rows: number | null;
  rows_read: number;
  imported: number;
  unchanged: number;
  rejected_count: number;
  rejected: LineReason[];
  repaired: LineReason[];
  events_appended: number;
}

export interface ImportRejection {
  file: string;
  format: SamFormat | null;
  line: number | null;
  reason: string;
}

export type ImportResult = { ok: true; summary: ImportSummary } | { ok: false; rejection: ImportRejection };

interface RecordKind<R> {
  type: 'SamExclusionRecorded' | 'SamRegistrationRecorded';
  key(record: R): string;
  current(state: RegistryState, record: R): string | undefined;
}

const EXCLUSIONS: RecordKind<SamExclusionRecord> = {
  type: 'SamExclusionRecorded',
  key: exclusionKey,
  current: (state, record) => own(state.exclusions, exclusionKey(record))?.content_hash,
};

const REGISTRATIONS: RecordKind<SamRegistrationRecord> = {
  type: 'SamRegistrationRecorded',
  key: (record) => registrationKey(record.uei),
  current: (state, record) => own(state.registrations, record.uei)?.content_hash,
};

/** Turns rows into record events, tracking what this run already recorded per key. */
class RecordWriter<R extends SamExclusionRecord | SamRegistrationRecord> {
  readonly counts = { rows_read: 0, imported: 0, unchanged: 0, events_appended: 0 };
  readonly rejected: LineReason[] = [];
  readonly repaired: LineReason[] = [];
  rejectedCount = 0;
  readonly #recorded = new Map<string, string>();
  #batch: EventInput[] = [];

  constructor(
    private readonly kind: RecordKind<R>,
    private readonly options: ImportOptions,
    private readonly file: string,
    private readonly meta: EventMeta,
  ) {}

  async accept(row: ParsedRow<R>): Promise<void> {
    this.counts.rows_read += 1;
    const limits = this.options.limits;
    if (limits !== undefined && this.counts.rows_read > limits.max_rows) throw new ImportTooLarge(limits);
    if (row.kind === 'rejected') {
      this.rejectedCount += 1;
      if (this.rejected.length < MAX_REPORTED_REJECTIONS)
        this.rejected.push({ line: row.line, reason: row.reason });
      return;
    }
    if (row.repaired !== undefined && this.repaired.length < MAX_REPORTED_REJECTIONS) {
      this.repaired.push({ line: row.line, reason: row.repaired });
    }
    const key = this.kind.key(row.record);
    const hash = recordContentHash(row.record);
    const previous = this.#recorded.get(key) ?? this.kind.current(this.options.registryState(), row.record);
    if (previous === hash) {
      this.counts.unchanged += 1;
      return;
    }
    this.#recorded.set(key, hash);
    this.counts.imported += 1;
    this.#batch.push(this.#event(key, hash, previous ?? null, row));
    if (
      this.options.limits === undefined &&
      this.#batch.length >= (this.options.batchSize ?? IMPORT_BATCH_SIZE)
    )
      await this.flush();
  }

  #event(key: string, hash: string, previous: string | null, row: { line: number; record: R }): EventInput {
    const data: SamRecordData<R> = {
      key,
      content_hash: hash,
      previous_hash: previous,
      record: row.record,
      source: { kind: 'sam_extract', file: this.file, line: row.line },
    };
    const id = derivedEventId(`registry:${key}:${previous ?? 'new'}:${hash}`);
    return { id, stream: registryRecordStream(key), type: this.kind.type, data };
  }

  async flush(): Promise<void> {
    const batch = this.#batch;
    this.#batch = [];
    if (batch.length === 0) return;
    const result = await this.options.ledger.append(batch, this.meta);
    if (!result.duplicate) this.counts.events_appended += result.events.length;
  }
}

/** Passes `source` through unchanged, handing every chunk to `onChunk` (hash, byte count, progress). */
function metered(source: Readable, onChunk: (chunk: Buffer) => void): Readable {
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      onChunk(chunk);
      done(null, chunk);
    },
  });
  source.on('error', (error) => meter.destroy(error));
  meter.on('close', () => source.destroy());
  return source.pipe(meter);
}

interface Pass {
  stream: Readable;
  sha256: () => string;
}

function openPass(
  input: SamInput,
  source: Readable,
  phase: ImportProgress['phase'],
  options: ImportOptions,
  rowsRead: () => number,
): Pass {
  const hash = createHash('sha256');
  let bytes = 0;
  const stream = metered(source, (chunk) => {
    hash.update(chunk);
    bytes += chunk.length;
    options.onProgress?.({ phase, bytes, total_bytes: input.size, rows_read: rowsRead() });
  });
  return { stream, sha256: () => hash.digest('hex') };
}

async function recordRows<R extends SamExclusionRecord | SamRegistrationRecord>(
  rows: AsyncIterable<ParsedRow<R>>,
  writer: RecordWriter<R>,
): Promise<void> {
  for await (const row of rows) await writer.accept(row);
  await writer.flush();
}

function asOf(input: SamInput, envelope: V2Envelope | null, now: Date): string {
  if (envelope) return envelope.as_of ?? isoDate(now);
  return julianNameToIso(input.name) ?? julianNameToIso(input.file) ?? isoDate(now);
}

interface Read {
  writer: RecordWriter<SamExclusionRecord> | RecordWriter<SamRegistrationRecord>;
  sha256: string;
  envelope: V2Envelope | null;
}

/** V2: pass one checks the envelope (and hashes the whole file), pass two records. */
async function readEntityV2(input: SamInput, options: ImportOptions, meta: EventMeta): Promise<Read> {
  const writer = new RecordWriter(REGISTRATIONS, options, input.file, meta);
  const rowsRead = () => writer.counts.rows_read;
  const check = openPass(input, await input.open(), 'verifying', options, rowsRead);
  const envelope = await readV2Envelope(check.stream);
  const pass = openPass(input, await input.open(), 'importing', options, rowsRead);
  try {
    await recordRows(parseEntityV2(pass.stream, envelope), writer);
  } finally {
    pass.stream.destroy();
  }
  return { writer, sha256: check.sha256(), envelope };
}

/** CSV: one pass checks the header, records and hashes. */
async function readExclusions(input: SamInput, options: ImportOptions, meta: EventMeta): Promise<Read> {
  const writer = new RecordWriter(EXCLUSIONS, options, input.file, meta);
  const pass = openPass(input, await input.open(), 'importing', options, () => writer.counts.rows_read);
  try {
    await recordRows(parseExclusionsCsv(pass.stream), writer);
  } finally {
    pass.stream.destroy();
  }
  return { writer, sha256: pass.sha256(), envelope: null };
}

/** Reads and records one extract; parsers throw SamFileRejected for a file-level problem. */
async function importInput(
  input: SamInput,
  format: SamFormat,
  options: ImportOptions,
): Promise<ImportSummary> {
  const meta: EventMeta = {
    org_id: null,
    actor: options.actor ?? 'system',
    request_id: options.requestId ?? 'sam-import',
  };
  const { writer, sha256, envelope } =
    format === 'entity_v2'
      ? await readEntityV2(input, options, meta)
      : await readExclusions(input, options, meta);
  // A file no record could be read from is no extract: recorded, it would date the registry's
  // source (as_of) by itself — today, for a file without a Julian name — over the records it left
  // as they were. (A V2 daily extract may declare no rows at all; one whose rows all fail may not.)
  const { rows_read, imported, unchanged } = writer.counts;
  if (imported + unchanged === 0 && (rows_read > 0 || format === 'exclusions_csv'))
    throw new SamFileRejected(
      rows_read === 0
        ? 'no exclusion record: the file has its header and nothing else'
        : `no record could be read: all ${rows_read} rows were rejected (first: line ${writer.rejected[0]?.line ?? '?'}: ${writer.rejected[0]?.reason ?? '?'})`,
    );
  const summary: ImportSummary = {
    format,
    file: input.file,
    file_sha256: sha256,
    as_of: asOf(input, envelope, options.now),
    declared_rows: envelope?.declared_rows ?? null,
    ...writer.counts,
    rejected_count: writer.rejectedCount,
    rejected: writer.rejected,
    repaired: writer.repaired,
  };
  summary.events_appended += await recordImport(summary, options, meta);
  return summary;
}

/**
 * Appends SamExtractImported unless the import changed nothing: the latest import of this format
 * was this very file (same bytes), or no record changed and the extract is no newer than the
 * latest (a re-zipped or renamed copy). A newer extract with the same records is recorded: it
 * moves the registry's freshness (`as_of`). The id chains on the previous import, so importing
 * A, B, then A again is recorded (A is current again) while A, A is not.
 */
async function recordImport(
  summary: ImportSummary,
  options: ImportOptions,
  meta: EventMeta,
): Promise<number> {
  const previous = options.registryState().imports[summary.format];
  if (previous?.file_sha256 === summary.file_sha256) return 0;
  if (previous && summary.imported === 0 && summary.as_of <= previous.as_of) return 0;
  const data: SamExtractImportedData = {
    format: summary.format,
    file: summary.file,
    file_sha256: summary.file_sha256,
    as_of: summary.as_of,
    rows_read: summary.rows_read,
    imported: summary.imported,
    unchanged: summary.unchanged,
    rejected_count: summary.rejected_count,
    rejected_sample: summary.rejected.slice(0, MAX_RECORDED_REJECTIONS),
  };
  const id = derivedEventId(
    `registry-import:${summary.format}:${previous?.file_sha256 ?? 'none'}:${summary.file_sha256}`,
  );
  const result = await options.ledger.append(
    [{ id, stream: REGISTRY_IMPORTS_STREAM, type: 'SamExtractImported', data }],
    meta,
  );
  return result.duplicate ? 0 : result.events.length;
}

async function importPath(path: string, options: ImportOptions, file?: string): Promise<ImportResult> {
  let input: SamInput | undefined;
  let format: SamFormat | null = null;
  try {
    input = await openSamInput(path, file);
    if (options.limits !== undefined && input.size > options.limits.max_bytes)
      throw new ImportTooLarge(options.limits);
    format = await sniffFormat(input);
    return { ok: true, summary: await importInput(input, format, options) };
  } catch (error) {
    if (!(error instanceof SamFileRejected)) throw error;
    return {
      ok: false,
      rejection: {
        file: input?.file ?? file ?? basename(path),
        format,
        line: error.line,
        reason: error.reason,
      },
    };
  }
}

/**
 * Imports a SAM exclusions CSV or entity V2 extract, plain or zipped, from a path or a stream
 * (an upload is spooled to a temp file first: zips and the two-pass V2 read need a file).
 * A whole-file rejection (no header, no BOF/EOF, empty zip) records nothing and returns
 * `{ok: false}`; row rejections are listed in the summary. I/O and ledger errors are thrown.
 */
export async function importSamFile(
  source: string | Readable,
  options: ImportOptions,
): Promise<ImportResult> {
  if (typeof source === 'string') return importPath(source, options);
  const name = options.fileName ?? 'upload';
  const spooled = await spoolToTempFile(source, name);
  try {
    return await importPath(spooled.path, options, name);
  } finally {
    await spooled.cleanup();
  }
}
