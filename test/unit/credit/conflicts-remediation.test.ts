import { expect } from 'chai';
import { conflictsOf, remediationVelocity, type Remediation } from '../../../src/credit/index.js';
import type { FindingRecord } from '../../../src/governance/findings.js';
import { NOW, ORG, SUB, TODAY, World } from './fixtures.js';

describe('conflicts (DOMAIN §5)', () => {
  it('is CLEAR without open BLOCKING contradictions or exclusion', () => {
    const w = new World();
    w.finding({ id: 'FND-1', severity: 'WARNING', opened_on: '2026-05-01' });
    w.finding({ id: 'FND-2', severity: 'BLOCKING', opened_on: '2026-05-01', resolved_on: '2026-05-03' });
    w.finding({
      id: 'FND-3',
      severity: 'BLOCKING',
      category: 'temporal',
      code: 'TITLE_DATE_DOWN',
      opened_on: '2026-05-01',
    });
    w.finding({ id: 'FND-4', severity: 'BLOCKING', entity_id: SUB, opened_on: '2026-05-01' });
    expect(conflictsOf(w.facts(), NOW)).to.deep.equal({ active_conflicts: 0, status: 'CLEAR', items: [] });
  });

  it('lists each open BLOCKING contradiction attributed to the entity and an active exclusion', () => {
    const w = new World();
    w.finding({
      id: 'FND-1',
      code: 'ROLL_FORWARD_MISMATCH',
      severity: 'BLOCKING',
      project_id: 'prj_b',
      opened_on: '2026-05-10',
    });
    w.registry = { ...w.registry, exclusions: 'excluded', exclusion_active_since: '2026-02-01' };
    expect(conflictsOf(w.facts(), NOW)).to.deep.equal({
      active_conflicts: 2,
      status: 'CONFLICTS_PRESENT',
      items: [
        { code: 'REGISTRY_EXCLUSION', project_id: null, since: '2026-02-01' },
        { code: 'ROLL_FORWARD_MISMATCH', project_id: 'prj_b', since: '2026-05-10' },
      ],
    });
  });

  it("hides another org's project id from the viewer", () => {
    const w = new World();
    w.finding({
      id: 'FND-1',
      severity: 'BLOCKING',
      project_id: 'prj_theirs',
      org_id: 'org_other',
      opened_on: '2026-05-10',
    });
    w.finding({
      id: 'FND-2',
      severity: 'BLOCKING',
      project_id: 'prj_mine',
      org_id: ORG,
      opened_on: '2026-05-11',
    });
    expect(conflictsOf(w.facts(), NOW, ORG).items.map((i) => i.project_id)).to.deep.equal([null, 'prj_mine']);
  });
});

describe('remediation velocity (DOMAIN §5)', () => {
  /** Findings opened 2026-04-01; `cures` are days to cure (null = still open). */
  function velocity(
    cures: (number | null)[],
    severity: FindingRecord['severity'] = 'WARNING',
    openedOn = '2026-04-01',
  ): Remediation {
    const w = new World();
    cures.forEach((days, i) => {
      const opened = new Date(`${openedOn}T00:00:00Z`);
      const resolved =
        days === null ? null : new Date(opened.getTime() + days * 86_400_000).toISOString().slice(0, 10);
      w.finding({
        id: `FND-${i}`,
        severity: i === cures.length - 1 ? severity : 'WARNING',
        opened_on: openedOn,
        resolved_on: resolved,
      });
    });
    return remediationVelocity(w.findings, TODAY);
  }

  it('is NO_VIOLATIONS without findings in the last 365 days', () => {
    expect(velocity([])).to.deep.equal({
      velocity: 'NO_VIOLATIONS',
      open_findings: 0,
      resolved_findings: 0,
      median_days_to_cure: null,
    });
    expect(velocity([5], 'WARNING', '2025-06-01').velocity).to.equal('NO_VIOLATIONS');
    expect(velocity([5], 'WARNING', '2025-06-02').velocity).to.equal('RESPONSIVE');
  });

  it('is RESPONSIVE at 80 % resolved with a 14-day median and nothing BLOCKING stale', () => {
    expect(velocity([14, 14, 14, 14, null])).to.deep.equal({
      velocity: 'RESPONSIVE',
      open_findings: 1,
      resolved_findings: 4,
      median_days_to_cure: 14,
    });
  });

  it('is PARTIAL at 80 % resolved with a 15-day median', () => {
    expect(velocity([15, 15, 15, 15, null]).velocity).to.equal('PARTIAL');
  });

  it('is PARTIAL at exactly 40 % resolved', () => {
    expect(velocity([3, 3, null, null, null]).velocity).to.equal('PARTIAL');
  });

  it('is NON_RESPONSIVE below 40 % resolved', () => {
    expect(velocity([3, null, null]).velocity).to.equal('NON_RESPONSIVE');
  });

  it('is NON_RESPONSIVE with a BLOCKING finding open more than 30 days, however many are cured', () => {
    expect(velocity([1, 1, 1, 1, 1, 1, 1, 1, 1, null], 'BLOCKING', '2026-05-01').velocity).to.equal(
      'NON_RESPONSIVE',
    );
    expect(velocity([1, 1, 1, 1, 1, 1, 1, 1, 1, null], 'BLOCKING', '2026-05-02').velocity).to.equal(
      'RESPONSIVE',
    );
  });

  it('takes the median of an even count as the mean of the middle two', () => {
    expect(velocity([2, 4, 6, 9]).median_days_to_cure).to.equal(5);
  });
});
