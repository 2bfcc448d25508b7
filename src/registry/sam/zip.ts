/**
 * Reads the extract inside a SAM zip (yauzl): the entry is decompressed as a stream, never
 * buffered. SAM zips hold one file; the first `.csv`, `.dat` or `.txt` entry is the extract.
 */
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import { SamFileRejected } from './rows.js';

const EXTRACT_ENTRY = /\.(csv|dat|txt)$/i;
/** Zip signature of a local file header ("PK\x03\x04"). */
export const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

export interface ZipEntryInfo {
  name: string;
  size: number;
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
  const zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false });
  try {
    const entry = await findExtract(zip);
    if (entry === undefined) throw new SamFileRejected('the zip holds no .csv, .dat or .txt file');
    const stream = await zip.openReadStreamPromise(entry);
    return { entry: { name: entry.fileName, size: entry.uncompressedSize }, stream };
  } finally {
    zip.close();
  }
}
