import { expect } from 'chai';
import {
  claimantsOf,
  evaluateGates,
  PROFILE_GATES,
  requiredWaivers,
  type GateContext,
  type GateResult,
} from '../../../src/payments/index.js';
import {
  CONSTRUCTION_PROFILE,
  PROFILES,
  PROFILE_NAMES,
  TREASURY_PROFILE,
  type GateName,
} from '../../../src/projects/profiles.js';
import { aDraw, aProject, GC, SUB } from '../compile/fixtures.js';
import { DRAW_1, DRAW_2, passingContext, waivers } from './fixtures.js';

const failing = (results: GateResult[]) => results.filter((r) => !r.passed).map((r) => r.gate);

describe('payment gate (SPEC §6, DOMAIN §12)', () => {
  it('passes every construction gate for a compiled, signed, waived, notarized, balanced draw', () => {
    expect(evaluateGates(CONSTRUCTION_PROFILE, passingContext())).to.deep.equal([
      { gate: 'verdict_fundable', passed: true, detail: 'latest compilation (seq 25) is FUNDABLE' },
      { gate: 'signatures', passed: true, detail: '3 of 3 signed' },
      { gate: 'waivers_executed', passed: true, detail: '4 required waiver(s) executed' },
      { gate: 'notarization', passed: true, detail: '4 document(s) notarized' },
      { gate: 'in_balance', passed: true, detail: 'sources cover uses' },
      { gate: 'no_critical_rail', passed: true, detail: 'no rail is CRITICAL' },
    ]);
  });

  const ctx = passingContext();
  const cases: [GateName, string, Partial<GateContext>, string][] = [
    [
      'verdict_fundable',
      'the latest compilation is HOLD',
      { latest_compilation: { seq: 25, draw_verdict: 'HOLD' } },
      'latest compilation (seq 25) is HOLD',
    ],
    [
      'verdict_fundable',
      'the draw was never compiled',
      { latest_compilation: null },
      'the draw has never been compiled',
    ],
    [
      'verdict_fundable',
      'a fact about the project is newer than the compilation',
      { latest_compilation: { seq: 19, draw_verdict: 'FUNDABLE' } },
      'compiled at seq 19, facts changed at seq 20: compile again',
    ],
    [
      'verdict_fundable',
      'a fact about the draw is newer than the compilation',
      { latest_compilation: { seq: 21, draw_verdict: 'FUNDABLE' }, draw: { ...ctx.draw, last_fact_seq: 22 } },
      'compiled at seq 21, facts changed at seq 22: compile again',
    ],
    [
      'signatures',
      'the Architect has not signed',
      { draw: { ...ctx.draw, signatures: ctx.draw.signatures.filter((s) => s.role !== 'Architect') } },
      '2 of 3 signed; missing: Architect',
    ],
    [
      'waivers_executed',
      'the subcontractor’s conditional waiver is missing',
      { documents: waivers().filter((w) => w.id !== 'WAIV-condsubsubsubsub') },
      `missing: conditional from ${SUB} for ${DRAW_2}`,
    ],
    [
      'waivers_executed',
      'the GC’s unconditional waiver for the funded draw is not executed',
      { documents: waivers().map((w) => (w.id === 'WAIV-uncogcgcgcgcgcgc' ? { ...w, executed: false } : w)) },
      'not executed: WAIV-uncogcgcgcgcgcgc',
    ],
    [
      'notarization',
      'a required waiver is not notarized',
      {
        notarized_document_ids: new Set([
          'WAIV-condgcgcgcgcgcgc',
          'WAIV-condsubsubsubsub',
          'WAIV-uncosubsubsubsub',
        ]),
      },
      'not notarized: WAIV-uncogcgcgcgcgcgc',
    ],
    ['in_balance', 'the project is out of balance', { in_balance: false }, 'project is out of balance'],
    ['in_balance', 'no in-balance test was recorded', { in_balance: null }, 'no in-balance test recorded'],
    [
      'no_critical_rail',
      'a rail is CRITICAL',
      { critical_rails: ['SAFETY', 'INSURANCE'] },
      'CRITICAL: SAFETY, INSURANCE',
    ],
  ];

  for (const [gate, situation, override, detail] of cases) {
    it(`reports only ${gate} unmet, and still lists all six gates, when ${situation}`, () => {
      const results = evaluateGates(CONSTRUCTION_PROFILE, passingContext(override));
      expect(results.map((r) => r.gate)).to.deep.equal(PROFILE_GATES.construction);
      expect(failing(results)).to.deep.equal([gate]);
      expect(results.find((r) => r.gate === gate)?.detail).to.equal(detail);
    });
  }

  it('evaluates every gate even when all of them fail (never short-circuits)', () => {
    const results = evaluateGates(
      CONSTRUCTION_PROFILE,
      passingContext({
        latest_compilation: null,
        draw: aDraw(),
        documents: [],
        in_balance: false,
        critical_rails: ['WEATHER'],
        notarized_document_ids: new Set(),
      }),
    );
    // notarization passes: with no waiver recorded there is nothing to notarize (waivers_executed reports the gap)
    expect(failing(results)).to.deep.equal([
      'verdict_fundable',
      'signatures',
      'waivers_executed',
      'in_balance',
      'no_critical_rail',
    ]);
    expect(results).to.have.length(6);
  });

  it('lets FUNDABLE_WITH_CONDITIONS pass verdict_fundable', () => {
    const [verdict] = evaluateGates(
      CONSTRUCTION_PROFILE,
      passingContext({ latest_compilation: { seq: 25, draw_verdict: 'FUNDABLE_WITH_CONDITIONS' } }),
    );
    expect(verdict).to.deep.equal({
      gate: 'verdict_fundable',
      passed: true,
      detail: 'latest compilation (seq 25) is FUNDABLE_WITH_CONDITIONS',
    });
  });

  it('refuses REDUCED at verdict_fundable: a reduced draw is not fundable as requested', () => {
    const [verdict] = evaluateGates(
      CONSTRUCTION_PROFILE,
      passingContext({ latest_compilation: { seq: 25, draw_verdict: 'REDUCED' } }),
    );
    expect(verdict?.passed).to.equal(false);
  });

  describe('profiles', () => {
    it('names as many gates for each profile as DOMAIN §12 counts', () => {
      for (const name of PROFILE_NAMES)
        expect(PROFILE_GATES[name], name).to.have.length(PROFILES[name].gate_count);
    });

    it('evaluates exactly the treasury gates, against the treasury certification chain', () => {
      const results = evaluateGates(TREASURY_PROFILE, passingContext());
      expect(results.map((r) => r.gate)).to.deep.equal([
        'verdict_fundable',
        'signatures',
        'notarization',
        'in_balance',
        'no_critical_rail',
      ]);
      expect(results.find((r) => r.gate === 'signatures')?.detail).to.equal(
        '0 of 3 signed; missing: Requestor, Manager, Treasury',
      );
      expect(results.find((r) => r.gate === 'notarization')?.detail).to.equal(
        'the profile requires no notarized documents',
      );
    });
  });

  describe('required waivers', () => {
    it('asks a conditional waiver from the GC and each subcontractor billed in the draw, and an unconditional one for the previous funded draw', () => {
      const { project, draw, draws } = passingContext();
      expect(requiredWaivers(project, draw, draws)).to.deep.equal([
        { kind: 'CONDITIONAL', claimant: GC, draw_id: DRAW_2 },
        { kind: 'CONDITIONAL', claimant: SUB, draw_id: DRAW_2 },
        { kind: 'UNCONDITIONAL', claimant: GC, draw_id: DRAW_1 },
        { kind: 'UNCONDITIONAL', claimant: SUB, draw_id: DRAW_1 },
      ]);
    });

    it('leaves out a subcontractor whose line is not billed this period', () => {
      const draw = aDraw();
      const unbilled = {
        ...draw,
        lines: draw.lines.map((l) => (l.line === 1 ? { ...l, this_period: 0 } : l)),
      };
      expect(claimantsOf(aProject(), unbilled)).to.deep.equal([GC]);
    });

    it('asks no unconditional waiver before any draw was funded', () => {
      const { project, draw } = passingContext();
      expect(requiredWaivers(project, draw, [draw]).map((r) => r.kind)).to.deep.equal([
        'CONDITIONAL',
        'CONDITIONAL',
      ]);
    });
  });
});
