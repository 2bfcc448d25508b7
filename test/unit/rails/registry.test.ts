import { expect } from 'chai';
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

  it('given an org with no facts at all, when every rail evaluates, then each is NOMINAL at 100', () => {
    const empty = facts({ projects: [] });
    for (const rail of RAILS) {
      expect(rail.evaluate(empty, NOW), rail.name).to.deep.equal({
        posture: 'NOMINAL',
        score: 100,
        findings: [],
      });
    }
  });
});
