import { expect } from 'chai';
import { allProjections } from '../../../projections/index.js';
import { CREDIT_EVENT_TYPES } from '../../../src/credit/index.js';
import { seal, GENESIS_HASH } from '../../../src/platform/ledger/index.js';
import { TEST_META, testId } from '../../support/events.js';

/**
 * The facts memo (src/lender-api/facts-memo.ts) keeps what it derived across the credit
 * capability's own events on the ground that no read model the facts come from folds them.
 * This holds that ground: every projection but `credit` (and the hash index) leaves them alone.
 */
describe('credit events leave the facts read models alone', () => {
  const FACTS_READERS_EXEMPT = new Set(['credit', 'ledger-index']);

  it('folds BehavioralStateChanged, CreditReportIssued and RegistryVerified into no other projection', () => {
    let prev = { seq: 0, hash: GENESIS_HASH };
    const events = CREDIT_EVENT_TYPES.map((type, i) => {
      const { event } = seal(
        {
          id: testId(i + 1),
          stream: 'entity-ent_test',
          type,
          schema: 1,
          data: {
            entity_id: 'ent_test',
            as_of: '2026-06-01T00:00:00.000Z',
            composite_score: 50,
            artifacts: [],
          },
          meta: TEST_META,
          recorded_at: '2026-06-01T00:00:00.000Z',
        },
        prev,
      );
      prev = { seq: event.seq, hash: event.hash };
      return event;
    });
    const checked: string[] = [];
    for (const projection of allProjections()) {
      if (FACTS_READERS_EXEMPT.has(projection.name)) continue;
      const before = JSON.stringify(projection.init());
      let state = projection.init() as never;
      for (const event of events) state = projection.evolve(state, event) as never;
      expect(JSON.stringify(state), projection.name).to.equal(before);
      checked.push(projection.name);
    }
    expect(checked).to.include.members(['registry', 'projects', 'observations', 'governance']);
  });
});
