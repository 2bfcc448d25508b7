/**
 * The witness's memory: per log origin, the latest checkpoint it cosigned. Persisted to one JSON
 * file, written to a temporary file, fsynced, renamed over the old one and the directory fsynced,
 * so a crash leaves either the old or the new state, never a torn one, and a cosignature is only
 * returned once what it vouches for is on disk.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomically } from '../platform/atomic-file.js';

export interface CosignedCheckpoint {
  size: number;
  /** Root hash, base64. */
  root: string;
  /** The checkpoint text that was cosigned. */
  text: string;
  /** When it was cosigned (POSIX seconds). */
  cosigned_at: number;
}

const StateSchema = z.object({
  version: z.literal(1),
  logs: z.record(
    z.string(),
    z.object({
      size: z.number().int().min(0),
      root: z.string(),
      text: z.string(),
      cosigned_at: z.number().int().min(0),
    }),
  ),
});

export type WitnessStateData = z.infer<typeof StateSchema>;

export interface WitnessStateStore {
  get(origin: string): CosignedCheckpoint | undefined;
  /** Records a newly cosigned checkpoint durably before returning. */
  put(origin: string, checkpoint: CosignedCheckpoint): void;
}

/** Reads the state file (an absent file is the empty state); throws if it is corrupt. */
export function openStateFile(path: string): WitnessStateStore {
  let data: WitnessStateData = { version: 1, logs: {} };
  let text: string | undefined;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text !== undefined) {
    const parsed = StateSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`witness state ${path} is corrupt: ${parsed.error.message}`);
    data = parsed.data;
  }
  return {
    get: (origin) => data.logs[origin],
    put(origin, checkpoint) {
      const next: WitnessStateData = { ...data, logs: { ...data.logs, [origin]: checkpoint } };
      writeFileAtomically(path, `${JSON.stringify(next, null, 2)}\n`);
      data = next;
    },
  };
}
