import { expect } from 'chai';
import { credit } from '../../../projections/credit.js';
import {
  decideBehavior,
  planBehavior,
  registryVerified,
  scoreEntity,
  inquiriesOf,
  RECENT_SCORES,
  scoreHistory,
  verificationsOf,
  type CreditState,
} from '../../../src/credit/index.js';
import type { EventInput, SealedEvent } from '../../../src/platform/ledger/index.js';
import { sealGiven } from '../../support/decider.js';
import { GC, NOW, World, cleanRegistry } from './fixtures.js';

/** Seals events after `prev` as the ledger would, recorded for `org`. */
function sealAll(inputs: EventInput[], prev: SealedEvent | undefined, org = 'org_lender_a'): SealedEvent[] {
  return sealGiven(
    inputs.map((e) => ({ ...e, org_id: org })),
    prev ? { seq: prev.seq, hash: prev.hash } : undefined,
  );
}

function fold(events: readonly SealedEvent[], from: CreditState = credit.init()): CreditState {
  return events.reduce((s, e) => credit.evolve(s, e), from);
}

/** An entity whose history holds three transitions: a BLOCKING finding cured, then quiet periods. */
function history(): World {
  const w = new World();
  w.project('prj_a');
  w.finding({ id: 'FND-1', severity: 'BLOCKING', opened_on: '2025-09-01', resolved_on: '2025-09-05' });
  return w;
}

describe('credit projection and behavioral replay (ARCHITECTURE §6)', () => {
  it('replays BehavioralStateChanged events to exactly the state the decider reasoned about', () => {
    const w = history();
    const empty = credit.init();
    const planned = planBehavior(empty, w.facts(), NOW);
    const events = decideBehavior(empty, w.facts(), NOW);
    expect(events.map((e) => e.data.to)).to.deep.equal(['PROBATION', 'WATCH', 'GOOD_STANDING']);
    const state = fold(sealAll(events, undefined));
    expect(state.entities[GC]!.behavior).to.deep.equal(planned.record);
    expect(decideBehavior(state, w.facts(), NOW)).to.deep.equal([]);
  });

  it('derives event ids from the step, so racing evaluators append one event per transition', () => {
    const w = history();
    expect(decideBehavior(credit.init(), w.facts(), NOW).map((e) => e.id)).to.deep.equal(
      decideBehavior(credit.init(), w.facts(), NOW).map((e) => e.id),
    );
    const [first] = decideBehavior(credit.init(), w.facts(), NOW);
    expect(first!.stream).to.equal(`entity-${GC}`);
  });

  it('records inquiries with the inquiring org, and they feed the composite-drop rule', () => {
    const w = history();
    const now = scoreEntity(w.facts(), NOW).composite_score;
    const inquiry: EventInput = {
      stream: `entity-${GC}`,
      type: 'CreditReportIssued',
      data: {
        entity_id: GC,
        composite_score: now + 10,
        grade: 'A',
        provenance_hash: 'c'.repeat(64),
        as_of: '2026-05-20T09:00:00.000Z',
        artifacts: [{ kind: 'credit_report', hash: 'c'.repeat(64) }],
      },
    };
    const behavior = sealAll(decideBehavior(credit.init(), w.facts(), NOW), undefined);
    const state = fold([...behavior, ...sealAll([inquiry], behavior.at(-1), 'org_lender_b')]);
    expect(inquiriesOf(state, GC)).to.deep.equal([
      {
        seq: 4,
        org_id: 'org_lender_b',
        as_of: '2026-05-20T09:00:00.000Z',
        composite_score: now + 10,
        grade: 'A',
        provenance_hash: 'c'.repeat(64),
      },
    ]);
    expect(scoreHistory(state, GC)).to.deep.equal([{ on: '2026-05-20', composite_score: now + 10 }]);
    expect(decideBehavior(state, w.facts(), NOW).map((e) => [e.data.to, e.data.cause.code])).to.deep.equal([
      ['WATCH', 'COMPOSITE_DROP'],
    ]);
  });

  it('keeps each entity’s inquiries and checks apart, in ledger order, even when one id extends another', () => {
    const ids = ['ent_a', 'ent_a/b', 'ent_ab', 'ent_a/000000000009'];
    const inputs: EventInput[] = [];
    for (let round = 0; round < 3; round += 1)
      for (const id of ids) {
        inputs.push({
          stream: `entity-${id}`,
          type: 'CreditReportIssued',
          data: {
            entity_id: id,
            composite_score: round * 10,
            grade: 'B',
            provenance_hash: 'd'.repeat(64),
            as_of: `2026-05-2${round}T09:00:00.000Z`,
            artifacts: [],
          },
        });
        inputs.push(registryVerified(id, cleanRegistry()));
      }
    const state = fold(sealAll(inputs, undefined));
    ids.forEach((id, i) => {
      expect(
        inquiriesOf(state, id).map((r) => r.seq),
        id,
      ).to.deep.equal([1, 9, 17].map((s) => s + 2 * i));
      expect(
        verificationsOf(state, id).map((r) => r.seq),
        id,
      ).to.deep.equal([2, 10, 18].map((s) => s + 2 * i));
      expect(state.entities[id]).to.deep.include({ inquiry_count: 3, verification_count: 3 });
    });
    expect(inquiriesOf(state, 'ent_')).to.deep.equal([]);
    expect(scoreHistory(state, 'ent_none')).to.deep.equal([]);
  });

  it('keeps the scores of an entity’s last RECENT_SCORES reports in its record, oldest first', () => {
    const reports = (n: number): EventInput[] =>
      Array.from({ length: n }, (_, i) => ({
        stream: `entity-${GC}`,
        type: 'CreditReportIssued',
        data: {
          entity_id: GC,
          composite_score: 40 + i,
          grade: 'C',
          provenance_hash: 'e'.repeat(64),
          as_of: `2026-05-20T09:${String(i).padStart(2, '0')}:00.000Z`,
          artifacts: [],
        },
      }));
    for (const n of [1, RECENT_SCORES, RECENT_SCORES + 7]) {
      const state = fold(sealAll(reports(n), undefined));
      const fromHistory = inquiriesOf(state, GC)
        .slice(-RECENT_SCORES)
        .map((i) => i.composite_score);
      expect(state.entities[GC]!.recent_scores, `${n} reports`).to.deep.equal(fromHistory);
      expect(state.entities[GC]!.recent_scores.length).to.equal(Math.min(n, RECENT_SCORES));
    }
  });

  it('records registry verifications and round-trips through a JSON snapshot', () => {
    const events = sealAll([registryVerified(GC, cleanRegistry({ registration: 'inactive' }))], undefined);
    const state = fold(events);
    expect(verificationsOf(state, GC)[0]).to.deep.include({
      seq: 1,
      registration: 'inactive',
      exclusions: 'clear',
    });
    const w = history();
    const all = [...events, ...sealAll(decideBehavior(state, w.facts(), NOW), events[0])];
    const cut = 2;
    const resumed = fold(all.slice(cut), JSON.parse(JSON.stringify(fold(all.slice(0, cut)))) as CreditState);
    expect(resumed).to.deep.equal(fold(all));
  });

  it('ignores events of other capabilities', () => {
    const state = fold(
      sealAll(
        [{ stream: 'project-prj_a', type: 'ProjectRegistered', data: { project_id: 'prj_a' } }],
        undefined,
      ),
    );
    expect(state).to.deep.equal({ entities: {}, inquiries: {}, verifications: {} });
  });
});
