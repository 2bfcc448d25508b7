/**
 * The rail adapter port (SPEC §6: "the rail adapter port; a bank adapter would send it") and the
 * embedded default, which files each pain.001 instruction under `DATA_DIR/payments/`. The only
 * I/O in this capability.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';

export interface PaymentInstruction {
  format: 'pain.001';
  message_id: string;
  xml: string;
}

export interface RailSubmission {
  message_id: string;
  /**
   * Where the instruction went: the file name within the rail directory here (never an absolute
   * path: it is recorded in the ledger, which must not depend on where DATA_DIR is), a bank
   * reference for a bank adapter.
   */
  location: string;
}

export interface RailAdapter {
  submit(instruction: PaymentInstruction): Promise<RailSubmission>;
}

/** A message id is a file name here, so it must not be able to name another directory. */
const SAFE_MESSAGE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,34}$/;

/**
 * Writes `<dir>/<message_id>.xml`. The bytes go to a temporary name first, are flushed to disk,
 * then renamed over the final name — rename is atomic on one filesystem, so a crash leaves either
 * no instruction or a whole one, never half a file a bank job could pick up.
 */
export class FileRailAdapter implements RailAdapter {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  async submit(instruction: PaymentInstruction): Promise<RailSubmission> {
    if (!SAFE_MESSAGE_ID.test(instruction.message_id)) {
      throw new RangeError(`message id "${instruction.message_id}" is not a safe file name`);
    }
    await mkdir(this.#dir, { recursive: true });
    const location = join(this.#dir, `${instruction.message_id}.xml`);
    const temporary = join(this.#dir, `.${instruction.message_id}.${randomUUID()}.tmp`);
    try {
      const file = await open(temporary, 'wx');
      try {
        await file.writeFile(instruction.xml, 'utf8');
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temporary, location);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    await syncDirectory(this.#dir);
    return { message_id: instruction.message_id, location: basename(location) };
  }
}

/** Makes the rename itself durable; best effort where a platform cannot fsync a directory. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Directory fsync is unsupported on some platforms; the file itself is already durable.
  }
}
