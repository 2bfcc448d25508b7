import { createHash, createHmac } from 'node:crypto';
import { expect } from 'chai';
import {
  contentDigest,
  signatureHeaders,
  signResponse,
  verifySignature,
} from '../../../src/platform/crypto/signing.js';

const SECRET = 'plsig_3vQB7B6MrGQZaxCuFg4oh2iDW3pXS5kYqUuWR1QnxRx';
const KID = 'key_abcdefghijklmnop';
const NOW = new Date('2026-03-10T12:00:00Z');
const T = NOW.getTime() / 1000;
const BODY = '{"ok":true,"entity":"Acme Builders"}';

describe('response signature (SPEC §2)', () => {
  const header = signResponse({ secret: SECRET, kid: KID, body: BODY, t: T });

  it('is t=<unix>,kid=<key id>,v1=HMAC-SHA256(secret, "<t>.<sha256 hex of the body>")', () => {
    const bodyHash = createHash('sha256').update(BODY, 'utf8').digest('hex');
    const v1 = createHmac('sha256', SECRET).update(`${T}.${bodyHash}`).digest('hex');
    expect(header).to.equal(`t=${T},kid=${KID},v1=${v1}`);
  });

  it('verifies with the signing secret', () => {
    expect(verifySignature({ header, body: BODY, secret: SECRET, now: NOW })).to.deep.equal({
      status: 'ok',
      t: T,
      kid: KID,
    });
  });

  it('signs bytes: a Buffer of the same bytes verifies, and a string signs as UTF-8', () => {
    const bytes = Buffer.from(BODY, 'utf8');
    expect(signResponse({ secret: SECRET, kid: KID, body: bytes, t: T })).to.equal(header);
    expect(verifySignature({ header, body: bytes, secret: SECRET, now: NOW }).status).to.equal('ok');
  });

  it('fails with one changed body byte', () => {
    const bytes = Buffer.from(BODY, 'utf8');
    for (let i = 0; i < bytes.length; i += 1) {
      const altered = Buffer.from(bytes);
      altered[i] = altered[i]! ^ 0x01;
      expect(
        verifySignature({ header, body: altered, secret: SECRET, now: NOW }).status,
        `byte ${i}`,
      ).to.equal('mismatch');
    }
  });

  it('fails with another secret, and with t or kid edited', () => {
    expect(verifySignature({ header, body: BODY, secret: `${SECRET}x`, now: NOW }).status).to.equal(
      'mismatch',
    );
    const otherT = header.replace(`t=${T}`, `t=${T - 1}`);
    expect(verifySignature({ header: otherT, body: BODY, secret: SECRET, now: NOW }).status).to.equal(
      'mismatch',
    );
  });

  it('rejects a signature more than 300 s old or ahead as stale, and accepts exactly 300 s', () => {
    const at = (t: number): string => signResponse({ secret: SECRET, kid: KID, body: BODY, t });
    expect(verifySignature({ header: at(T - 300), body: BODY, secret: SECRET, now: NOW }).status).to.equal(
      'ok',
    );
    expect(verifySignature({ header: at(T - 301), body: BODY, secret: SECRET, now: NOW })).to.deep.equal({
      status: 'stale',
      t: T - 301,
      kid: KID,
      skew_s: 301,
    });
    expect(verifySignature({ header: at(T + 301), body: BODY, secret: SECRET, now: NOW }).status).to.equal(
      'stale',
    );
  });

  it('honours a custom tolerance', () => {
    const old = signResponse({ secret: SECRET, kid: KID, body: BODY, t: T - 60 });
    const input = { header: old, body: BODY, secret: SECRET, now: NOW };
    expect(verifySignature({ ...input, toleranceSeconds: 30 }).status).to.equal('stale');
    expect(verifySignature({ ...input, toleranceSeconds: 60 }).status).to.equal('ok');
  });

  it('calls headers that are not t,kid,v1 bad_format', () => {
    const v1 = header.split('v1=')[1]!;
    const bad = [
      '',
      'garbage',
      `t=${T},kid=${KID}`,
      `t=${T},v1=${v1}`,
      `kid=${KID},v1=${v1}`,
      `t=${T},kid=${KID},v1=${v1.slice(1)}`,
      `t=${T},kid=${KID},v1=${v1.toUpperCase()}`,
      `t=-${T},kid=${KID},v1=${v1}`,
      `t=${T},t=${T},kid=${KID},v1=${v1}`,
      `t=${T},kid=key bad,v1=${v1}`,
    ];
    for (const h of bad)
      expect(verifySignature({ header: h, body: BODY, secret: SECRET, now: NOW }).status, h).to.equal(
        'bad_format',
      );
  });

  it('reads fields in any order with spaces and ignores unknown ones (additive within 1.x)', () => {
    const [t, kid, v1] = header.split(',');
    const reordered = `${v1}, v2=abc, ${kid}, ${t}`;
    expect(verifySignature({ header: reordered, body: BODY, secret: SECRET, now: NOW }).status).to.equal(
      'ok',
    );
  });

  it('refuses to sign with a t or kid the header cannot carry', () => {
    expect(() => signResponse({ secret: SECRET, kid: KID, body: BODY, t: 1.5 })).to.throw(RangeError);
    expect(() => signResponse({ secret: SECRET, kid: 'a,b', body: BODY, t: T })).to.throw(RangeError);
  });
});

describe('Content-Digest (RFC 9530)', () => {
  it('is sha-256=:<base64>: of the exact bytes (the RFC 9530 example)', () => {
    expect(contentDigest('{"hello": "world"}')).to.equal(
      'sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:',
    );
    expect(contentDigest('{"hello": "world"}\n')).to.not.equal(contentDigest('{"hello": "world"}'));
  });

  it('comes with the signature as the pair of headers a signed response carries', () => {
    expect(signatureHeaders({ secret: SECRET, kid: KID, body: BODY, t: T })).to.deep.equal({
      'Plumbline-Signature': signResponse({ secret: SECRET, kid: KID, body: BODY, t: T }),
      'Content-Digest': contentDigest(BODY),
    });
  });
});
