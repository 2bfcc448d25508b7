/**
 * Reads the extract inside a SAM zip (yauzl): the entry is decompressed as a stream, never
 * buffered. SAM zips hold one file; the first `.csv`, `.dat` or `.txt` entry is the extract.
 * A zip yauzl cannot read, or whose entry does not decompress to its recorded size and CRC-32,
 * is a rejected file ({@link SamFileRejected}), found before anything is recorded.
 */
import type { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import { SamFileRejected } from './rows.js';

const EXTRACT_ENTRY = /\.(csv|dat|txt)$/i;
/** Zip signature of a local file header ("PK\x03\x04"). */
export const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

export interface ZipEntryInfo {
  name: string;
  size: number;
  /** The CRC-32 the zip records for the entry's uncompressed bytes. */
  crc32: number;
}

/** A zip that cannot be read as one: a whole-file rejection naming what the reader met. */
function damaged(error: unknown): SamFileRejected {
  if (error instanceof SamFileRejected) return error;
  return new SamFileRejected(`the zip is damaged or truncated (${(error as Error).message})`);
}

function isExtract(entry: Entry): boolean {
  return (
    !entry.fileName.endsWith('/') &&
    !entry.fileName.startsWith('__MACOSX/') &&
    EXTRACT_ENTRY.test(entry.fileName)
  );
}

function findExtract(zip: ZipFile): Promise<Entry | undefined> {
  return new Promise((resolve, reject) => {
    zip.on('entry', (entry: Entry) => (isExtract(entry) ? resolve(entry) : zip.readEntry()));
    zip.once('end', () => resolve(undefined));
    zip.once('error', reject);
    zip.readEntry();
  });
}

/**
 * Opens the extract entry of the zip at `path`. The zip's file descriptor stays open until the
 * returned stream ends or is destroyed (yauzl reference-counts it after `close`).
 */
export async function openZipExtract(path: string): Promise<{ entry: ZipEntryInfo; stream: Readable }> {
  const zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false }).catch((error) => {
    throw damaged(error);
  });
  try {
    const entry = await findExtract(zip);
    if (entry === undefined) throw new SamFileRejected('the zip holds no .csv, .dat or .txt file');
    const stream = await zip.openReadStreamPromise(entry);
    return { entry: { name: entry.fileName, size: entry.uncompressedSize, crc32: entry.crc32 }, stream };
  } catch (error) {
    throw damaged(error);
  } finally {
    zip.close();
  }
}

/**
 * Reads the extract entry through once, as its import will: it must decompress whole, to the size
 * (yauzl checks it) and the CRC-32 the zip records. An import reads and records as it goes, so a
 * zip damaged past its first rows would otherwise record them before the damage showed.
 */
export async function checkZipExtract(opened: { entry: ZipEntryInfo; stream: Readable }): Promise<void> {
  let crc = 0;
  try {
    for await (const chunk of opened.stream) crc = crc32(chunk as Buffer, crc);
  } catch (error) {
    throw damaged(error);
  }
  if (crc >>> 0 !== opened.entry.crc32 >>> 0)
    throw new SamFileRejected(
      `the zip is damaged: ${opened.entry.name} does not match the CRC-32 the zip records for it`,
    );
}
