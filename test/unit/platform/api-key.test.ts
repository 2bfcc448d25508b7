import { createHash } from 'node:crypto';
import { expect } from 'chai';
import {
  API_KEY_SCOPES,
  digestsEqual,
  generateApiKey,
  isApiKeyScope,
  keyDigest,
  keyIdFor,
  keyMatchesDigest,
  parseApiKey,
  type RandomBytes,
} from '../../../src/platform/crypto/api-key.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A reproducible byte stream (SHA-256 in counter mode) so generated keys are fixed fixtures. */
function seededBytes(seed: string): RandomBytes {
  let block = 0;
  let pool = Buffer.alloc(0);
  return (size) => {
    while (pool.length < size) {
      pool = Buffer.concat([pool, createHash('sha256').update(`${seed}:${block}`).digest()]);
      block += 1;
    }
    const out = pool.subarray(0, size);
    pool = pool.subarray(size);
    return out;
  };
}

describe('API key format (SPEC §1)', () => {
  const live = generateApiKey('live', seededBytes('live-1'));
  const test = generateApiKey('test', seededBytes('test-1'));

  it('is pl_live_ or pl_test_, 30 base62 characters and a 6-character base62 checksum', () => {
    expect(live.key).to.match(/^pl_live_[0-9A-Za-z]{36}$/);
    expect(test.key).to.match(/^pl_test_[0-9A-Za-z]{36}$/);
  });

  it('round-trips: a generated key parses as ok with its mode', () => {
    expect(parseApiKey(live.key)).to.deep.equal({ status: 'ok', key: live.key, mode: 'live' });
    expect(parseApiKey(test.key)).to.deep.equal({ status: 'ok', key: test.key, mode: 'test' });
  });

  it('round-trips for keys from the system random source too', () => {
    for (let i = 0; i < 20; i += 1) {
      const { key } = generateApiKey(i % 2 === 0 ? 'live' : 'test');
      expect(parseApiKey(key).status, key).to.equal('ok');
    }
  });

  it('is reproducible from an injected random source and differs between sources', () => {
    expect(generateApiKey('live', seededBytes('live-1'))).to.deep.equal(live);
    expect(generateApiKey('live', seededBytes('live-2')).key).to.not.equal(live.key);
  });

  it('draws only bytes below 248, so skipped bytes do not bias or break generation', () => {
    // Every other byte is 255 and must be skipped; the key is then built from the 7s.
    const lumpy: RandomBytes = (size) => Uint8Array.from({ length: size }, (_, i) => (i % 2 === 0 ? 255 : 7));
    const { key } = generateApiKey('test', lumpy);
    expect(key.slice(8, 38)).to.equal('7'.repeat(30));
    expect(parseApiKey(key).status).to.equal('ok');
  });

  it('refuses a random source that never yields usable bytes instead of hanging', () => {
    expect(() => generateApiKey('live', (size) => new Uint8Array(size).fill(255))).to.throw(RangeError);
  });

  it('comes with a plsig_ signing secret of 43 base62 characters (32 random bytes)', () => {
    expect(live.signing_secret).to.match(/^plsig_[0-9A-Za-z]{43}$/);
    expect(test.signing_secret).to.not.equal(live.signing_secret);
  });

  it('has a key_ id derived from the key alone', () => {
    expect(live.key_id).to.match(/^key_[a-z2-7]{16}$/);
    expect(keyIdFor(live.key)).to.equal(live.key_id);
    expect(test.key_id).to.not.equal(live.key_id);
  });
});

describe('API key parsing (before any lookup)', () => {
  const { key } = generateApiKey('live', seededBytes('parse'));

  it('calls a key with any single mistyped character a bad checksum', () => {
    let checked = 0;
    for (let position = 8; position < key.length; position += 1) {
      for (const replacement of BASE62) {
        if (replacement === key[position]) continue;
        const typo = key.slice(0, position) + replacement + key.slice(position + 1);
        expect(parseApiKey(typo).status, typo).to.equal('bad_checksum');
        checked += 1;
      }
    }
    expect(checked).to.equal(36 * 61);
  });

  it('calls a key moved from live to test a bad checksum (the prefix is covered too)', () => {
    expect(parseApiKey(key.replace('pl_live_', 'pl_test_')).status).to.equal('bad_checksum');
  });

  it('calls wrong shapes malformed', () => {
    const shapes = [
      '',
      'pl_live_',
      key.slice(0, -1),
      `${key}0`,
      key.replace('pl_live_', 'pk_live_'),
      key.replace('pl_live_', 'pl_prod_'),
      key.toUpperCase(),
      ` ${key}`,
      `${key}\n`,
      `${key.slice(0, 20)}-${key.slice(21)}`,
      `Bearer ${key}`,
    ];
    for (const shape of shapes)
      expect(parseApiKey(shape).status, JSON.stringify(shape)).to.equal('malformed');
  });
});

describe('API key digest', () => {
  const { key } = generateApiKey('live', seededBytes('digest'));

  it('is HMAC-SHA256(pepper, key) in hex', () => {
    // The HMAC-SHA256 example vector (key "key", the quick brown fox).
    expect(keyDigest('key', 'The quick brown fox jumps over the lazy dog')).to.equal(
      'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    );
  });

  it('is stable for one pepper and differs per pepper', () => {
    const a = keyDigest('pepper-one-0123456789abcdef0123456789', key);
    expect(keyDigest('pepper-one-0123456789abcdef0123456789', key)).to.equal(a);
    expect(keyDigest('pepper-two-0123456789abcdef0123456789', key)).to.not.equal(a);
  });

  it('compares digests exactly: equal, one character off, different length', () => {
    const a = keyDigest('pepper', key);
    const offByOne = a.slice(0, -1) + (a.endsWith('0') ? '1' : '0');
    expect(digestsEqual(a, a)).to.equal(true);
    expect(digestsEqual(a, offByOne)).to.equal(false);
    expect(digestsEqual(a, a.slice(0, 63))).to.equal(false);
  });

  it('matches a presented key against its stored digest only with the right pepper', () => {
    const stored = keyDigest('pepper', key);
    expect(keyMatchesDigest('pepper', key, stored)).to.equal(true);
    expect(keyMatchesDigest('other', key, stored)).to.equal(false);
    expect(keyMatchesDigest('pepper', generateApiKey('live', seededBytes('x')).key, stored)).to.equal(false);
  });
});

describe('API key scopes', () => {
  it("are SPEC §1's five tenant scopes, draws:approve, tlog:read (witnesses, monitors) and the platform operator's registry:admin and platform:admin", () => {
    expect(API_KEY_SCOPES).to.deep.equal([
      'credit:read',
      'governance:write',
      'governance:read',
      'ledger:read',
      'tlog:read',
      'admin',
      'registry:admin',
      'draws:approve',
      'platform:admin',
    ]);
    expect(isApiKeyScope('ledger:read')).to.equal(true);
    expect(isApiKeyScope('ledger:write')).to.equal(false);
  });
});
