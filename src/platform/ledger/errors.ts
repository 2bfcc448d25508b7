/**
 * Failures the ledger and its stores report. One class per case, each with a literal `type`.
 */

/** The store's head was not the expected one: another writer appended first. */
export class AppendConflict extends Error {
  readonly type = 'append_conflict' as const;
  constructor(
    readonly expectedHead: number,
    readonly actualHead: number | null,
    message?: string,
  ) {
    super(message ?? `expected ledger head ${expectedHead}, store is at ${actualHead ?? 'unknown'}`);
    this.name = 'AppendConflict';
  }
}

/** Retries after conflicts ran out; the HTTP edge answers 409 CONFLICT. */
export class ConflictRetriesExhausted extends Error {
  readonly type = 'conflict_retries_exhausted' as const;
  constructor(readonly attempts: number) {
    super(`ledger head kept moving; gave up after ${attempts} attempts`);
    this.name = 'ConflictRetriesExhausted';
  }
}

/** The store cannot be reached or written; the HTTP edge answers 503 UNAVAILABLE. */
export class StoreUnavailable extends Error {
  readonly type = 'store_unavailable' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailable';
  }
}

/** An append whose events are malformed for the position they claim (a bug, never user input). */
export class InvalidAppend extends Error {
  readonly type = 'invalid_append' as const;
  constructor(message: string) {
    super(message);
    this.name = 'InvalidAppend';
  }
}

/**
 * The ledger failed an integrity check (chain, Merkle tree or signed checkpoint): appends are
 * refused until an operator has investigated and restarted with the override; reads go on.
 */
export class LedgerIntegrityFailure extends Error {
  readonly type = 'ledger_integrity' as const;
  constructor(
    readonly reason: string,
    readonly firstBadSeq: number,
  ) {
    super(`ledger integrity failure (${reason}) at seq ${firstBadSeq}: appends are suspended`);
    this.name = 'LedgerIntegrityFailure';
  }
}

/**
 * One event is larger than the store accepts in one append (EventStoreDB's MaxAppendSize), so the
 * command can never be stored as it is; the HTTP edge answers 413 PAYLOAD_TOO_LARGE.
 */
export class AppendTooLarge extends Error {
  readonly type = 'append_too_large' as const;
  constructor(
    /** The append's size when this process measured it; undefined when the server refused it. */
    readonly bytes: number | undefined,
    readonly maxBytes: number,
  ) {
    super(
      `an append${bytes === undefined ? '' : ` of ${bytes} bytes`} exceeds the ledger store's maximum append size of ${maxBytes} bytes`,
    );
    this.name = 'AppendTooLarge';
  }
}

/**
 * The store refused this node's credentials or ACLs (EventStoreDB AccessDenied): a deployment
 * mistake an operator must fix, not a passing outage; the HTTP edge answers 500 and logs it.
 */
export class StoreAccessDenied extends Error {
  readonly type = 'store_access_denied' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreAccessDenied';
  }
}

/**
 * The store node this process talks to is not the cluster leader (EventStoreDB NotLeader), e.g.
 * during an election; the client reconnects to the leader it names. The HTTP edge answers 503
 * with `reason: store_not_leader` and a short Retry-After.
 */
export class StoreNotLeader extends Error {
  readonly type = 'store_not_leader' as const;
  constructor(
    message: string,
    readonly leader: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreNotLeader';
  }
}
