/**
 * The kernel scan (DOMAIN §2–§3): verdicts, explicit resolutions, stable finding ids, and the scan
 * input built from the `projects` read model.
 */
import { expect } from 'chai';
import { CONTRADICTION_CODES, TEMPORAL_CODES, findingId } from '../../../src/governance/findings.js';
import { FINDING_ENGINES, scanInputFor, scanProject } from '../../../src/governance/scan.js';
import { derivedEventId, idFromUuid } from '../../../src/platform/ids.js';
import { cleanWorld, on, without, NOW, ORG, PROJECT_ID } from '../../support/governance-fixtures.js';

describe('kernel scan (DOMAIN §2–§3)', () => {
  it('has one engine per contradiction type and temporal rule', () => {
    expect(Object.keys(FINDING_ENGINES)).to.have.members([...CONTRADICTION_CODES, ...TEMPORAL_CODES]);
  });

  it('is CLEAN with no findings on the clean project', () => {
    const result = scanProject(cleanWorld().w.input(), NOW);
    expect(result).to.deep.equal({
      project_id: PROJECT_ID,
      scan_verdict: 'CLEAN',
      contradictions: [],
      temporal: [],
    });
  });

  it('is WARNING when every finding is a warning', () => {
    // the title date-down is 11 days old on 2026-04-21, and nothing else is wrong
    const result = scanProject(cleanWorld().w.input(), on('2026-04-21'));
    expect(result.scan_verdict).to.equal('WARNING');
    expect(result.temporal.map((f) => [f.code, f.severity])).to.deep.equal([['TITLE_DATE_DOWN', 'WARNING']]);
  });

  it('is BLOCKED when any finding blocks, and files findings by category', () => {
    const { w, d2 } = cleanWorld();
    d2.lines[0]!.previous -= 1;
    without(w, 'TTL-2');
    const result = scanProject(w.input(), on('2026-04-21'));
    expect(result.scan_verdict).to.equal('BLOCKED');
    expect(result.contradictions.map((f) => [f.code, f.category])).to.deep.equal([
      ['ROLL_FORWARD_MISMATCH', 'contradiction'],
    ]);
    expect(result.temporal.map((f) => [f.code, f.category])).to.deep.equal([['TITLE_DATE_DOWN', 'temporal']]);
  });

  it('leaves explicitly resolved findings out of the open set and the verdict', () => {
    const { w } = cleanWorld();
    without(w, 'TTL-2');
    const [blocking] = scanProject(w.input(), NOW).temporal;
    w.resolve(blocking!.id);
    expect(scanProject(w.input(), NOW)).to.include({ scan_verdict: 'CLEAN' });
  });

  it('names a finding the same on every re-scan that still finds it', () => {
    const { w } = cleanWorld();
    without(w, 'TTL-2');
    const first = scanProject(w.input(), NOW).temporal[0]!;
    const later = scanProject(w.input(), on('2026-04-20')).temporal[0]!;
    expect(later.id).to.equal(first.id);
    expect(later.detected_on).to.equal('2026-04-20');
    expect(first.id).to.equal(findingId(PROJECT_ID, 'TITLE_DATE_DOWN', 'DRW-2', 'currency'));
    expect(first.id).to.equal(
      idFromUuid('FND-', derivedEventId(`${PROJECT_ID}|TITLE_DATE_DOWN|DRW-2|currency`)),
    );
    expect(first.id).to.match(/^FND-[a-z2-7]{16}$/);
  });

  it('keeps the id when a finding escalates from WARNING to BLOCKING', () => {
    const { w, inspection2 } = cleanWorld();
    inspection2.lines[0]!.percent_complete = 34;
    const warning = scanProject(w.input(), NOW).contradictions[0]!;
    inspection2.lines[0]!.percent_complete = 20;
    const blocking = scanProject(w.input(), NOW).contradictions[0]!;
    expect([warning.severity, blocking.severity]).to.deep.equal(['WARNING', 'BLOCKING']);
    expect(blocking.id).to.equal(warning.id);
  });

  it('gives every finding of one scan its own id', () => {
    const { w, d2 } = cleanWorld();
    d2.lines[0]!.previous -= 1;
    d2.previous_certificates_total += 1;
    without(w, 'TTL-2');
    without(w, 'INSP-2');
    without(w, 'COI-gl');
    const result = scanProject(w.input(), NOW);
    const ids = [...result.contradictions, ...result.temporal].map((f) => f.id);
    expect(ids).to.have.length(5);
    expect(new Set(ids).size).to.equal(ids.length);
  });

  it('does not examine a rejected draw', () => {
    const { w, d2 } = cleanWorld();
    without(w, 'TTL-2');
    d2.status = 'REJECTED';
    expect(scanProject(w.input(), NOW).scan_verdict).to.equal('CLEAN');
  });

  describe('scanInputFor', () => {
    it('gathers one project from the projects read model and scans it the same way', () => {
      const { w } = cleanWorld();
      without(w, 'TTL-2');
      const input = scanInputFor(w.state(), PROJECT_ID);
      expect(input).to.not.equal(null);
      expect(input!.draws.map((d) => d.id)).to.deep.equal(['DRW-1', 'DRW-2']);
      expect(scanProject(input!, NOW)).to.deep.equal(scanProject(w.input(), NOW));
    });

    it('answers null for an unknown project', () => {
      expect(scanInputFor(cleanWorld().w.state(), 'prj_unknown')).to.equal(null);
    });

    it('ignores a resolution recorded by another org', () => {
      const { w } = cleanWorld();
      const r = w.resolve('FND-aaaaaaaaaaaaaaaa');
      const state = w.state();
      expect(Object.keys(scanInputFor(state, PROJECT_ID)!.resolutions)).to.deep.equal([r.finding_id]);
      state.resolutions[r.finding_id] = { ...r, org_id: 'org_other' };
      expect(scanInputFor(state, PROJECT_ID)!.resolutions).to.deep.equal({});
      expect(r.org_id).to.equal(ORG);
    });
  });
});
