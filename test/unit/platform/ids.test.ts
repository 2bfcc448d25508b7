import { expect } from 'chai';
import { derivedEventId, idFromUuid, newEventId } from '../../../src/platform/ids.js';

describe('ids', () => {
  it('mints UUIDv7 event ids: well-formed, unique and increasing within this process', () => {
    const ids = Array.from({ length: 20_000 }, () => newEventId());
    for (const id of ids.slice(0, 50))
      expect(id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).to.equal(ids.length);
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).to.equal(true);
    const stamp = parseInt(ids[0]!.replace(/-/g, '').slice(0, 12), 16);
    expect(Math.abs(stamp - Date.now())).to.be.below(60_000);
  });

  it('derives the same v5 id from the same name, and resource ids from both kinds', () => {
    expect(derivedEventId('idem:abc')).to.equal(derivedEventId('idem:abc'));
    expect(derivedEventId('idem:abc')).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-5/);
    expect(idFromUuid('ent_', newEventId())).to.match(/^ent_[a-z2-7]{16}$/);
  });
});
