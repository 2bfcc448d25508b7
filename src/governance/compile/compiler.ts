/**
 * Runs a planned engine DAG layer by layer (DOMAIN §9). Nothing an engine does can crash a
 * compile: a throw is recorded as FAILED, and any engine whose input is missing — because its
 * producer was BLOCKED, FAILED or itself SKIPPED — is SKIPPED with the missing names. Damaged read
 * models are not the engine's failure: that throw ends the compile (the node answers 503).
 */
import { ReadModelsDamaged } from '../../platform/projections/read-model-damage.js';
import { planLayers } from './dag.js';
import type { Engine, EngineOutcome, TraceEntry } from './engine.js';

export interface CompileRun<E> {
  trace: TraceEntry[];
  /** Evidence published by FIRED engines. */
  evidence: Partial<E>;
  /** Evidence names in publication order. */
  evidence_available: string[];
  /** Layers in which at least one engine ran (was not SKIPPED). */
  layers_executed: number;
}

export interface Compiler<I, E> {
  /** How many engines are registered (SPEC §7 profiles: the count the code registers). */
  readonly engineCount: number;
  /** Engine names per layer, layer 1 first. */
  readonly layers: readonly (readonly string[])[];
  run(input: I): CompileRun<E>;
}

/** Validates the graph now (throws an `EngineGraphError`), so a bad registry fails at startup. */
export function createCompiler<I, E>(engines: readonly Engine<I, E>[]): Compiler<I, E> {
  const plan = planLayers(engines);
  return {
    engineCount: engines.length,
    layers: plan.map((layer) => layer.map((engine) => engine.name)),
    run: (input) => runPlan(plan, input),
  };
}

function runPlan<I, E>(plan: readonly Engine<I, E>[][], input: I): CompileRun<E> {
  const evidence: Partial<E> = {};
  const available: string[] = [];
  const trace: TraceEntry[] = [];
  let layersExecuted = 0;
  plan.forEach((layer, index) => {
    let ran = false;
    for (const engine of layer) {
      const missing = engine.inputs.filter((name) => !Object.hasOwn(evidence, name));
      if (missing.length > 0) {
        trace.push({
          engine: engine.name,
          layer: index + 1,
          status: 'SKIPPED',
          detail: `missing input: ${missing.join(', ')}`,
        });
        continue;
      }
      ran = true;
      const outcome = checked(engine, () => engine.run({ input, evidence }));
      if (outcome.status === 'FIRED') publish(evidence, available, engine, outcome.outputs);
      trace.push(traceEntry(engine.name, index + 1, outcome));
    }
    if (ran) layersExecuted += 1;
  });
  return { trace, evidence, evidence_available: available, layers_executed: layersExecuted };
}

/** Runs the engine, turning a throw or a broken output contract into FAILED. */
function checked<I, E>(engine: Engine<I, E>, run: () => EngineOutcome<E>): EngineOutcome<E> {
  let outcome: EngineOutcome<E>;
  try {
    outcome = run();
  } catch (error) {
    if (error instanceof ReadModelsDamaged) throw error;
    return {
      status: 'FAILED',
      outputs: {},
      detail: `threw: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (outcome.status !== 'FIRED') return outcome;
  const produced = Object.keys(outcome.outputs).filter((k) => outcome.outputs[k as keyof E] !== undefined);
  const absent = engine.outputs.filter((name) => !produced.includes(name));
  const undeclared = produced.filter((name) => !(engine.outputs as readonly string[]).includes(name));
  if (absent.length > 0)
    return { status: 'FAILED', outputs: {}, detail: `did not produce: ${absent.join(', ')}` };
  if (undeclared.length > 0)
    return { status: 'FAILED', outputs: {}, detail: `undeclared output: ${undeclared.join(', ')}` };
  return outcome;
}

function publish<I, E>(
  evidence: Partial<E>,
  available: string[],
  engine: Engine<I, E>,
  outputs: Partial<E>,
): void {
  for (const name of engine.outputs) {
    evidence[name] = outputs[name];
    available.push(name);
  }
}

function traceEntry(engine: string, layer: number, outcome: EngineOutcome<unknown>): TraceEntry {
  const entry: TraceEntry = { engine, layer, status: outcome.status };
  if (outcome.detail !== undefined) entry.detail = outcome.detail;
  return entry;
}
