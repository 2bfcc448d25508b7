/**
 * The engine contract of the compile DAG (DOMAIN §9). An engine names the evidence it reads and
 * the evidence it produces; it never names its layer — the compiler derives layers from those
 * names, so adding an engine can never silently run it before the evidence it needs.
 */

/** What an engine reports about one run. SKIPPED is not here: only the compiler decides it. */
export type EngineStatus = 'FIRED' | 'BLOCKED' | 'FAILED';

/** SPEC §6 `trace[].status`. */
export type TraceStatus = EngineStatus | 'SKIPPED';

/** An evidence name of the evidence map `E`. */
export type EvidenceName<E> = keyof E & string;

/** The result of one run. `outputs` are published only when `status` is FIRED. */
export interface EngineOutcome<E> {
  status: EngineStatus;
  outputs: Partial<E>;
  detail?: string;
}

/** What an engine sees: the compile input and the evidence published by earlier layers. */
export interface EngineContext<I, E> {
  readonly input: I;
  readonly evidence: Readonly<Partial<E>>;
}

export interface Engine<I, E> {
  readonly name: string;
  /** Layers are derived from inputs/outputs, never declared (DOMAIN §9). */
  readonly layer?: never;
  readonly inputs: readonly EvidenceName<E>[];
  readonly outputs: readonly EvidenceName<E>[];
  run(ctx: EngineContext<I, E>): EngineOutcome<E>;
}

/** One SPEC §6 `trace` row. */
export interface TraceEntry {
  engine: string;
  layer: number;
  status: TraceStatus;
  detail?: string;
}

/** A FIRED outcome; `detail` is set only when given (exactOptionalPropertyTypes). */
export function fired<E>(outputs: Partial<E>, detail?: string): EngineOutcome<E> {
  return detail === undefined ? { status: 'FIRED', outputs } : { status: 'FIRED', outputs, detail };
}

/** A BLOCKED outcome: the engine ran, but the facts do not let it produce its evidence. */
export function blocked<E>(detail: string): EngineOutcome<E> {
  return { status: 'BLOCKED', outputs: {}, detail };
}

/**
 * Evidence an engine declared as an input. The compiler runs an engine only when all its inputs
 * are present, so a miss here is a wiring bug — thrown, and so recorded as FAILED.
 */
export function need<E, K extends keyof E>(evidence: Readonly<Partial<E>>, name: K): NonNullable<E[K]> {
  const value = evidence[name];
  if (value === undefined || value === null) throw new Error(`evidence "${String(name)}" is not available`);
  return value;
}
