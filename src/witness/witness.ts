/**
 * A C2SP tlog-witness (c2sp.org/tlog-witness) add-checkpoint handler: it verifies a submitted
 * checkpoint's log signature, checks it against the latest checkpoint it cosigned for that origin
 * (the `old` size must match; the RFC 9162 consistency proof must verify; an equal size must have
 * the same root), records it durably, and answers with its cosignature/v1 line. It never cosigns a
 * checkpoint inconsistent with one it cosigned before. Requests are handled one at a time, so the
 * check and the update are atomic (the spec's rollback race cannot happen).
 */
import type { NoteError } from '../sdk/index.js';
import {
  parseCheckpointText,
  parseNote,
  parseVerifierKey,
  verifyConsistencyProof,
  verifyNoteSignature,
  type NoteVerifierKey,
} from '../sdk/index.js';
import { fromBase64, toBase64 } from '../sdk/bytes.js';
import type { Clock } from '../platform/clock.js';
import type { CosignerKey } from './key.js';
import type { WitnessStateStore } from './state.js';

export interface WitnessedLog {
  origin: string;
  /** Verifier keys (type 0x01) any of which may sign this log's checkpoints. */
  keys: readonly string[];
}

export interface WitnessResponse {
  status: 200 | 400 | 403 | 404 | 409 | 422;
  contentType: string;
  body: string;
}

/** The spec allows at most 63 proof lines. */
const MAX_PROOF_LINES = 63;

const text = (status: WitnessResponse['status'], body: string): WitnessResponse => ({
  status,
  contentType: 'text/plain; charset=utf-8',
  body: body.endsWith('\n') ? body : `${body}\n`,
});

const conflict = (size: number): WitnessResponse => ({
  status: 409,
  contentType: 'text/x.tlog.size',
  body: `${size}\n`,
});

interface Submission {
  oldSize: number;
  proof: Uint8Array[];
  note: string;
}

function parseSubmission(body: string): Submission | string {
  const match = /^old (0|[1-9][0-9]{0,15})\n/.exec(body);
  if (match === null) return 'the body starts with "old <size>"';
  const proof: Uint8Array[] = [];
  let at = match[0].length;
  for (;;) {
    const newline = body.indexOf('\n', at);
    if (newline < 0) return 'the proof lines end with an empty line';
    const line = body.slice(at, newline);
    at = newline + 1;
    if (line === '') break;
    if (proof.length === MAX_PROOF_LINES) return `at most ${MAX_PROOF_LINES} proof lines`;
    const hash = fromBase64(line);
    if (hash === null || hash.length !== 32) return 'each proof line is one base64 SHA-256 hash';
    proof.push(hash);
  }
  return { oldSize: Number(match[1]), proof, note: body.slice(at) };
}

export class Witness {
  readonly #key: CosignerKey;
  readonly #state: WitnessStateStore;
  readonly #clock: Clock;
  readonly #logs = new Map<string, NoteVerifierKey[]>();
  #queue: Promise<unknown> = Promise.resolve();

  constructor(opts: {
    key: CosignerKey;
    state: WitnessStateStore;
    clock: Clock;
    logs: readonly WitnessedLog[];
  }) {
    this.#key = opts.key;
    this.#state = opts.state;
    this.#clock = opts.clock;
    // Two entries for one origin add up (`--log <old key> --log <new key>` while the log's key is
    // rotated): the log is one history, followed by origin, whichever trusted key signs it.
    for (const log of opts.logs)
      this.#logs.set(log.origin, [...(this.#logs.get(log.origin) ?? []), ...log.keys.map(parseVerifierKey)]);
  }

  get name(): string {
    return this.#key.name;
  }

  /** The cosignature/v1 verifier key clients configure to trust this witness. */
  get verifierKey(): string {
    return this.#key.vkey;
  }

  /** POST /add-checkpoint with `body`; one request at a time. */
  addCheckpoint(body: string): Promise<WitnessResponse> {
    const run = this.#queue.then(() => this.#add(body));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #add(body: string): Promise<WitnessResponse> {
    const submission = parseSubmission(body);
    if (typeof submission === 'string') return text(400, submission);
    let note;
    try {
      note = parseNote(submission.note);
    } catch (error) {
      return text(400, (error as NoteError).message);
    }
    const origin = note.text.slice(0, note.text.indexOf('\n'));
    const keys = this.#logs.get(origin);
    if (keys === undefined) return text(404, `unknown log origin ${origin}`);
    // Signatures from unknown keys are ignored; one from a trusted key must verify, and none fail.
    let trusted = 0;
    for (const sig of note.signatures) {
      const key = keys.find((k) => k.name === sig.name && k.keyId === sig.keyId);
      if (key === undefined) continue;
      if ((await verifyNoteSignature(note.text, sig, key)) === null)
        return text(403, `the signature of ${sig.name} does not verify`);
      trusted += 1;
    }
    if (trusted === 0) return text(403, `no signature from a key trusted for ${origin}`);
    let checkpoint;
    try {
      checkpoint = parseCheckpointText(note.text);
    } catch (error) {
      return text(400, (error as NoteError).message);
    }
    const { oldSize, proof } = submission;
    if (oldSize > checkpoint.size)
      return text(400, `old size ${oldSize} exceeds the checkpoint size ${checkpoint.size}`);
    const latest = this.#state.get(origin);
    const knownSize = latest?.size ?? 0;
    if (oldSize !== knownSize) return conflict(knownSize);
    if (latest === undefined) {
      if (proof.length > 0) return text(422, 'the consistency proof from size 0 is empty');
    } else {
      const knownRoot = fromBase64(latest.root) as Uint8Array;
      if (checkpoint.size === latest.size && toBase64(checkpoint.root) !== latest.root)
        return conflict(knownSize);
      if (!verifyConsistencyProof(latest.size, checkpoint.size, knownRoot, checkpoint.root, proof))
        return text(
          422,
          `the checkpoint of size ${checkpoint.size} is not consistent with the cosigned size ${latest.size}`,
        );
    }
    const now = Math.floor(this.#clock.now().getTime() / 1000);
    this.#state.put(origin, {
      size: checkpoint.size,
      root: toBase64(checkpoint.root),
      text: note.text,
      cosigned_at: now,
    });
    return text(200, this.#key.cosign(note.text, now));
  }
}
