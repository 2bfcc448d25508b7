import { expect } from 'chai';
import {
  createCompiler,
  DanglingInputError,
  DuplicateEngineError,
  DuplicateProducerError,
  EngineCycleError,
  blocked,
  fired,
  type Engine,
} from '../../../src/governance/compile/index.js';

type Ev = Record<'a' | 'b' | 'c' | 'd' | 'e', number>;
type Toy = Engine<number, Ev>;

/** An engine that adds 1 to the sum of its inputs (the compile input seeds engines with no inputs). */
function toy(name: string, inputs: (keyof Ev)[], outputs: (keyof Ev)[]): Toy {
  return {
    name,
    inputs,
    outputs,
    run: ({ input, evidence }) => {
      const sum = inputs.reduce((n, k) => n + (evidence[k] ?? 0), input);
      return fired(Object.fromEntries(outputs.map((o) => [o, sum + 1])));
    },
  };
}

describe('compile DAG (DOMAIN §9)', () => {
  describe('ordering', () => {
    it('places each engine one layer below the deepest engine it reads from, whatever the registration order', () => {
      // given engines registered in reverse dependency order: e ← c ← (a, b), d ← a
      const engines = [
        toy('E', ['c'], ['e']),
        toy('C', ['a', 'b'], ['c']),
        toy('D', ['a'], ['d']),
        toy('B', [], ['b']),
        toy('A', [], ['a']),
      ];
      // when the compiler plans them
      const compiler = createCompiler(engines);
      // then layers follow the evidence, registration order breaking ties inside a layer
      expect(compiler.layers).to.deep.equal([['B', 'A'], ['C', 'D'], ['E']]);
      expect(compiler.engineCount).to.equal(5);
    });

    it('executes layer by layer so every engine sees its producers’ evidence', () => {
      const compiler = createCompiler([
        toy('C', ['a', 'b'], ['c']),
        toy('A', [], ['a']),
        toy('B', ['a'], ['b']),
      ]);
      const run = compiler.run(10);
      // a = 11, b = 10 + 11 + 1 = 22, c = 10 + 11 + 22 + 1 = 44
      expect(run.evidence).to.deep.equal({ a: 11, b: 22, c: 44 });
      expect(run.evidence_available).to.deep.equal(['a', 'b', 'c']);
      expect(run.trace.map((t) => [t.engine, t.layer, t.status])).to.deep.equal([
        ['A', 1, 'FIRED'],
        ['B', 2, 'FIRED'],
        ['C', 3, 'FIRED'],
      ]);
      expect(run.layers_executed).to.equal(3);
    });
  });

  describe('startup errors', () => {
    it('refuses a cycle at construction, naming the engines in it', () => {
      const build = () =>
        createCompiler([toy('A', [], ['a']), toy('B', ['a', 'c'], ['b']), toy('C', ['b'], ['c'])]);
      expect(build).to.throw(EngineCycleError).with.property('engines').that.deep.equals(['B', 'C']);
    });

    it('refuses an engine that reads its own output', () => {
      expect(() => createCompiler([toy('A', ['a'], ['a'])])).to.throw(EngineCycleError);
    });

    it('refuses an input no engine produces', () => {
      const build = () => createCompiler([toy('A', [], ['a']), toy('B', ['a', 'd'], ['b'])]);
      expect(build).to.throw(DanglingInputError).that.includes({ type: 'DanglingInput', evidence: 'd' });
    });

    it('refuses two producers of one evidence name and two engines of one name', () => {
      expect(() => createCompiler([toy('A', [], ['a']), toy('B', [], ['a'])])).to.throw(
        DuplicateProducerError,
      );
      expect(() => createCompiler([toy('A', [], ['a']), toy('A', [], ['b'])])).to.throw(DuplicateEngineError);
    });
  });

  describe('execution outcomes', () => {
    it('skips every transitive dependant of a BLOCKED engine and runs the independent ones', () => {
      // given A blocks; B reads a; C reads b; D reads nothing
      const blocker: Toy = { name: 'A', inputs: [], outputs: ['a'], run: () => blocked('no facts') };
      const run = createCompiler([
        blocker,
        toy('B', ['a'], ['b']),
        toy('C', ['b'], ['c']),
        toy('D', [], ['d']),
      ]).run(0);
      // then
      expect(run.trace).to.deep.equal([
        { engine: 'A', layer: 1, status: 'BLOCKED', detail: 'no facts' },
        { engine: 'D', layer: 1, status: 'FIRED' },
        { engine: 'B', layer: 2, status: 'SKIPPED', detail: 'missing input: a' },
        { engine: 'C', layer: 3, status: 'SKIPPED', detail: 'missing input: b' },
      ]);
      expect(run.evidence_available).to.deep.equal(['d']);
      expect(run.layers_executed).to.equal(1);
    });

    it('records a throwing engine as FAILED and keeps compiling', () => {
      const thrower: Toy = {
        name: 'B',
        inputs: ['a'],
        outputs: ['b'],
        run: () => {
          throw new Error('division by zero');
        },
      };
      const run = createCompiler([
        toy('A', [], ['a']),
        thrower,
        toy('C', ['b'], ['c']),
        toy('D', ['a'], ['d']),
      ]).run(0);
      expect(run.trace.find((t) => t.engine === 'B')).to.deep.equal({
        engine: 'B',
        layer: 2,
        status: 'FAILED',
        detail: 'threw: division by zero',
      });
      expect(run.trace.find((t) => t.engine === 'C')?.status).to.equal('SKIPPED');
      expect(run.trace.find((t) => t.engine === 'D')?.status).to.equal('FIRED');
    });

    it('fails an engine that fires without a declared output or with an undeclared one', () => {
      const lazy: Toy = { name: 'A', inputs: [], outputs: ['a', 'b'], run: () => fired({ a: 1 }) };
      const noisy: Toy = { name: 'C', inputs: [], outputs: ['c'], run: () => fired({ c: 1, d: 2 }) };
      const run = createCompiler([lazy, noisy]).run(0);
      expect(run.trace).to.deep.equal([
        { engine: 'A', layer: 1, status: 'FAILED', detail: 'did not produce: b' },
        { engine: 'C', layer: 1, status: 'FAILED', detail: 'undeclared output: d' },
      ]);
      expect(run.evidence).to.deep.equal({});
    });
  });
});
