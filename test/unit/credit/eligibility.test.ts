import { expect } from 'chai';
import {
  BEHAVIORAL_STATES,
  GRADE_FLOORS,
  assessedEligibility,
  creditImprovement,
  eligibilityOf,
  gatherSignals,
  initCreditState,
  newDropWatch,
  pralFor,
  railsFor,
  scoreEntity,
  scoreSignals,
  type Pral,
} from '../../../src/credit/index.js';
import type { OshaCitation } from '../../../src/projects/facts.js';
import { GC, NOW, TODAY, World, fundedWithWaivers } from './fixtures.js';

/** DOMAIN §6 written out independently of the implementation: row index = how restrictive. */
const LEVEL: Pral[] = ['RELEASE', 'RELEASE_WITH_CONDITIONS', 'HOLD', 'DENY'];
const GRADE_ROW = { A: 0, B: 0, C: 1, D: 2, F: 3 } as const;
const STATE_ROW = {
  PROVISIONAL: 0,
  GOOD_STANDING: 0,
  WATCH: 1,
  PROBATION: 2,
  RESTRICTED: 3,
  SUSPENDED: 3,
} as const;

describe('eligibility (DOMAIN §6)', () => {
  describe('PRAL: the worse of grade and state wins', () => {
    for (const { grade } of GRADE_FLOORS) {
      for (const state of BEHAVIORAL_STATES) {
        const expected = LEVEL[Math.max(GRADE_ROW[grade], STATE_ROW[state])]!;
        it(`grade ${grade} + ${state} → ${expected}`, () => {
          expect(pralFor(grade, state, false).pral).to.equal(expected);
        });
      }
    }

    it('denies an excluded entity whatever its grade and state', () => {
      const { pral, rationale } = pralFor('A', 'GOOD_STANDING', true);
      expect(pral).to.equal('DENY');
      expect(rationale).to.include('active federal registry exclusion → DENY');
    });

    it('explains both columns', () => {
      expect(pralFor('A', 'WATCH', false).rationale).to.deep.equal([
        'grade A → RELEASE',
        'behavioral state WATCH → RELEASE_WITH_CONDITIONS',
        'the worse applies: RELEASE_WITH_CONDITIONS',
      ]);
    });
  });

  describe('payment rails', () => {
    it('RELEASE allows ACH, Wire, RTP, and SWIFT only where a profile offers it', () => {
      expect(railsFor('RELEASE', ['construction'])).to.deep.equal(['ACH', 'Wire', 'RTP']);
      expect(railsFor('RELEASE', ['construction', 'treasury'])).to.deep.equal([
        'ACH',
        'Wire',
        'RTP',
        'SWIFT',
      ]);
    });

    it('RELEASE_WITH_CONDITIONS allows ACH and Wire, HOLD escrow only, DENY nothing', () => {
      expect(railsFor('RELEASE_WITH_CONDITIONS', ['treasury'])).to.deep.equal(['ACH', 'Wire']);
      expect(railsFor('HOLD', ['treasury'])).to.deep.equal(['ESCROW']);
      expect(railsFor('DENY', ['treasury'])).to.deep.equal([]);
    });
  });

  /**
   * A GC with one waiver 60 days late of three (funded 2026-03-02, signed 2026-05-01), draws on
   * pace, and three other-than-serious citations today.
   */
  function world(lateFunding = '2026-03-02'): World {
    const w = new World();
    const p = w.project('prj_a');
    fundedWithWaivers(
      w,
      p,
      [lateFunding, '2026-04-26', '2026-04-26'],
      '2026-05-01',
      500_000_00,
      '2026-02-20',
    );
    for (const n of [1, 2, 3]) {
      w.observe<OshaCitation>({
        id: `OBS-${n}`,
        kind: 'osha_citation',
        project_id: p.id,
        entity_id: GC,
        observed_on: TODAY,
        activity_nr: `${n}`,
        type: 'O',
        penalty: 0,
        abate_by: '2026-07-01',
        abated_on: null,
      });
    }
    return w;
  }

  describe('marketplace access and the full result', () => {
    it('gives an A in GOOD_STANDING the PREFERRED tier with every program', () => {
      const w = world('2026-04-26');
      const result = eligibilityOf(w.facts(), 'GOOD_STANDING', NOW);
      expect(scoreEntity(w.facts(), NOW).grade).to.equal('A');
      expect(result.payment_recommendation.pral).to.equal('RELEASE');
      expect(result.eligible_payment_rails).to.deep.equal(['ACH', 'Wire', 'RTP']);
      expect(result.marketplace_access).to.deep.equal({
        tier: 'PREFERRED',
        programs: ['early_payment', 'supply_chain_finance', 'retainage_advance'],
      });
    });

    it('assesses the state first: a stored GOOD_STANDING with a new BLOCKING finding is on HOLD', () => {
      const w = world('2026-04-26');
      w.finding({ id: 'FND-1', severity: 'BLOCKING', opened_on: '2026-05-25' });
      const state = initCreditState();
      state.entities[GC] = {
        behavior: {
          state: 'GOOD_STANDING',
          since: '2026-01-01',
          previous_state: 'PROVISIONAL',
          transitions: [],
        },
        inquiry_count: 0,
        recent_scores: [],
        verification_count: 0,
        drops: newDropWatch(),
      };
      expect(eligibilityOf(w.facts(), 'GOOD_STANDING', NOW).payment_recommendation.pral).to.equal('RELEASE');
      expect(assessedEligibility(state, w.facts(), NOW).payment_recommendation).to.deep.equal({
        pral: 'HOLD',
        rationale: ['grade B → RELEASE', 'behavioral state PROBATION → HOLD', 'the worse applies: HOLD'],
      });
    });

    it('gives PROBATION the RESTRICTED tier, escrow only, no program', () => {
      const result = eligibilityOf(world().facts(), 'PROBATION', NOW);
      expect(result.payment_recommendation.pral).to.equal('HOLD');
      expect(result.eligible_payment_rails).to.deep.equal(['ESCROW']);
      expect(result.marketplace_access).to.deep.equal({ tier: 'RESTRICTED', programs: [] });
    });
  });

  describe('credit improvement', () => {
    it('names, for the two weakest dimensions, the costliest factor and its action', () => {
      const items = creditImprovement(gatherSignals(world().facts(), NOW));
      expect(items.map((i) => [i.dimension, i.factor])).to.deep.equal([
        ['payment_integrity', 'PI01'],
        ['safety_record', 'SR01'],
      ]);
      expect(items[0]!.action).to.equal(
        'Deliver each unconditional lien waiver within 15 days of the draw being funded',
      );
    });

    it('states a gain equal to the composite of the same facts with the factor removed', () => {
      const late = world();
      const [pi] = creditImprovement(gatherSignals(late.facts(), NOW));
      const cured = world('2026-04-26');
      const recomputed =
        scoreEntity(cured.facts(), NOW).composite_score - scoreEntity(late.facts(), NOW).composite_score;
      expect(pi!.expected_gain).to.be.greaterThan(0);
      expect(pi!.expected_gain).to.equal(Math.round(recomputed * 10) / 10);
    });

    it('re-scores rather than guessing: the gain equals the score of the cleaned signals', () => {
      const signals = gatherSignals(world().facts(), NOW);
      const base = scoreSignals(signals).composite_score;
      for (const item of creditImprovement(signals)) {
        const cleaned = signals.map((s) => (s.code === item.factor ? { ...s, value: 0 } : s));
        expect(item.expected_gain).to.equal(
          Math.round((scoreSignals(cleaned).composite_score - base) * 10) / 10,
        );
      }
    });

    it('lifts the exclusion cap when the factor removed is the exclusion', () => {
      const w = world('2026-04-26');
      w.registry = { ...w.registry, exclusions: 'excluded', exclusion_active_since: '2026-02-01' };
      const signals = gatherSignals(w.facts(), NOW);
      const items = creditImprovement(signals);
      const cs = items.find((i) => i.factor === 'CS02');
      expect(scoreSignals(signals).composite_score).to.equal(49);
      expect(cs?.expected_gain).to.be.greaterThan(30);
    });
  });
});
