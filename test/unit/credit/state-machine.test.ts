import { expect } from 'chai';
import {
  assessBehavior,
  behaviorFacts,
  evaluateBehavior,
  recordedTransition,
  type BehaviorRecord,
  type BehaviorTransition,
  type BehavioralState,
  type ScorePoint,
} from '../../../src/credit/index.js';
import type { InsuranceCertificate, OshaCitation } from '../../../src/projects/facts.js';
import { GC, NOW, TODAY, World } from './fixtures.js';

function stored(
  state: BehavioralState,
  since: string,
  transitions: BehaviorTransition[] = [],
): BehaviorRecord {
  return { state, since, previous_state: null, transitions: transitions.map(recordedTransition) };
}

function assess(w: World, record: BehaviorRecord | null, scores: ScorePoint[] = [], now = NOW) {
  return assessBehavior(record, behaviorFacts(w.facts(), scores, now));
}

/** [to, cause, effective_on] of each transition, for compact expectations. */
function steps(result: { transitions: BehaviorTransition[] }): [string, string, string][] {
  return result.transitions.map((t) => [t.to, t.cause.code, t.effective_on]);
}

describe('behavioral state machine (DOMAIN §5)', () => {
  describe('PROVISIONAL → GOOD_STANDING after 3 funded draws with no BLOCKING finding', () => {
    function funded(count: number): World {
      const w = new World();
      const p = w.project('prj_a');
      ['2026-03-01', '2026-03-15', '2026-04-01'].slice(0, count).forEach((on, i) =>
        w.draw(p, {
          id: `DRW-${i + 1}`,
          application_no: i + 1,
          period_to: on,
          completed: { 1: 10_000_00 },
          funded_on: on,
        }),
      );
      return w;
    }

    it('fires on the third funded draw, effective its funding day', () => {
      const result = assess(funded(3), null);
      expect(result.record.state).to.equal('GOOD_STANDING');
      expect(steps(result)).to.deep.equal([['GOOD_STANDING', 'CLEAN_FUNDED_DRAWS', '2026-04-01']]);
      expect(result.transitions[0]!.from).to.equal('PROVISIONAL');
    });

    it('does not fire after two', () => {
      expect(assess(funded(2), null).transitions).to.deep.equal([]);
    });

    it('does not count a draw with a BLOCKING finding', () => {
      const w = funded(3);
      w.finding({
        id: 'FND-1',
        draw_id: 'DRW-1',
        severity: 'BLOCKING',
        opened_on: '2026-03-02',
        resolved_on: '2026-03-03',
      });
      expect(behaviorFacts(w.facts(), [], NOW).clean_funded_draws.map((d) => d.draw_id)).to.deep.equal([
        'DRW-2',
        'DRW-3',
      ]);
    });
  });

  describe('any → WATCH', () => {
    it('fires on a WARNING open more than 14 days, effective day 15', () => {
      const w = new World();
      w.finding({ id: 'FND-1', severity: 'WARNING', opened_on: '2026-05-17' });
      expect(steps(assess(w, stored('GOOD_STANDING', '2026-01-01')))).to.deep.equal([
        ['WATCH', 'WARNING_OPEN', TODAY],
      ]);
    });

    it('does not fire on a WARNING open exactly 14 days', () => {
      const w = new World();
      w.finding({ id: 'FND-1', severity: 'WARNING', opened_on: '2026-05-18' });
      expect(assess(w, stored('GOOD_STANDING', '2026-01-01')).transitions).to.deep.equal([]);
    });

    it('fires on a composite drop of 10 within 30 days', () => {
      const scores = [
        { on: '2026-05-10', composite_score: 85 },
        { on: TODAY, composite_score: 75 },
      ];
      expect(steps(assess(new World(), stored('GOOD_STANDING', '2026-01-01'), scores))).to.deep.equal([
        ['WATCH', 'COMPOSITE_DROP', TODAY],
      ]);
    });

    it('fires on a drop of exactly 10 points as printed, whatever binary floating point makes of it', () => {
      // 70.1 − 60.1 = 9.999999999999993 in doubles; the report says 70.1 then 60.1: a drop of 10.
      const scores = [
        { on: '2026-05-10', composite_score: 70.1 },
        { on: TODAY, composite_score: 60.1 },
      ];
      expect(steps(assess(new World(), stored('GOOD_STANDING', '2026-01-01'), scores))).to.deep.equal([
        ['WATCH', 'COMPOSITE_DROP', TODAY],
      ]);
    });

    it('does not fire on a drop of 9.9, nor on a drop of 10 from 31 days back', () => {
      const near = [
        { on: '2026-05-10', composite_score: 85 },
        { on: TODAY, composite_score: 75.1 },
      ];
      const old = [
        { on: '2026-05-01', composite_score: 85 },
        { on: TODAY, composite_score: 75 },
      ];
      expect(assess(new World(), stored('GOOD_STANDING', '2026-01-01'), near).transitions).to.deep.equal([]);
      expect(assess(new World(), stored('GOOD_STANDING', '2026-01-01'), old).transitions).to.deep.equal([]);
    });

    it('never lifts a worse state to WATCH', () => {
      const w = new World();
      w.finding({ id: 'FND-1', severity: 'WARNING', opened_on: '2026-05-01' });
      w.finding({ id: 'FND-0', severity: 'WARNING', opened_on: '2026-04-01', resolved_on: '2026-04-02' });
      expect(assess(w, stored('RESTRICTED', '2026-04-01')).transitions).to.deep.equal([]);
    });
  });

  describe('any → PROBATION', () => {
    it('fires on a BLOCKING finding, effective the day it opened', () => {
      const w = new World();
      w.finding({ id: 'FND-1', severity: 'BLOCKING', opened_on: '2026-05-20' });
      expect(steps(assess(w, stored('GOOD_STANDING', '2026-01-01')))).to.deep.equal([
        ['PROBATION', 'BLOCKING_FINDING', '2026-05-20'],
      ]);
    });

    it('does not fire on a WARNING', () => {
      const w = new World();
      w.finding({ id: 'FND-1', severity: 'WARNING', opened_on: '2026-05-20' });
      expect(assess(w, stored('GOOD_STANDING', '2026-01-01')).transitions).to.deep.equal([]);
    });

    function insured(expires: string): World {
      const w = new World();
      const p = w.project('prj_a', { required_coverages: [{ type: 'GL', min_limit: 1_000_000_00 }] });
      w.document<InsuranceCertificate>({
        id: 'COI-1',
        project_id: p.id,
        type: 'INSURANCE_CERTIFICATE',
        insured: GC,
        coverage_type: 'GL',
        limit: 1_000_000_00,
        effective_on: '2025-01-01',
        expires_on: expires,
        additional_insured: true,
      });
      return w;
    }

    it('fires on an insurance lapse, effective the first uncovered day', () => {
      expect(steps(assess(insured('2026-04-30'), stored('GOOD_STANDING', '2026-01-01')))).to.deep.equal([
        ['PROBATION', 'INSURANCE_LAPSE', '2026-05-01'],
      ]);
    });

    it('does not fire while coverage is continuous', () => {
      expect(assess(insured('2026-12-31'), stored('GOOD_STANDING', '2026-01-01')).transitions).to.deep.equal(
        [],
      );
    });

    function cited(type: OshaCitation['type']): World {
      const w = new World();
      const p = w.project('prj_a');
      w.observe<OshaCitation>({
        id: 'OBS-1',
        kind: 'osha_citation',
        project_id: p.id,
        entity_id: GC,
        observed_on: '2026-05-20',
        activity_nr: '77',
        type,
        penalty: 0,
        abate_by: '2026-07-01',
        abated_on: null,
      });
      return w;
    }

    for (const type of ['S', 'W'] as const) {
      it(`fires on a ${type === 'S' ? 'serious' : 'willful'} citation`, () => {
        expect(steps(assess(cited(type), stored('GOOD_STANDING', '2026-01-01')))).to.deep.equal([
          ['PROBATION', 'SERIOUS_CITATION', '2026-05-20'],
        ]);
      });
    }

    for (const type of ['R', 'O'] as const) {
      it(`does not fire on a ${type === 'R' ? 'repeat' : 'other-than-serious'} citation`, () => {
        expect(assess(cited(type), stored('GOOD_STANDING', '2026-01-01')).transitions).to.deep.equal([]);
      });
    }
  });

  describe('PROBATION → RESTRICTED', () => {
    function probation(secondOn: string): World {
      const w = new World();
      w.finding({ id: 'FND-A', severity: 'BLOCKING', opened_on: '2026-03-01', resolved_on: '2026-03-05' });
      // A cured WARNING keeps the quiet period from lifting the probation before the second BLOCKING.
      w.finding({ id: 'FND-W', severity: 'WARNING', opened_on: '2026-04-15', resolved_on: '2026-04-20' });
      w.finding({ id: 'FND-B', severity: 'BLOCKING', opened_on: secondOn });
      return w;
    }
    const cause: BehaviorTransition = {
      from: 'GOOD_STANDING',
      to: 'PROBATION',
      cause: { code: 'BLOCKING_FINDING', detail: 'A', evidence: [{ kind: 'finding', id: 'FND-A' }] },
      effective_on: '2026-03-01',
    };

    it('fires on a second BLOCKING finding 90 days after the first', () => {
      const result = assess(probation('2026-05-30'), stored('PROBATION', '2026-03-01', [cause]));
      expect(steps(result)).to.deep.equal([['RESTRICTED', 'SECOND_BLOCKING_FINDING', '2026-05-30']]);
      expect(result.transitions[0]!.cause.evidence).to.deep.equal([
        { kind: 'finding', id: 'FND-B' },
        { kind: 'finding', id: 'FND-A' },
      ]);
    });

    it('does not fire on one 91 days after', () => {
      expect(
        assess(probation('2026-05-31'), stored('PROBATION', '2026-03-01', [cause])).transitions,
      ).to.deep.equal([]);
    });

    it('fires on a second BLOCKING the same day as the one that caused the probation, which itself counts once', () => {
      const w = new World();
      w.finding({ id: 'FND-A', severity: 'BLOCKING', opened_on: '2026-05-25' });
      expect(
        steps(assess(w, stored('PROBATION', '2026-05-25', [{ ...cause, effective_on: '2026-05-25' }]))),
      ).to.deep.equal([]);
      w.finding({ id: 'FND-B', severity: 'BLOCKING', opened_on: '2026-05-25' });
      expect(
        steps(assess(w, stored('PROBATION', '2026-05-25', [{ ...cause, effective_on: '2026-05-25' }]))),
      ).to.deep.equal([['RESTRICTED', 'SECOND_BLOCKING_FINDING', '2026-05-25']]);
    });

    it('fires when remediation is NON_RESPONSIVE 30 days into the probation', () => {
      const w = new World();
      w.finding({ id: 'FND-A', severity: 'BLOCKING', opened_on: '2026-04-01' });
      expect(
        steps(assess(w, stored('PROBATION', '2026-04-01', [{ ...cause, effective_on: '2026-04-01' }]))),
      ).to.deep.equal([['RESTRICTED', 'REMEDIATION_NON_RESPONSIVE', '2026-05-01']]);
    });

    it('does not judge remediation before day 30, nor when it is merely PARTIAL', () => {
      const open = new World();
      open.finding({ id: 'FND-A', severity: 'BLOCKING', opened_on: '2026-04-01' });
      const record = stored('PROBATION', '2026-04-01', [{ ...cause, effective_on: '2026-04-01' }]);
      expect(assess(open, record, [], new Date('2026-04-30T12:00:00Z')).transitions).to.deep.equal([]);
      const slow = new World();
      slow.finding({ id: 'FND-A', severity: 'BLOCKING', opened_on: '2026-04-01', resolved_on: '2026-04-20' });
      expect(assess(slow, record).transitions).to.deep.equal([]);
    });
  });

  describe('any → SUSPENDED and back', () => {
    it('suspends on an active exclusion, effective its active date', () => {
      const w = new World();
      w.registry = { ...w.registry, exclusions: 'excluded', exclusion_active_since: '2026-03-01' };
      expect(steps(assess(w, stored('GOOD_STANDING', '2026-01-01')))).to.deep.equal([
        ['SUSPENDED', 'REGISTRY_EXCLUSION', '2026-03-01'],
      ]);
      expect(steps(assess(w, stored('RESTRICTED', '2026-04-01')))).to.deep.equal([
        ['SUSPENDED', 'REGISTRY_EXCLUSION', '2026-04-01'],
      ]);
    });

    it('does not suspend a clear entity', () => {
      expect(assess(new World(), stored('GOOD_STANDING', '2026-01-01')).transitions).to.deep.equal([]);
    });

    it('moves SUSPENDED → PROBATION when the exclusion terminates', () => {
      const w = new World();
      w.registry = { ...w.registry, exclusion_terminated_on: '2026-05-15' };
      expect(steps(assess(w, stored('SUSPENDED', '2026-03-01')))).to.deep.equal([
        ['PROBATION', 'EXCLUSION_TERMINATED', '2026-05-15'],
      ]);
    });

    it('keeps SUSPENDED while the exclusion is active, whatever else happens', () => {
      const w = new World();
      w.registry = { ...w.registry, exclusions: 'excluded', exclusion_active_since: '2026-03-01' };
      w.finding({ id: 'FND-1', severity: 'BLOCKING', opened_on: '2026-04-01' });
      expect(assess(w, stored('SUSPENDED', '2026-03-01')).transitions).to.deep.equal([]);
    });
  });

  describe('one step back up after 90 days without new findings', () => {
    const ladder: [BehavioralState, BehavioralState][] = [
      ['RESTRICTED', 'PROBATION'],
      ['PROBATION', 'WATCH'],
      ['WATCH', 'GOOD_STANDING'],
    ];
    for (const [from, to] of ladder) {
      it(`${from} → ${to} on day 90`, () => {
        expect(steps(assess(new World(), stored(from, '2026-03-03')))).to.deep.equal([
          [to, 'QUIET_PERIOD', TODAY],
        ]);
      });

      it(`${from} holds on day 89`, () => {
        expect(assess(new World(), stored(from, '2026-03-04')).transitions).to.deep.equal([]);
      });
    }

    it('restarts the 90 days at each new finding', () => {
      const w = new World();
      w.finding({ id: 'FND-1', severity: 'WARNING', opened_on: '2026-04-01', resolved_on: '2026-04-02' });
      expect(assess(w, stored('RESTRICTED', '2026-03-01')).transitions).to.deep.equal([]);
    });

    it('does not lift SUSPENDED (while excluded) or PROVISIONAL', () => {
      const excluded = new World();
      excluded.registry = {
        ...excluded.registry,
        exclusions: 'excluded',
        exclusion_active_since: '2025-01-01',
      };
      expect(assess(excluded, stored('SUSPENDED', '2025-01-01')).transitions).to.deep.equal([]);
      expect(assess(new World(), stored('PROVISIONAL', '2025-01-01')).transitions).to.deep.equal([]);
    });
  });

  it('walks a late assessment through history in order, one step at a time', () => {
    const w = new World();
    w.project('prj_a');
    w.finding({ id: 'FND-1', severity: 'BLOCKING', opened_on: '2025-09-01', resolved_on: '2025-09-05' });
    const facts = behaviorFacts(w.facts(), [], NOW);
    const first = evaluateBehavior(stored('PROVISIONAL', facts.first_seen), facts);
    expect(first).to.include({ from: 'PROVISIONAL', to: 'PROBATION', effective_on: '2025-09-01' });
    expect(steps(assessBehavior(null, facts))).to.deep.equal([
      ['PROBATION', 'BLOCKING_FINDING', '2025-09-01'],
      ['WATCH', 'QUIET_PERIOD', '2025-11-30'],
      ['GOOD_STANDING', 'QUIET_PERIOD', '2026-02-28'],
    ]);
  });

  it('puts a new entity in PROVISIONAL since it was first seen', () => {
    const w = new World();
    w.project('prj_a', { start_date: '2025-06-01', registered_at: '2025-05-20T00:00:00.000Z' });
    const result = assess(w, null);
    expect(result.record).to.deep.equal({
      state: 'PROVISIONAL',
      since: '2025-05-20',
      previous_state: null,
      transitions: [],
    });
  });
});
