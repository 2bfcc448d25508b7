import { expect } from 'chai';
import { sha256Hex } from '../../../src/platform/crypto/hash.js';
import { canonicalJson } from '../../../src/platform/ledger/canonical.js';
import { RAIL_NO_EVIDENCE_SCORE } from '../../../src/rails/findings.js';
import { RAIL_NAMES } from '../../../src/rails/rail.js';
import {
  compositeScore,
  COMPOSITE_RULE,
  governancePosture,
  scanAll,
  scanAllResult,
} from '../../../src/rails/scan-all.js';
import { certificate, draw, facts, NOW, obs, platform, PRJ, project } from './builders.js';

/** An org with trouble on several rails: expired insurance, overdue project, a swing, a stale rail. */
function troubled() {
  return facts({
    projects: [
      project({
        completion_date: '2026-06-01',
        required_coverages: [{ type: 'GL', min_limit: 100_000_000 }],
      }),
    ],
    draws: [draw('DRW-1', 80)],
    documents: [certificate('COI-1', { expires_on: '2026-06-01' })],
    observations: [
      obs.payroll('OBS-1', { period_from: '2026-05-25', period_to: '2026-05-31', headcount: 30 }),
      obs.payroll('OBS-2', { period_from: '2026-06-01', period_to: '2026-06-07', headcount: 10 }),
      obs.equipment('OBS-3', { utilization_pct: 10 }),
    ],
    platform: platform({
      rail_data_last_observed: { ...platform().rail_data_last_observed, MARKET: '2026-01-01' },
    }),
  });
}

describe('scan_all (SPEC §7)', () => {
  it('given an org with findings on several rails, then the composite is the documented mean of the rail scores', () => {
    const scan = scanAll(troubled(), NOW);
    const scores = scan.rails.map((r) => r.score);
    const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
    expect(scan.composite_score).to.equal(compositeScore(scores));
    expect(scan.composite_score).to.equal(Math.round(mean));
    expect(scores.some((s) => s < 100)).to.equal(true);
    expect(COMPOSITE_RULE).to.contain('arithmetic mean');
  });

  it('given an org with findings, then the governance posture is the worst rail posture and totals add up', () => {
    const scan = scanAll(troubled(), NOW);
    expect(scan.governance_posture).to.equal('CRITICAL');
    expect(scan.governance_posture).to.equal(governancePosture(scan.rails.map((r) => r.posture)));
    expect(scan.total_findings).to.equal(scan.rails.reduce((n, r) => n + r.findings.length, 0));
    expect(scan.total_findings).to.be.greaterThan(4);
  });

  it('lists the eleven rails in SPEC order, each as {name, posture, score, findings, coverage, counted}', () => {
    const scan = scanAll(troubled(), NOW);
    expect(scan.rails.map((r) => r.name)).to.deep.equal([...RAIL_NAMES]);
    for (const r of scan.rails)
      expect(Object.keys(r)).to.deep.equal(['name', 'posture', 'score', 'findings', 'coverage', 'counted']);
    const insurance = scan.rails.find((r) => r.name === 'INSURANCE');
    expect(insurance?.findings.map((f) => f.code)).to.deep.equal(['INSURANCE_EXPIRED']);
  });

  it('given an org with no facts, then scan_all is not clear: ELEVATED at the no-evidence score on every rail', () => {
    const scan = scanAll(facts({ projects: [] }), NOW);
    expect([scan.governance_posture, scan.composite_score, scan.total_findings]).to.deep.equal([
      'ELEVATED',
      RAIL_NO_EVIDENCE_SCORE,
      RAIL_NAMES.length,
    ]);
    expect(scan.not_clear).to.deep.equal([...RAIL_NAMES]);
  });

  it('given a project whose profile makes a rail optional, then that rail without evidence is listed but not counted', () => {
    const narrowed = facts({
      project_id: PRJ,
      projects: [project({ required_coverages: [{ type: 'GL', min_limit: 100_000_000 }] })],
      draws: [draw('DRW-1', 40)],
      documents: [certificate('COI-1', { expires_on: '2027-06-01' })],
      platform: platform({
        rail_data_last_observed: { ...platform().rail_data_last_observed, SCHEDULE: '2026-06-10' },
      }),
    });
    const scan = scanAll(narrowed, NOW);
    const weather = scan.rails.find((r) => r.name === 'WEATHER');
    expect(weather).to.include({ posture: 'ELEVATED', score: RAIL_NO_EVIDENCE_SCORE, counted: false });
    expect(scan.not_clear).to.not.include('WEATHER');
    const counted = scan.rails.filter((r) => r.counted);
    expect(counted.map((r) => r.name)).to.deep.equal([
      'SYSTEM_RISK',
      'SCHEDULE',
      'INSURANCE',
      'COUNTERPARTY',
    ]);
    expect(scan.composite_score).to.equal(compositeScore(counted.map((r) => r.score)));
  });

  it('given the same project org-wide (no profile applies), then every rail without evidence counts', () => {
    const scan = scanAll(facts({ draws: [draw('DRW-1', 40)] }), NOW);
    expect(scan.rails.every((r) => r.counted)).to.equal(true);
    expect(scan.not_clear).to.include.members(['WEATHER', 'MARKET', 'WORKFORCE']);
  });

  it('rounds the mean half up and scores no rails as 100', () => {
    expect(compositeScore([100, 50])).to.equal(75);
    expect(compositeScore([100, 99])).to.equal(100);
    expect(compositeScore([100, 98, 98])).to.equal(99);
    expect(compositeScore([])).to.equal(100);
  });

  it('stamps as_of and a provenance hash over the response without the hash', () => {
    const result = scanAllResult(troubled(), NOW);
    const { provenance_hash, ...payload } = result;
    expect(result.as_of).to.equal(NOW.toISOString());
    expect(provenance_hash).to.equal(sha256Hex(canonicalJson(payload)));
    expect(scanAllResult(troubled(), NOW).provenance_hash).to.equal(provenance_hash);
  });
});
