import { expect } from 'chai';
import {
  createDrawCompiler,
  registeredEngineCount,
  type AdequacyAssessor,
  type DrawCompileInput,
  type FindingRules,
} from '../../../src/governance/compile/index.js';
import {
  CONTRADICTION_CODES,
  TEMPORAL_CODES,
  type Finding,
  type FindingCode,
} from '../../../src/governance/findings.js';
import { aDraw, aFinding, aProject, GC } from './fixtures.js';

type Scan = { findings: Finding[] };
const NOW = '2026-03-05';

/** Kernel stand-in: each rule returns the scan input's findings of its code. */
function rules(overrides: Partial<FindingRules<Scan, string>> = {}): FindingRules<Scan, string> {
  const all = [...CONTRADICTION_CODES, ...TEMPORAL_CODES].map((code: FindingCode) => [
    code,
    (scan: Scan) => scan.findings.filter((f) => f.code === code),
  ]);
  return { ...(Object.fromEntries(all) as FindingRules<Scan, string>), ...overrides };
}

const balanced: AdequacyAssessor<Scan, string> = (open) => ({
  adequacy: {
    overall: { score: 100 - 25 * open.filter((f) => f.severity === 'BLOCKING').length, grade: 'A' },
    vector: {
      lender: { score: 100, grade: 'A' },
      contractor: { score: 70, grade: 'C' },
      project: { score: 100, grade: 'A' },
      cashflow: { score: 100, grade: 'A' },
      compliance: { score: 100, grade: 'A' },
      risk: { score: 70, grade: 'C' },
    },
  },
  in_balance: true,
});

function input(
  findings: Finding[],
  overrides: Partial<DrawCompileInput<Scan, string>> = {},
): DrawCompileInput<Scan, string> {
  return {
    project: aProject(),
    draw: aDraw(),
    documents: [],
    contractor: { entity_id: GC, registration: 'active', excluded: false, pral: 'RELEASE' },
    resolutions: {},
    scan_input: { findings },
    now: NOW,
    ...overrides,
  };
}

describe('compile for draw (DOMAIN §9, SPEC §6 dependency-graph)', () => {
  it('orders the registered engines into the six DOMAIN §9 layers', () => {
    const compiler = createDrawCompiler({ rules: rules(), assessAdequacy: balanced });
    expect(compiler.layers).to.deep.equal([
      ['sov_integrity', 'document_inventory', 'identity_registry'],
      CONTRADICTION_CODES.map((c) => c.toLowerCase()),
      TEMPORAL_CODES.map((c) => c.toLowerCase()),
      ['pral'],
      ['adequacy'],
      ['draw_verdict'],
    ]);
  });

  it('reports the number of engines it actually registers', () => {
    expect(registeredEngineCount()).to.equal(3 + 7 + 6 + 3);
    expect(createDrawCompiler({ rules: rules(), assessAdequacy: balanced }).engineCount).to.equal(
      registeredEngineCount(),
    );
  });

  it('answers the SPEC §6 compilation shape for a clean draw: FUNDABLE and READY, every engine FIRED', () => {
    const { compilation } = createDrawCompiler({ rules: rules(), assessAdequacy: balanced }).compile(
      input([]),
    );
    expect(Object.keys(compilation)).to.deep.equal([
      'draw_id',
      'verdict_status',
      'draw_verdict',
      'layers_executed',
      'trace',
      'evidence_available',
    ]);
    expect(compilation).to.include({
      draw_id: 'DRW-secondsecondseco',
      verdict_status: 'READY',
      draw_verdict: 'FUNDABLE',
      layers_executed: 6,
    });
    expect(compilation.trace).to.have.length(19);
    expect(compilation.trace.every((t) => t.status === 'FIRED')).to.equal(true);
    expect(compilation.evidence_available).to.include.members([
      'pral_verdict',
      'adequacy_vector',
      'in_balance',
      'draw_verdict',
      'provenance',
    ]);
  });

  it('is BLOCKED with a HOLD verdict when the G703 misses an SOV line: intake BLOCKED, dependants SKIPPED', () => {
    // given a draw that carries line 1 only
    const draw = aDraw();
    const result = createDrawCompiler({ rules: rules(), assessAdequacy: balanced }).compile(
      input([], { draw: { ...draw, lines: draw.lines.slice(0, 1) } }),
    );
    // then
    const status = (engine: string) => result.compilation.trace.find((t) => t.engine === engine)?.status;
    expect(result.compilation.trace[0]).to.deep.equal({
      engine: 'sov_integrity',
      layer: 1,
      status: 'BLOCKED',
      detail: 'SOV lines missing from the draw: 2',
    });
    expect(status('contract_sum_mismatch')).to.equal('SKIPPED');
    expect(status('lien_waiver_mismatch')).to.equal('FIRED'); // reads no SOV view
    expect(status('pay_period_sequence')).to.equal('SKIPPED');
    expect(status('draw_verdict')).to.equal('SKIPPED');
    expect(result.compilation).to.include({
      verdict_status: 'BLOCKED',
      draw_verdict: 'HOLD',
      layers_executed: 3,
    });
    expect(result.verdict).to.equal(null);
  });

  it('records a kernel rule that throws as FAILED and still answers, never as fundable', () => {
    const broken = rules({
      RETAINAGE_MISCALCULATED: () => {
        throw new Error('boom');
      },
    });
    const { compilation } = createDrawCompiler({ rules: broken, assessAdequacy: balanced }).compile(
      input([]),
    );
    expect(compilation.trace.find((t) => t.engine === 'retainage_miscalculated')).to.deep.equal({
      engine: 'retainage_miscalculated',
      layer: 2,
      status: 'FAILED',
      detail: 'threw: boom',
    });
    expect(compilation.trace.find((t) => t.engine === 'pral')?.status).to.equal('SKIPPED');
    expect(compilation).to.include({ verdict_status: 'BLOCKED', draw_verdict: 'HOLD' });
  });

  it('judges the draw on its own and project-wide findings, not another draw’s nor explicitly resolved ones', () => {
    const other = aFinding('ROLL_FORWARD_MISMATCH', 'BLOCKING', { draw_id: 'DRW-otherotherothero' });
    const resolved = aFinding('CONTRACT_SUM_MISMATCH', 'BLOCKING', { id: 'FND-resolvedresolved' });
    const projectWide = aFinding('INSURANCE_EXPIRY', 'WARNING', { draw_id: null, category: 'temporal' });
    const result = createDrawCompiler({ rules: rules(), assessAdequacy: balanced }).compile(
      input([other, resolved, projectWide], {
        resolutions: { 'FND-resolvedresolved': { severity: 'BLOCKING', evidence: resolved.evidence } },
      }),
    );
    expect(result.findings.map((f) => f.id)).to.deep.equal([projectWide.id]);
    expect(result.compilation).to.include({
      draw_verdict: 'FUNDABLE_WITH_CONDITIONS',
      verdict_status: 'READY',
    });
    expect(result.evidence.provenance?.finding_ids).to.deep.equal([projectWide.id]);
    // adequacy is a project measure: the other draw's BLOCKING finding counts there (100 − 25)
    expect(result.adequacy?.adequacy.overall.score).to.equal(75);
  });

  it('lets the GC’s exclusion reach the verdict through pral: NOT_FUNDABLE', () => {
    const result = createDrawCompiler({ rules: rules(), assessAdequacy: balanced }).compile(
      input([], { contractor: { entity_id: GC, registration: 'active', excluded: true, pral: 'RELEASE' } }),
    );
    expect(result.evidence.pral_verdict?.pral).to.equal('DENY');
    expect(result.compilation).to.include({ draw_verdict: 'NOT_FUNDABLE', verdict_status: 'BLOCKED' });
  });

  it('worsens PRAL to HOLD while a BLOCKING finding on the GC is open', () => {
    const result = createDrawCompiler({ rules: rules(), assessAdequacy: balanced }).compile(
      input([aFinding('STORED_MATERIALS_UNSUPPORTED', 'BLOCKING')]),
    );
    expect(result.evidence.pral_verdict).to.deep.include({ pral: 'HOLD', contractor_pral: 'RELEASE' });
    expect(result.compilation.draw_verdict).to.equal('HOLD');
  });

  it('tells each temporal rule how many of its findings sit on a draw the related contradiction flagged', () => {
    const result = createDrawCompiler({ rules: rules(), assessAdequacy: balanced }).compile(
      input([
        aFinding('LIEN_WAIVER_MISMATCH', 'WARNING'),
        aFinding('WAIVER_SEQUENCE', 'WARNING', { category: 'temporal' }),
      ]),
    );
    expect(result.compilation.trace.find((t) => t.engine === 'waiver_sequence')?.detail).to.equal(
      '1 finding(s), 0 BLOCKING; 1 on a draw with LIEN_WAIVER_MISMATCH',
    );
  });
});
