import { expect } from 'chai';
import { credit } from '../../../projections/credit.js';
import {
  decideBehavior,
  planBehavior,
  registryVerified,
  scoreEntity,
  scoreHistory,
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
    expect(state.entities[GC]!.inquiries).to.deep.equal([
      {
        seq: 4,
        org_id: 'org_lender_b',
        as_of: '2026-05-20T09:00:00.000Z',
        composite_score: now + 10,
        grade: 'A',
        provenance_hash: 'c'.repeat(64),
      },
    ]);
    expect(scoreHistory(state.entities[GC])).to.deep.equal([{ on: '2026-05-20', composite_score: now + 10 }]);
    expect(decideBehavior(state, w.facts(), NOW).map((e) => [e.data.to, e.data.cause.code])).to.deep.equal([
      ['WATCH', 'COMPOSITE_DROP'],
    ]);
  });

  it('records registry verifications and round-trips through a JSON snapshot', () => {
    const events = sealAll([registryVerified(GC, cleanRegistry({ registration: 'inactive' }))], undefined);
    const state = fold(events);
    expect(state.entities[GC]!.verifications[0]).to.deep.include({
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
    expect(state).to.deep.equal({ entities: {} });
  });
});
