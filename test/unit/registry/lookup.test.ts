import { expect } from 'chai';
import {
  decideRegisterEntity,
  lookupEntity,
  MAX_CANDIDATES,
  RegisterEntityBody,
  type RegistryState,
} from '../../../src/registry/index.js';
import type { EventInput } from '../../../src/platform/ledger/index.js';
import { testId } from '../../support/events.js';
import { foldRegistry, sealAll } from './support.js';

/** Registers each body in order (event ids from family 4) and returns the state and the ids. */
function registry(bodies: unknown[]): { state: RegistryState; ids: string[] } {
  const inputs: EventInput[] = [];
  const ids: string[] = [];
  bodies.forEach((body, i) => {
    const command = {
      body: RegisterEntityBody.parse(body),
      org_id: 'org_lender1',
      event_id: testId(i + 1, 4),
    };
    const decision = decideRegisterEntity(foldRegistry(sealAll(inputs)), command);
    if (!decision.ok) throw new Error(decision.rejection.detail);
    inputs.push(...decision.events);
    ids.push(decision.entity_id);
  });
  return { state: foldRegistry(sealAll(inputs)), ids };
}

const role = ['general_contractor'];

describe('entity lookup (SPEC §4)', () => {
  const { state, ids } = registry([
    { legal_name: 'Acme Builders, Inc.', aliases: ['Roadrunner Paving'], ein: '12-3456789', roles: role },
    { legal_name: 'Keystone Framing LLC', ein: '98-7654321', roles: role },
    { legal_name: 'Summit Electric Co.', roles: role },
    { legal_name: 'SUMMIT ELECTRIC CORPORATION', roles: role },
  ]);
  const [acme, keystone, summitCo, summitCorp] = ids as [string, string, string, string];

  it('finds an entity by its ent_ id', () => {
    const found = lookupEntity(state, keystone);
    expect(found.kind === 'found' && found.entity.legal_name).to.equal('Keystone Framing LLC');
  });

  it('finds an entity by EIN written either way', () => {
    for (const ref of ['12-3456789', '123456789']) {
      const found = lookupEntity(state, ref);
      expect(found.kind === 'found' && found.entity.entity_id, ref).to.equal(acme);
    }
  });

  it('finds an entity by legal name or alias after normalization', () => {
    for (const ref of [
      'acme builders',
      'ACME BUILDERS LLC',
      ' Acme  Builders, Corp. ',
      'roadrunner paving inc',
      'Acme-Builders',
      'A c m e Builders',
      '\u0410cme Build\u200bers',
    ]) {
      const found = lookupEntity(state, ref);
      expect(found.kind === 'found' && found.entity.entity_id, ref).to.equal(acme);
    }
  });

  it('answers ambiguous, with every candidate, when names normalize alike', () => {
    const answer = lookupEntity(state, 'Summit Electric');
    expect(answer.kind).to.equal('ambiguous');
    expect(answer.kind === 'ambiguous' && answer.candidates.map((c) => c.entity_id).sort()).to.deep.equal(
      [summitCo, summitCorp].sort(),
    );
  });

  it('answers not found with the most similar names first', () => {
    const answer = lookupEntity(state, 'Acme Bulders');
    expect(answer.kind).to.equal('not_found');
    expect(answer.kind === 'not_found' && answer.candidates[0]).to.deep.equal({
      entity: 'Acme Builders, Inc.',
      entity_id: acme,
      ein: '12-3456789',
      uei: null,
      cage: null,
    });
  });

  it('lists at most 5 candidates, and none when nothing is similar', () => {
    const many = registry(
      Array.from({ length: 8 }, (_, i) => ({ legal_name: `Granite Works ${i}`, roles: role })),
    );
    const answer = lookupEntity(many.state, 'Granite Works');
    expect(answer.kind === 'not_found' && answer.candidates).to.have.length(MAX_CANDIDATES);
    const nothing = lookupEntity(state, 'Zzyzx Qwv');
    expect(nothing).to.deep.equal({ kind: 'not_found', candidates: [] });
  });

  it('answers not found without candidates for an unknown id or EIN', () => {
    expect(lookupEntity(state, 'ent_aaaaaaaaaaaaaaaa')).to.deep.equal({ kind: 'not_found', candidates: [] });
    expect(lookupEntity(state, '11-1111111')).to.deep.equal({ kind: 'not_found', candidates: [] });
  });

  it('does not resolve a name that happens to be an Object.prototype key', () => {
    const answer = lookupEntity(state, 'Constructor Inc');
    expect(answer.kind).to.equal('not_found');
  });
});
