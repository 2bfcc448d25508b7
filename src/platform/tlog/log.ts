/**
 * The transparency log the service runs over its ledger: the tile tree maintained in the append
 * path, a C2SP checkpoint signed with the log's Ed25519 key whenever the ledger has moved (at most
 * about once a second, and at shutdown; never for a smaller size than the last), each checkpoint
 * submitted to the configured witnesses (C2SP tlog-witness) and their cosignatures served with it.
 */
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import { checkpointText, parseCheckpointText, type Checkpoint } from './checkpoint.js';
import {
  ed25519Signer,
  parseNote,
  parseSignatureLine,
  parseVerifierKey,
  signNote,
  verifyNote,
  type NoteSignature,
  type NoteSigner,
  type NoteVerifier,
} from './note.js';
import { catchUpTree, TileTree, type LeafEvent, type TileStorage } from './tree.js';

export interface SignedCheckpoint extends Checkpoint {
  /** The signed note: checkpoint text, blank line, the log's signature line. */
  note: string;
}

export interface TransparencyLogOptions {
  origin: string;
  /** The 32-byte Ed25519 seed of the log key. */
  seed: Buffer;
  storage: TileStorage;
  /** Where the ledger's link fields are read from (catch-up after start or other writers). */
  source: { readRecords(from: number, limit: number): Promise<LeafEvent[]> };
  clock: Clock;
  logger: Logger;
  /** tlog-witness submission prefixes (`POST <prefix>/add-checkpoint`). */
  witnesses?: string[];
  fetch?: typeof fetch;
  /**
   * Several nodes sign this ledger (EventStoreDB): they must share one key, so a stored checkpoint
   * another key signed means a node given the wrong key unless the operator declared the rotation
   * (`rotatedFrom`); the log then refuses to open ({@link LogKeyChanged}) rather than re-sign.
   */
  sharedLedger?: boolean;
  /** TLOG_PREVIOUS_KEY: the verifier key the log was signed with before this one. */
  rotatedFrom?: string | undefined;
}

/**
 * The last checkpoint was signed by another key than this node's, on a ledger several nodes sign
 * (see {@link TransparencyLogOptions.sharedLedger}): the node must not start.
 */
export class LogKeyChanged extends Error {
  constructor(
    readonly from: string,
    readonly to: string,
  ) {
    super(
      `the transparency log's last checkpoint is signed by ${from}, not by this node's key ${to}. ` +
        'With EVENTSTORE_URL every node signs the one log with the same TLOG_SIGNING_SEED: give this node the ' +
        "others' seed, or, when rotating the key on every node, set TLOG_PREVIOUS_KEY to the old verifier key " +
        '(docs/transparency-log.md, "Rotating the signing key")',
    );
  }
}

/** Where a problem between the signed checkpoint and the tree/ledger was found. */
export interface LogIssue {
  code: 'checkpoint_mismatch' | 'truncated';
  seq: number;
  expected: string;
  actual: string;
}

interface Waiter {
  size: number;
  resolve: (c: SignedCheckpoint) => void;
}

const CHECKPOINT_META = 'checkpoint';
/** How many recent checkpoints keep the cosignatures received for them. */
const RECENT_CHECKPOINTS = 16;
/** A cosignature/v1 signature after its key id: 8-byte timestamp ‖ 64-byte Ed25519 signature. */
const COSIGNATURE_BYTES = 72;
const COSIGNED_META = 'cosigned_checkpoint';
/** The witness URLs (sorted, JSON) whose cosignatures the stored cosigned checkpoint carries. */
const COSIGNED_BY_META = 'cosigned_checkpoint_witnesses';

function witnessSet(urls: readonly string[]): string {
  return JSON.stringify([...urls].sort());
}

/**
 * How often a running service signs a checkpoint when the ledger moved (src/main.ts): a recording
 * response's receipt is served from GET /api/ledger/receipt within this long.
 */
export const CHECKPOINT_EVERY_MS = 1000;

/**
 * A receipt waiting for a checkpoint has one signed this soon after the last signing rather than
 * at the next tick: waiting for the tick alone measured 1,026 ms from a recording response to its
 * receipt (the tick had just passed), over the "within a second" the issue allows. The spacing
 * bounds the extra signatures to four a second however many receipts are asked for.
 */
export const RECEIPT_SIGN_SPACING_MS = 250;

export class TransparencyLog {
  readonly origin: string;
  readonly tree: TileTree;
  readonly signer: NoteSigner;
  readonly #verifier: NoteVerifier;
  readonly #opts: TransparencyLogOptions;
  #latest: SignedCheckpoint | null;
  /**
   * The checkpoints signed lately, the latest last, each with the cosignature lines received for it
   * per witness: a witness slower than the signing interval answers for a checkpoint that is no
   * longer the latest, and its cosignature still counts towards that checkpoint being cosigned.
   */
  #recent: { checkpoint: SignedCheckpoint; cosigs: Map<string, string> }[] = [];
  #cosigned: string | null;
  #cosignedSize: number;
  /** Per witness: the size it last cosigned (tlog-witness `old`), learnt from its answers. */
  readonly #witnessSize = new Map<string, number>();
  readonly #submitting = new Set<string>();
  /** Witnesses for which a checkpoint was signed while a submission to them was under way. */
  readonly #pending = new Set<string>();
  #waiters: Waiter[] = [];
  #timer: NodeJS.Timeout | null = null;
  #publishing: Promise<SignedCheckpoint | null> | null = null;
  /** When the last checkpoint was signed (performance.now()), and an early signing for receipts. */
  #signedAt = -Infinity;
  #soon: NodeJS.Timeout | null = null;

  private constructor(opts: TransparencyLogOptions) {
    this.#opts = opts;
    this.origin = opts.origin;
    this.signer = ed25519Signer(opts.origin, opts.seed);
    this.tree = new TileTree(opts.storage);
    this.#verifier = parseVerifierKey(this.signer.verifierKey);
    this.#latest = this.#load(opts.storage.getMeta(CHECKPOINT_META));
    if (this.#latest) this.#recent = [{ checkpoint: this.#latest, cosigs: new Map() }];
    // A stored cosigned checkpoint stands only for the witnesses that cosigned it: started with no
    // witnesses, or another set, the node has none cosigned by every configured witness yet. Nor
    // does one another key signed (the key was changed): no client pinning this key accepts it.
    const cosignedBy = opts.storage.getMeta(COSIGNED_BY_META);
    const cosigned =
      (opts.witnesses ?? []).length > 0 && cosignedBy === witnessSet(opts.witnesses ?? [])
        ? (opts.storage.getMeta(COSIGNED_META) ?? null)
        : null;
    this.#cosigned = cosigned !== null && verifyNote(cosigned, this.#verifier) ? cosigned : null;
    this.#cosignedSize = this.#load(this.#cosigned ?? undefined)?.size ?? 0;
    for (const url of opts.witnesses ?? []) {
      const size = Number(opts.storage.getMeta(`witness:${url}`) ?? '0');
      this.#witnessSize.set(url, Number.isSafeInteger(size) ? size : 0);
    }
  }

  /** Opens the log and catches the tree up with the ledger. */
  static async open(opts: TransparencyLogOptions): Promise<TransparencyLog> {
    const log = new TransparencyLog(opts);
    await log.catchUp();
    log.#adoptKey();
    return log;
  }

  /**
   * At start, the stored last checkpoint must be signed by this key: clients, monitors and
   * witnesses pin the key the node announces, and a checkpoint another key signed — served, and put
   * in every receipt, until the ledger moved — is one none of them accepts. Its signature lines are
   * checked, not a stored key id. One another key signed is signed again with this key, for the
   * same size and root (never smaller; the tree's growth since is signed by the next tick), stored,
   * and handed to the witnesses. The note's text is the one the old key signed, so its line is
   * kept after the new one: the note ties the two keys together for whoever pinned either.
   */
  #adoptKey(): void {
    const last = this.#latest;
    if (!last || verifyNote(last.note, this.#verifier)) return;
    const from = signersOf(last.note, this.origin);
    if (this.#opts.sharedLedger && !this.#signedByDeclaredKeyOnly(last.note))
      throw new LogKeyChanged(from, this.verifierKey);
    const to = `${this.origin}+${this.signer.keyId.toString('hex')}`;
    if (!this.#extends(last)) {
      // Never sign a tree that does not extend the last checkpoint: the verifier reports it.
      this.#opts.logger.error(
        'transparency log: the signing key changed, but the tree no longer matches the last signed checkpoint: not signed again',
        { from, to, size: last.size },
      );
      return;
    }
    const text = checkpointText({ origin: this.origin, size: last.size, root: last.root });
    const old = parseNote(last.note);
    const kept =
      old?.text === text
        ? old.signatures.filter((s) => s.name === this.origin && !s.keyId.equals(this.signer.keyId))
        : [];
    const note = signNote(text, this.signer) + kept.map((s) => s.line).join('');
    this.#opts.logger.warn(
      'transparency log signing key changed: the last checkpoint is signed again with the new key. Publish the new verifier key and give it to every witness and monitor; receipts issued before stay verifiable with the old key',
      { from, to, size: last.size, verifier_key: this.verifierKey },
    );
    this.#adopt({ origin: this.origin, size: last.size, root: last.root, note });
  }

  /**
   * True when TLOG_PREVIOUS_KEY signed `note` and no other key did: a note signed again at a
   * rotation also carries the old key's line, and must not let a node with a third key through.
   */
  #signedByDeclaredKeyOnly(note: string): boolean {
    if (this.#opts.rotatedFrom === undefined) return false;
    const previous = parseVerifierKey(this.#opts.rotatedFrom);
    const signatures = parseNote(note)?.signatures ?? [];
    return (
      verifyNote(note, previous) &&
      signatures.every((s) => s.name === previous.name && s.keyId.equals(previous.keyId))
    );
  }

  /** True when the tree holds `c`'s size with `c`'s root there. */
  #extends(c: Checkpoint): boolean {
    if (this.tree.size < c.size) return false;
    try {
      return this.tree.root(c.size).equals(c.root);
    } catch {
      return false; // a tile missing from storage
    }
  }

  #load(note: string | undefined): SignedCheckpoint | null {
    if (!note) return null;
    const parsed = parseNote(note);
    const c = parsed && parseCheckpointText(parsed.text);
    return c ? { ...c, note } : null;
  }

  /** The verifier key string clients pin: `<origin>+<key id>+<base64(0x01 ‖ key)>`. */
  get verifierKey(): string {
    return this.signer.verifierKey;
  }

  get latest(): SignedCheckpoint | null {
    return this.#latest;
  }

  /** The latest checkpoint with every cosignature held for it. */
  servedCheckpoint(): string | null {
    if (!this.#latest) return null;
    return this.#withCosignatures(this.#latest);
  }

  /** `c` with the cosignatures held for it (while it is one of the recent checkpoints). */
  servedCheckpointFor(c: SignedCheckpoint): string {
    return this.#withCosignatures(c);
  }

  /** True while a timer publishes checkpoints (else they are signed when asked for). */
  get publishing(): boolean {
    return this.#timer !== null;
  }

  /** The latest checkpoint that carries a cosignature from every configured witness. */
  get cosigned(): string | null {
    return this.#cosigned;
  }

  /** Append path: the events just committed, in order. Out-of-order input is left to catch-up. */
  appended(events: readonly LeafEvent[]): void {
    if (events.length === 0 || events[0]!.seq !== this.tree.size + 1) return;
    this.tree.append(events);
  }

  async catchUp(): Promise<void> {
    await catchUpTree(this.tree, this.#opts.source);
  }

  /**
   * Signs a checkpoint for the tree's size when the ledger has moved since the last one; never
   * for a smaller size (a shrunk tree is an integrity failure, reported by `check`).
   */
  publish(): Promise<SignedCheckpoint | null> {
    this.#publishing ??= this.#publishNow().finally(() => {
      this.#publishing = null;
    });
    return this.#publishing;
  }

  async #publishNow(): Promise<SignedCheckpoint | null> {
    await this.catchUp();
    const size = this.tree.size;
    const last = this.#latest;
    if (last && size <= last.size) {
      if (last) this.#resolveWaiters(last);
      return null;
    }
    if (!last && size === 0) return null;
    if (last && !this.tree.root(last.size).equals(last.root)) {
      // Never sign a tree that does not extend the last checkpoint: that would be a fork.
      this.#opts.logger.error('transparency log: the tree no longer matches the last signed checkpoint', {
        size: last.size,
      });
      return null;
    }
    const checkpoint: Checkpoint = { origin: this.origin, size, root: this.tree.root(size) };
    const note = signNote(checkpointText(checkpoint), this.signer);
    this.#signedAt = performance.now();
    const signed = { ...checkpoint, note };
    this.#adopt(signed);
    return signed;
  }

  /** Makes `signed` the latest checkpoint: stored, served, and submitted to every witness. */
  #adopt(signed: SignedCheckpoint): void {
    this.#opts.storage.setMeta(CHECKPOINT_META, signed.note);
    this.#latest = signed;
    this.#recent.push({ checkpoint: signed, cosigs: new Map() });
    if (this.#recent.length > RECENT_CHECKPOINTS) this.#recent.shift();
    this.#resolveWaiters(signed);
    for (const url of this.#opts.witnesses ?? []) this.#track(this.#submit(url, signed));
  }

  readonly #inflight = new Set<Promise<void>>();

  #track(p: Promise<void>): void {
    this.#inflight.add(p);
    void p.finally(() => this.#inflight.delete(p));
  }

  /** Resolves once every witness submission under way has been answered (or failed). */
  async witnessesSettled(): Promise<void> {
    while (this.#inflight.size > 0) await Promise.allSettled([...this.#inflight]);
  }

  #resolveWaiters(c: SignedCheckpoint): void {
    const still: Waiter[] = [];
    for (const w of this.#waiters) {
      if (w.size <= c.size) w.resolve(c);
      else still.push(w);
    }
    this.#waiters = still;
  }

  /**
   * The latest checkpoint once it covers `size` leaves: at once when it does, else after the next
   * signing (with a publisher running, at most RECEIPT_SIGN_SPACING_MS after the last one; signed
   * now without one). Null when
   * the tree does not hold `size` leaves, or no covering checkpoint came within `waitMs`.
   */
  async checkpointCovering(size: number, waitMs = 2500): Promise<SignedCheckpoint | null> {
    const covers = (c: SignedCheckpoint | null) => (c && c.size >= size ? c : null);
    if (covers(this.#latest)) return this.#latest;
    if (this.tree.size < size) await this.catchUp();
    if (this.tree.size < size) return null;
    if (!this.#timer) {
      await this.publish();
      return covers(this.#latest);
    }
    let timer: NodeJS.Timeout | undefined;
    const signed = await Promise.race([
      new Promise<SignedCheckpoint>((resolve) => {
        this.#waiters.push({ size, resolve });
        this.#signSoon();
      }),
      new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), waitMs);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
    return covers(signed);
  }

  /** Signs RECEIPT_SIGN_SPACING_MS after the last signing (at once if that has passed), once. */
  #signSoon(): void {
    if (this.#soon) return;
    const delay = Math.max(0, this.#signedAt + RECEIPT_SIGN_SPACING_MS - performance.now());
    this.#soon = setTimeout(() => {
      this.#soon = null;
      void this.publish().catch(() => undefined);
    }, delay);
    this.#soon.unref();
  }

  /**
   * Submits `c` to the witness at `url`, one submission per witness at a time. A checkpoint signed
   * while one is under way is not dropped: once it is answered, the latest checkpoint goes next —
   * else a witness slower than the signing interval would miss every checkpoint signed while it
   * worked, and the last one of a burst would reach it only when the ledger next moved.
   */
  async #submit(url: string, c: SignedCheckpoint): Promise<void> {
    if (this.#submitting.has(url)) {
      this.#pending.add(url);
      return;
    }
    this.#submitting.add(url);
    try {
      await this.#addCheckpoint(url, c);
    } finally {
      this.#submitting.delete(url);
    }
    const latest = this.#latest;
    if (this.#pending.delete(url) && latest && latest.size > c.size) await this.#submit(url, latest);
  }

  /** tlog-witness add-checkpoint: `old <size>`, proof lines, blank line, the checkpoint note. */
  async #addCheckpoint(url: string, c: SignedCheckpoint, retried = false): Promise<void> {
    const fetchFn = this.#opts.fetch ?? fetch;
    try {
      let old = this.#witnessSize.get(url) ?? 0;
      if (old > c.size) old = 0;
      const proof = old === 0 ? [] : this.tree.consistencyProof(old, c.size);
      const body = `old ${old}\n${proof.map((p) => `${p.toString('base64')}\n`).join('')}\n${c.note}`;
      const res = await fetchFn(`${url.replace(/\/$/, '')}/add-checkpoint`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        signal: AbortSignal.timeout(10_000),
      });
      const text = await res.text();
      if (res.status === 409 && /^\d+\n$/.test(text) && !retried) {
        // The witness holds another size: resubmit from it (a consistency proof from its size).
        this.#rememberWitness(url, Number(text.trim()));
        await this.#addCheckpoint(url, c, true);
        return;
      }
      if (res.status !== 200) {
        this.#opts.logger.error('witness refused the checkpoint', {
          witness: url,
          status: res.status,
          size: c.size,
          old,
          body: text.slice(0, 200),
        });
        return;
      }
      this.#rememberWitness(url, c.size);
      const entry = this.#recent.find((r) => r.checkpoint === c);
      if (!entry) return;
      const lines = this.#cosignatureLines(url, text, entry.cosigs);
      if (lines.length === 0) return;
      entry.cosigs.set(url, lines.join(''));
      const all = (this.#opts.witnesses ?? []).every((w) => entry.cosigs.has(w));
      if (all && c.size > this.#cosignedSize) {
        this.#cosigned = this.#withCosignatures(c);
        this.#cosignedSize = c.size;
        this.#opts.storage.setMeta(COSIGNED_META, this.#cosigned);
        this.#opts.storage.setMeta(COSIGNED_BY_META, witnessSet(this.#opts.witnesses ?? []));
      }
    } catch (error) {
      this.#opts.logger.warn('witness unreachable', { witness: url, error: (error as Error).message });
    }
  }

  /** `c`'s note with the cosignature lines received for it (in WITNESS_URLS order). */
  #withCosignatures(c: SignedCheckpoint): string {
    const cosigs = this.#recent.find((r) => r.checkpoint === c)?.cosigs;
    if (!cosigs) return c.note;
    return c.note + (this.#opts.witnesses ?? []).map((w) => cosigs.get(w) ?? '').join('');
  }

  /**
   * The cosignature lines of a witness's 200 answer. Only well-formed cosignature/v1 lines (key id,
   * 8-byte time, 64-byte signature) under a name that is neither the log's own nor one another
   * witness already cosigned under are served: the service holds no witness keys to check them, and
   * a single line a client's trusted key fails on — say one under the log's own name and key id —
   * makes every client reject the whole checkpoint (signed-note), so one misbehaving witness, or
   * anyone answering for it, would otherwise break every receipt and monitor.
   */
  #cosignatureLines(url: string, answer: string, held: Map<string, string>): string[] {
    const signer = (sig: NoteSignature) => `${sig.name} ${sig.keyId.toString('hex')}`;
    const taken = new Set<string>();
    for (const [other, lines] of held) {
      if (other === url) continue;
      for (const line of lines.split('\n')) {
        const sig = parseSignatureLine(line);
        if (sig) taken.add(signer(sig));
      }
    }
    const lines: string[] = [];
    for (const line of answer.split('\n')) {
      if (line === '') continue;
      const sig = parseSignatureLine(line);
      if (
        sig?.signature.length === COSIGNATURE_BYTES &&
        sig.name !== this.origin &&
        !taken.has(signer(sig))
      ) {
        lines.push(sig.line);
        taken.add(signer(sig));
      } else {
        this.#opts.logger.error('witness answered a line that is not a cosignature: not served', {
          witness: url,
          line: line.slice(0, 200),
        });
      }
    }
    return lines;
  }

  #rememberWitness(url: string, size: number): void {
    this.#witnessSize.set(url, size);
    this.#opts.storage.setMeta(`witness:${url}`, String(size));
  }

  /**
   * The last signed checkpoint against the tree and the ledger head: a head or a tree below the
   * signed size means events were cut off; a different root at that size means the tree (and so
   * the ledger it was built from) changed under the signature.
   */
  async check(readHead: () => Promise<number>): Promise<LogIssue | null> {
    const c = this.#latest;
    if (!c) return null;
    const head = await readHead();
    if (head < c.size || this.tree.size < c.size) {
      return {
        code: 'truncated',
        seq: Math.min(head, this.tree.size) + 1,
        expected: `ledger and tree ≥ ${c.size} (signed checkpoint)`,
        actual: `ledger ${head}, tree ${this.tree.size}`,
      };
    }
    let root: Buffer;
    try {
      root = this.tree.root(c.size);
    } catch (error) {
      return {
        code: 'checkpoint_mismatch',
        seq: c.size,
        expected: c.root.toString('base64'),
        actual: String(error),
      };
    }
    if (!root.equals(c.root)) {
      return {
        code: 'checkpoint_mismatch',
        seq: c.size,
        expected: c.root.toString('base64'),
        actual: root.toString('base64'),
      };
    }
    return null;
  }

  /** Publishes whenever the ledger has moved, every `ms` (unref'd). */
  start(ms = CHECKPOINT_EVERY_MS): void {
    this.#timer = setInterval(() => void this.publish().catch(() => undefined), ms);
    this.#timer.unref();
  }

  /** Stops the timer and signs a last checkpoint for what was appended. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    if (this.#soon) clearTimeout(this.#soon);
    this.#soon = null;
    await this.publish().catch((error: Error) =>
      this.#opts.logger.warn('final checkpoint not signed', { error: error.message }),
    );
  }
}

/** `<name>+<key id>` of each log signature on `note` (its origin's, else all), for messages. */
function signersOf(note: string, origin: string): string {
  const signatures = parseNote(note)?.signatures ?? [];
  const own = signatures.filter((s) => s.name === origin);
  const named = (own.length > 0 ? own : signatures).map((s) => `${s.name}+${s.keyId.toString('hex')}`);
  return named.length > 0 ? named.join(', ') : 'no readable signature';
}

/** `https://plumbline.example.com/` → `plumbline.example.com/ledger` (schema-less, no '+'). */
export function defaultOrigin(publicBaseUrl: string): string {
  const url = new URL(publicBaseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.host}${path}/ledger`;
}
