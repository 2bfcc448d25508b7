/**
 * Engine graph errors. They are startup errors: a registry whose engines cannot be ordered is
 * refused when it is built, so a broken DAG never reaches a request (DOMAIN §9).
 */

export abstract class EngineGraphError extends Error {
  abstract readonly type: 'DuplicateEngine' | 'DuplicateProducer' | 'DanglingInput' | 'EngineCycle';
  /** The engines involved, in registration order. */
  readonly engines: readonly string[];
  protected constructor(message: string, engines: readonly string[]) {
    super(message);
    this.engines = engines;
  }
}

/** Two engines registered under one name: trace rows would be ambiguous. */
export class DuplicateEngineError extends EngineGraphError {
  readonly type = 'DuplicateEngine' as const;
  override readonly name = 'DuplicateEngineError';
  constructor(engine: string) {
    super(`engine "${engine}" is registered twice`, [engine]);
  }
}

/** Two engines produce the same evidence: which one a dependant reads would depend on order. */
export class DuplicateProducerError extends EngineGraphError {
  readonly type = 'DuplicateProducer' as const;
  override readonly name = 'DuplicateProducerError';
  readonly evidence: string;
  constructor(evidence: string, engines: readonly string[]) {
    super(`evidence "${evidence}" is produced by more than one engine: ${engines.join(', ')}`, engines);
    this.evidence = evidence;
  }
}

/** An engine reads evidence no engine produces: it could never run. */
export class DanglingInputError extends EngineGraphError {
  readonly type = 'DanglingInput' as const;
  override readonly name = 'DanglingInputError';
  readonly evidence: string;
  constructor(engine: string, evidence: string) {
    super(`engine "${engine}" reads "${evidence}", which no registered engine produces`, [engine]);
    this.evidence = evidence;
  }
}

/** The engines form a cycle: no topological order exists. */
export class EngineCycleError extends EngineGraphError {
  readonly type = 'EngineCycle' as const;
  override readonly name = 'EngineCycleError';
  constructor(engines: readonly string[]) {
    super(`engines form a dependency cycle: ${engines.join(', ')}`, engines);
  }
}
