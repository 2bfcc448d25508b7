import { expect } from 'chai';
import { RAIL_NO_EVIDENCE_SCORE } from '../../../src/rails/findings.js';
import { RAIL_NAMES, RAIL_PATHS, RAILS, railByName, railByPath } from '../../../src/rails/index.js';
import { facts, NOW } from './builders.js';

describe('rail registry (SPEC §7)', () => {
  it('lists all eleven rails in SPEC order with their DOMAIN §8 paths', () => {
    expect(RAILS.map((r) => r.name)).to.deep.equal([...RAIL_NAMES]);
    expect(RAILS.map((r) => r.path)).to.deep.equal([
      '/api/system-risk',
      '/api/workforce-rail',
      '/api/schedule-rail',
      '/api/safety-governance',
      '/api/insurance-rail',
      '/api/environmental-rail',
      '/api/procurement-rail',
      '/api/equipment-rail',
      '/api/weather-rail',
      '/api/counterparty-rail',
      '/api/market-rail',
    ]);
    for (const rail of RAILS) expect(rail.path).to.equal(RAIL_PATHS[rail.name]);
  });

  it('finds a rail by its path and by its name, and nothing for an unknown path', () => {
    expect(railByPath('/api/schedule-rail')?.name).to.equal('SCHEDULE');
    expect(railByPath('/api/safety-governance')?.name).to.equal('SAFETY');
    expect(railByPath('/api/governance-rails')).to.equal(undefined);
    expect(railByName('MARKET').path).to.equal('/api/market-rail');
  });

  it('given an org with no facts at all, when every rail evaluates, then each is ELEVATED at the no-evidence score with INSUFFICIENT_DATA naming what it misses', () => {
    const empty = facts({ projects: [] });
    for (const rail of RAILS) {
      const result = rail.evaluate(empty, NOW);
      expect([result.posture, result.score], rail.name).to.deep.equal(['ELEVATED', RAIL_NO_EVIDENCE_SCORE]);
      expect(
        result.findings.map((f) => [f.code, f.severity]),
        rail.name,
      ).to.deep.equal([['INSUFFICIENT_DATA', 'WARNING']]);
      expect(result.coverage.facts_present, rail.name).to.deep.equal([]);
      expect(result.coverage.facts_missing, rail.name).to.not.be.empty;
      for (const missing of result.coverage.facts_missing)
        expect(result.findings[0]?.detail, rail.name).to.contain(missing);
    }
  });
});
