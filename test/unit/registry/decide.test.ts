import { expect } from 'chai';
import type { EventInput } from '../../../src/platform/ledger/index.js';
import {
  decideRegisterEntity,
  RegisterEntityBody,
  type RegisterEntity,
  type RegisterEntityDecision,
} from '../../../src/registry/index.js';
import { testId } from '../../support/events.js';
import { foldRegistry, sealAll } from './support.js';

function command(body: unknown, n: number): RegisterEntity {
  return { body: RegisterEntityBody.parse(body), org_id: 'org_lender1', event_id: testId(n, 3) };
}

/** given(events already decided) → when(command) → the decision. */
function given(...earlier: RegisterEntity[]) {
  const inputs: EventInput[] = [];
  for (const c of earlier) {
    const decision = decideRegisterEntity(foldRegistry(sealAll(inputs)), c);
    if (!decision.ok) throw new Error(`given: ${decision.rejection.detail}`);
    inputs.push(...decision.events);
  }
  return {
    when: (c: RegisterEntity): RegisterEntityDecision =>
      decideRegisterEntity(foldRegistry(sealAll(inputs)), c),
  };
}

const ACME = {
  legal_name: ' Acme Builders, Inc. ',
  aliases: ['ACME BUILDERS INC', 'Acme Construction'],
  ein: '123456789',
  uei: 'acmebldrs001',
  cage: '1abc2',
  roles: ['general_contractor', 'general_contractor'],
  business_types: ['2x', '27'],
  state: 'TX',
};

describe('registering an entity (RegisterEntity → EntityRegistered)', () => {
  it('records EntityRegistered on the entity stream, id derived from the event id, identifiers canonical', () => {
    const decision = given().when(command(ACME, 1));
    expect(decision.ok).to.equal(true);
    if (!decision.ok) return;
    const [event] = decision.events;
    expect(decision.entity_id).to.match(/^ent_[a-z2-7]{16}$/);
    expect(event).to.deep.equal({
      id: testId(1, 3),
      stream: `entity-${decision.entity_id}`,
      type: 'EntityRegistered',
      data: {
        entity_id: decision.entity_id,
        legal_name: 'Acme Builders, Inc.',
        aliases: ['Acme Construction'],
        ein: '12-3456789',
        uei: 'ACMEBLDRS001',
        cage: '1ABC2',
        roles: ['general_contractor'],
        business_types: ['2X', '27'],
        state: 'TX',
      },
    });
  });

  it('records absent optional identifiers as null and lists as empty', () => {
    const decision = given().when(command({ legal_name: 'Keystone Framing', roles: ['subcontractor'] }, 2));
    expect(decision.ok && decision.events[0].data).to.include({
      ein: null,
      uei: null,
      cage: null,
      state: null,
    });
    expect(decision.ok && decision.events[0].data.aliases).to.deep.equal([]);
  });

  it('rejects an EIN another entity holds with CONFLICT naming the holder', () => {
    const first = command(ACME, 1);
    const holder = decideRegisterEntity(foldRegistry([]), first);
    const decision = given(first).when(
      command({ legal_name: 'Other Co', ein: '12-3456789', roles: ['owner'] }, 2),
    );
    expect(decision.ok).to.equal(false);
    if (decision.ok || !holder.ok) return;
    expect(decision.rejection.code).to.equal('CONFLICT');
    expect(decision.rejection.conflicts).to.deep.equal([
      { field: 'ein', value: '12-3456789', entity_id: holder.entity_id },
    ]);
  });

  it('lists every duplicated identifier: UEI and CAGE too, whatever their case', () => {
    const decision = given(command(ACME, 1)).when(
      command({ legal_name: 'Clone', uei: 'ACMEBLDRS001', cage: '1ABC2', roles: ['supplier'] }, 2),
    );
    expect(decision.ok ? [] : decision.rejection.conflicts.map((c) => c.field)).to.deep.equal([
      'uei',
      'cage',
    ]);
  });

  it('lets two entities share a name: names are for lookup, identifiers for identity', () => {
    const decision = given(command(ACME, 1)).when(
      command({ legal_name: 'ACME BUILDERS LLC', roles: ['owner'] }, 2),
    );
    expect(decision.ok).to.equal(true);
  });

  it('treats a retry of the same command (same event id) as itself, not as a duplicate', () => {
    const decision = given(command(ACME, 1)).when(command(ACME, 1));
    expect(decision.ok).to.equal(true);
  });
});

describe('RegisterEntity body (SPEC §5, strict)', () => {
  const valid = { legal_name: 'Acme', roles: ['owner'] };

  it('accepts the minimal body', () => {
    expect(RegisterEntityBody.safeParse(valid).success).to.equal(true);
  });

  it('rejects unknown fields, unknown roles, no roles and malformed identifiers', () => {
    const bad: Record<string, unknown>[] = [
      { ...valid, dba: 'x' },
      { ...valid, roles: ['plumber'] },
      { ...valid, roles: [] },
      { ...valid, ein: '12-345' },
      { ...valid, uei: 'SHORT' },
      { ...valid, uei: 'ACMEBLDRSOO1' },
      { ...valid, cage: '1AB' },
      { ...valid, state: 'ZZ' },
      { ...valid, business_types: ['TOO LONG'] },
      { ...valid, legal_name: '---' },
      { roles: ['owner'] },
    ];
    for (const body of bad)
      expect(RegisterEntityBody.safeParse(body).success, JSON.stringify(body)).to.equal(false);
  });
});
