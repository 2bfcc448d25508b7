/**
 * Where an extract's bytes come from: a plain file or the extract inside a zip, re-openable
 * (the V2 format is read twice), plus format sniffing and spooling an upload to a temp file
 * (a zip can only be read from a seekable file: its directory is at the end).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SamFormat } from '../events.js';
import { checkZipExtract, openZipExtract, ZIP_MAGIC } from './zip.js';

export interface SamInput {
  /** The file the operator handed over (the zip, for a zipped extract). */
  file: string;
  /** The extract's own name (the zip entry's, for a zipped extract). */
  name: string;
  /** Uncompressed size in bytes: the progress total. */
  size: number;
  open(): Promise<Readable>;
}

async function startsWithZipMagic(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(ZIP_MAGIC.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return bytesRead === head.length && head.equals(ZIP_MAGIC);
  } finally {
    await handle.close();
  }
}

/**
 * Opens `path` as a SAM extract, zipped or not (by content, not by name). A zip's extract is read
 * through once first ({@link checkZipExtract}): a damaged zip is rejected before any row is read.
 */
export async function openSamInput(path: string, file = basename(path)): Promise<SamInput> {
  if (await startsWithZipMagic(path)) {
    const first = await openZipExtract(path);
    await checkZipExtract(first);
    return {
      file,
      name: basename(first.entry.name),
      size: first.entry.size,
      open: async () => (await openZipExtract(path)).stream,
    };
  }
  const { size } = await stat(path);
  return { file, name: file, size, open: () => Promise.resolve(createReadStream(path)) };
}

/** Bytes sniffed to tell the formats apart: enough for the CSV header or the BOF line. */
const SNIFF_BYTES = 4096;
/** A line with this many pipes is a V2 record even when its BOF line is missing. */
const V2_PIPES = 10;

async function firstChunk(stream: Readable): Promise<Buffer> {
  // Leaving a for-await loop destroys the stream: only the first chunk is ever read.
  for await (const chunk of stream) return chunk as Buffer;
  return Buffer.alloc(0);
}

/**
 * V2 when the file opens with a BOF line, or looks like V2 without one (a `.dat` name, a
 * pipe-delimited first line) so that the V2 reader rejects it for the missing BOF; otherwise
 * the exclusions CSV, whose reader rejects a file without its header columns.
 */
export async function sniffFormat(input: SamInput): Promise<SamFormat> {
  const head = (await firstChunk(await input.open())).subarray(0, SNIFF_BYTES).toString('utf8');
  const firstLine = head.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  if (/^\s*BOF\s/.test(firstLine)) return 'entity_v2';
  if (/classification/i.test(firstLine)) return 'exclusions_csv';
  const pipes = firstLine.split('|').length - 1;
  return /\.dat$/i.test(input.name) || pipes >= V2_PIPES ? 'entity_v2' : 'exclusions_csv';
}

/** Writes a stream to a private temp directory; `cleanup` removes it. */
export async function spoolToTempFile(
  stream: Readable,
  name: string,
): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'plumbline-sam-'));
  const path = join(dir, basename(name) || 'upload');
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    await pipeline(stream, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
  } catch (error) {
    await cleanup();
    throw error;
  }
  return { path, cleanup };
}
