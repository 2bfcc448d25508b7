import { expect } from 'chai';
import {
  finding,
  FINDING_CODES,
  FINDING_PENALTIES,
  penaltyOf,
  RAIL_NO_EVIDENCE_SCORE,
  type RailFinding,
} from '../../../src/rails/findings.js';
import { RAIL_NAMES } from '../../../src/rails/rail.js';
import {
  compareFindings,
  ELEVATED_MIN_SCORE,
  evaluation,
  NOMINAL_MIN_SCORE,
  railPosture,
  railScore,
  WARNING_HEAVY_MIN_WARNINGS,
  worstPosture,
} from '../../../src/rails/scoring.js';
import { TODAY } from './builders.js';

const stale = (rail: string): RailFinding =>
  finding('SYSTEM_RAIL_STALE', 'WARNING', {
    project_id: null,
    entity_id: null,
    title: `${rail} stale`,
    detail: 'old',
    evidence: [{ kind: 'rail', id: rail }],
    observed_on: TODAY,
  });
const chain = finding('COUNTERPARTY_DISTRESSED_GC', 'CRITICAL', {
  project_id: null,
  entity_id: null,
  title: 'distressed GC',
  detail: 'three distressed projects',
  evidence: [{ kind: 'project', id: '1' }],
  observed_on: TODAY,
});
const info = finding('EQUIPMENT_LOW_UTILIZATION', 'INFO', {
  project_id: 'prj_b',
  entity_id: null,
  title: 'idle',
  detail: 'idle',
  evidence: [{ kind: 'observation', id: 'OBS-1' }],
  observed_on: TODAY,
});

describe('rail score and posture (DOMAIN §8)', () => {
  it('given no findings, then the score is 100 and the posture NOMINAL', () => {
    expect(evaluation([])).to.deep.equal({ posture: 'NOMINAL', score: 100, findings: [] });
  });

  it('given findings, then the score is 100 minus the sum of their named penalties', () => {
    const findings = [stale('A'), chain, info];
    const expected = 100 - FINDING_PENALTIES.SYSTEM_RAIL_STALE.WARNING - 30 - 2;
    expect(railScore(findings)).to.equal(expected);
  });

  it('given penalties above 100, then the score floors at 0', () => {
    expect(railScore([chain, chain, chain, chain])).to.equal(0);
  });

  const postureCases: [string, number, RailFinding[], string][] = [
    ['a score of 80 and no CRITICAL finding', NOMINAL_MIN_SCORE, [], 'NOMINAL'],
    ['a score of 79', NOMINAL_MIN_SCORE - 1, [], 'ELEVATED'],
    ['a score of 50', ELEVATED_MIN_SCORE, [], 'ELEVATED'],
    ['a score of 49', ELEVATED_MIN_SCORE - 1, [], 'CRITICAL'],
    ['a score of 100 but one CRITICAL finding', 100, [chain], 'CRITICAL'],
    [
      `a score of 85 from ${WARNING_HEAVY_MIN_WARNINGS} WARNING findings (WARNING-heavy)`,
      85,
      [stale('A'), stale('B'), stale('C')],
      'ELEVATED',
    ],
    ['a score of 90 from two WARNING findings', 90, [stale('A'), stale('B')], 'NOMINAL'],
    ['a score of 94 from three INFO findings', 94, [info, info, info], 'NOMINAL'],
  ];
  for (const [given, score, findings, posture] of postureCases) {
    it(`given ${given}, then the posture is ${posture}`, () =>
      expect(railPosture(score, findings)).to.equal(posture));
  }

  it('orders findings by code, project, entity and evidence whatever order they arrive in', () => {
    const a = [info, stale('B'), chain, stale('A')];
    const b = [stale('A'), chain, stale('B'), info];
    const codes = evaluation(a).findings.map((f) => `${f.code}/${f.evidence[0]?.id}`);
    expect(codes).to.deep.equal([
      'COUNTERPARTY_DISTRESSED_GC/1',
      'EQUIPMENT_LOW_UTILIZATION/OBS-1',
      'SYSTEM_RAIL_STALE/A',
      'SYSTEM_RAIL_STALE/B',
    ]);
    expect(evaluation(b)).to.deep.equal(evaluation(a));
    expect(compareFindings(stale('A'), stale('A'))).to.equal(0);
  });

  it('refuses to score a hand-built finding whose severity its code does not allow', () => {
    expect(() => penaltyOf({ code: 'SYSTEM_RAIL_STALE', severity: 'CRITICAL' })).to.throw(TypeError);
  });

  it('names every finding code after one of the eleven rails and gives each a positive penalty', () => {
    const prefixes = ['SYSTEM', 'WORKFORCE', 'SCHEDULE', 'SAFETY', 'INSURANCE', 'ENV', 'PROCUREMENT'];
    const allPrefixes = [...prefixes, 'EQUIPMENT', 'WEATHER', 'COUNTERPARTY', 'MARKET'];
    expect(allPrefixes).to.have.length(RAIL_NAMES.length);
    // 29 rail-specific codes plus INSUFFICIENT_DATA, which any rail may raise.
    expect(FINDING_CODES).to.have.length(30);
    expect(100 - FINDING_PENALTIES.INSUFFICIENT_DATA.WARNING).to.equal(RAIL_NO_EVIDENCE_SCORE);
    for (const code of FINDING_CODES.filter((c) => c !== 'INSUFFICIENT_DATA')) {
      expect(
        allPrefixes.some((p) => code.startsWith(`${p}_`)),
        code,
      ).to.equal(true);
      for (const penalty of Object.values(FINDING_PENALTIES[code])) expect(penalty).to.be.greaterThan(0);
    }
  });

  it('ranks CRITICAL over ELEVATED over NOMINAL', () => {
    expect(worstPosture([])).to.equal('NOMINAL');
    expect(worstPosture(['NOMINAL', 'ELEVATED', 'NOMINAL'])).to.equal('ELEVATED');
    expect(worstPosture(['ELEVATED', 'CRITICAL', 'NOMINAL'])).to.equal('CRITICAL');
  });
});
