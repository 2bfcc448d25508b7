/**
 * Orders engines into layers by their evidence (DOMAIN §9): Kahn's algorithm run in waves, so an
 * engine's layer is one more than the deepest engine it reads from. Registration order breaks
 * ties inside a layer, which keeps the trace deterministic.
 */
import type { Engine } from './engine.js';
import {
  DanglingInputError,
  DuplicateEngineError,
  DuplicateProducerError,
  EngineCycleError,
} from './errors.js';

/** Layers in execution order; `layers[0]` is layer 1. Throws an `EngineGraphError` subclass. */
export function planLayers<I, E>(engines: readonly Engine<I, E>[]): Engine<I, E>[][] {
  const producers = producerIndex(engines);
  const dependsOn = engines.map((engine) => producerEnginesOf(engine, producers));
  const remaining = new Set(engines.map((_, i) => i));
  const layers: Engine<I, E>[][] = [];
  while (remaining.size > 0) {
    const ready = [...remaining].filter((i) => [...dependsOn[i]!].every((d) => !remaining.has(d)));
    if (ready.length === 0) throw new EngineCycleError([...remaining].map((i) => engines[i]!.name));
    for (const i of ready) remaining.delete(i);
    layers.push(ready.map((i) => engines[i]!));
  }
  return layers;
}

/** Evidence name → index of the one engine producing it. */
function producerIndex<I, E>(engines: readonly Engine<I, E>[]): Map<string, number> {
  const names = new Set<string>();
  const producers = new Map<string, number>();
  engines.forEach((engine, i) => {
    if (names.has(engine.name)) throw new DuplicateEngineError(engine.name);
    names.add(engine.name);
    for (const output of engine.outputs) {
      const other = producers.get(output);
      if (other !== undefined) throw new DuplicateProducerError(output, [engines[other]!.name, engine.name]);
      producers.set(output, i);
    }
  });
  return producers;
}

/** Indexes of the engines whose evidence `engine` reads (itself included, which is a cycle). */
function producerEnginesOf<I, E>(engine: Engine<I, E>, producers: Map<string, number>): Set<number> {
  const deps = new Set<number>();
  for (const input of engine.inputs) {
    const producer = producers.get(input);
    if (producer === undefined) throw new DanglingInputError(engine.name, input);
    deps.add(producer);
  }
  return deps;
}
