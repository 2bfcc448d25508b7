/**
 * A transparency-log monitor (docs/transparency-log.md, "Checking the log"): it keeps the last
 * checkpoint it verified, and for each new one checks the log's signature and that the new tree is
 * an append-only extension of the old (RFC 9162 consistency proof). A smaller tree is a rollback;
 * another root for the same size, or a proof that does not verify, is a split view: the log has
 * shown two histories. It trusts nothing the server says that it cannot check.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomically } from '../platform/atomic-file.js';
import {
  verifyCheckpoint,
  verifyConsistency,
  type LedgerConsistencyProof,
  type NoteVerifierKey,
  type VerifiedCheckpoint,
} from '../sdk/index.js';

const StateSchema = z.object({
  origin: z.string(),
  size: z.number().int().min(0),
  /** Root hash, base64. */
  root: z.string(),
  /** The signed checkpoint note as verified. */
  checkpoint: z.string(),
  checked_at: z.string(),
});

export type MonitorState = z.infer<typeof StateSchema>;

export type MonitorOutcome =
  | { status: 'first' | 'unchanged'; checkpoint: VerifiedCheckpoint }
  | { status: 'consistent'; from: number; checkpoint: VerifiedCheckpoint }
  | { status: 'rollback' | 'split_view'; detail: string; checkpoint: VerifiedCheckpoint }
  /** A checkpoint that is not the log's (bad signature, missing cosignatures, wrong origin). */
  | { status: 'bad_checkpoint'; detail: string }
  /** The log could not be read (network, HTTP error): nothing learned. */
  | { status: 'unavailable'; detail: string };

export interface MonitorOptions {
  /** The service's base URL (its /tlog and /api/ledger/proof routes). */
  baseUrl: string;
  /** A ledger:read or tlog:read key, unless the log is public (TLOG_PUBLIC=1). */
  apiKey?: string;
  logKey: string | NoteVerifierKey;
  /** Witness verifier keys; with them the monitor reads /tlog/checkpoint/cosigned. */
  witnesses?: readonly string[];
  quorum?: number;
  fetch?: typeof fetch;
}

export function readMonitorState(path: string): MonitorState | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new MonitorStateError(`monitor state ${path} is corrupt: ${(error as Error).message}`);
  }
  const parsed = StateSchema.safeParse(json);
  if (!parsed.success)
    throw new MonitorStateError(`monitor state ${path} is corrupt: ${parsed.error.message}`);
  return parsed.data;
}

/**
 * A state file the monitor cannot stand on: not JSON, not its shape, or a checkpoint the log key
 * did not sign or that disagrees with the size and root beside it. Never a verdict on the log —
 * comparing the log with a damaged or foreign record would report a rollback or split view the log
 * did not commit (exit 2, which is kept for the log's misbehaviour).
 */
export class MonitorStateError extends Error {}

/** The last verified checkpoint, checked again: its note must be the log's and say what the state says. */
async function stateCheckpoint(
  previous: MonitorState,
  logKey: MonitorOptions['logKey'],
): Promise<VerifiedCheckpoint> {
  let checkpoint: VerifiedCheckpoint;
  try {
    checkpoint = await verifyCheckpoint(previous.checkpoint, logKey);
  } catch (error) {
    throw new MonitorStateError(
      `the monitor state's checkpoint is not this log's (--key): ${(error as Error).message}`,
    );
  }
  if (
    checkpoint.origin !== previous.origin ||
    checkpoint.size !== previous.size ||
    Buffer.from(checkpoint.root).toString('base64') !== previous.root
  )
    throw new MonitorStateError(
      `the monitor state is corrupt: its origin, size or root is not its signed checkpoint's (${checkpoint.origin}, ${checkpoint.size})`,
    );
  return checkpoint;
}

export function writeMonitorState(path: string, checkpoint: VerifiedCheckpoint, now: Date): void {
  const state: MonitorState = {
    origin: checkpoint.origin,
    size: checkpoint.size,
    root: Buffer.from(checkpoint.root).toString('base64'),
    checkpoint: checkpoint.note,
    checked_at: now.toISOString(),
  };
  writeFileAtomically(path, `${JSON.stringify(state, null, 2)}\n`);
}

class Unavailable extends Error {}

async function get(opts: MonitorOptions, path: string): Promise<Response> {
  const url = `${opts.baseUrl.replace(/\/+$/, '')}${path}`;
  const headers: Record<string, string> = { accept: '*/*' };
  if (opts.apiKey !== undefined) headers.authorization = `Bearer ${opts.apiKey}`;
  let response: Response;
  try {
    response = await (opts.fetch ?? fetch)(url, { headers, cache: 'no-store' });
  } catch (error) {
    throw new Unavailable(`GET ${path}: ${(error as Error).message}`);
  }
  if (!response.ok)
    throw new Unavailable(`GET ${path}: HTTP ${response.status} ${(await response.text()).slice(0, 200)}`);
  return response;
}

/**
 * One check of the log against the last verified checkpoint (none on the first run). Throws
 * MonitorStateError when `previous` is not a checkpoint of this log as it claims.
 */
export async function checkLog(
  opts: MonitorOptions,
  previous: MonitorState | undefined,
): Promise<MonitorOutcome> {
  const verify = (note: string) =>
    verifyCheckpoint(note, opts.logKey, { witnesses: opts.witnesses ?? [], quorum: opts.quorum ?? 0 });
  const old = previous === undefined ? undefined : await stateCheckpoint(previous, opts.logKey);
  try {
    const cosigned = (opts.witnesses ?? []).length > 0;
    const note = await (await get(opts, cosigned ? '/tlog/checkpoint/cosigned' : '/tlog/checkpoint')).text();
    let checkpoint: VerifiedCheckpoint;
    try {
      checkpoint = await verify(note);
    } catch (error) {
      return { status: 'bad_checkpoint', detail: (error as Error).message };
    }
    if (previous === undefined || old === undefined) return { status: 'first', checkpoint };
    if (checkpoint.size <= old.size) {
      const result = verifyConsistency(old, checkpoint, []);
      if (result.ok) return { status: 'unchanged', checkpoint };
      if (result.reason === 'rollback' || result.reason === 'split_view')
        return {
          status: result.reason,
          detail: describe(result.reason, result.detail, previous, checkpoint),
          checkpoint,
        };
      return { status: 'bad_checkpoint', detail: result.detail };
    }
    const proof = (await (
      await get(opts, `/api/ledger/proof/consistency?from=${old.size}&to=${checkpoint.size}`)
    ).json()) as LedgerConsistencyProof;
    // The proof comes with the server's checkpoint of that size while it is the latest: it must be
    // the log's, and the same tree (a second signed root for one size is a split view).
    if (typeof proof.checkpoint === 'string') {
      let proofCheckpoint: VerifiedCheckpoint;
      try {
        proofCheckpoint = await verifyCheckpoint(proof.checkpoint, opts.logKey);
      } catch (error) {
        return {
          status: 'bad_checkpoint',
          detail: `the consistency proof's checkpoint: ${(error as Error).message}`,
        };
      }
      const same = verifyConsistency(checkpoint, proofCheckpoint, []);
      if (!same.ok)
        return {
          status: 'split_view',
          detail: `SPLIT VIEW: the log signed two checkpoints of size ${checkpoint.size}: ${same.detail}`,
          checkpoint,
        };
    }
    const result = verifyConsistency(
      old,
      checkpoint,
      Array.isArray(proof.consistency_proof) ? proof.consistency_proof : [],
    );
    if (result.ok) return { status: 'consistent', from: old.size, checkpoint };
    const reason = result.reason === 'rollback' ? 'rollback' : 'split_view';
    return { status: reason, detail: describe(reason, result.detail, previous, checkpoint), checkpoint };
  } catch (error) {
    if (error instanceof Unavailable) return { status: 'unavailable', detail: error.message };
    throw error;
  }
}

function describe(
  reason: 'rollback' | 'split_view',
  detail: string,
  previous: MonitorState,
  checkpoint: VerifiedCheckpoint,
): string {
  const was = `verified size ${previous.size} at ${previous.checked_at}`;
  return reason === 'rollback'
    ? `ROLLBACK: ${detail} (${was}; now ${checkpoint.size})`
    : `SPLIT VIEW: ${detail} (${was})`;
}
