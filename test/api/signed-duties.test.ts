import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { generateSignerKey, signDraw, type SignableDraw } from '../../src/sdk/duties.js';
import { startJourney, type DrawJourney } from '../support/draw-journey.js';
import { ed25519KeyId } from '../../src/platform/crypto/ed25519.js';
import type { IssuedKey } from '../../src/orgs/keys.js';
import { firstDrawBody, projectBody } from '../support/api-fixtures.js';
import {
  enroll,
  enrolledSigner,
  invite,
  signDrawAs,
  signWaiverAs,
  type InviteBody,
} from '../support/signers.js';

/**
 * Signed duties (issue 15, docs/duties.md): signer identities enrolled with a one-time token, draw
 * signatures verified on receipt against the draw's application as it stands, waivers executed by
 * their claimant's signer. Every refusal changes nothing in the ledger.
 */
describe('signed duties: signers, draw signatures, executed waivers (issue 15)', function () {
  this.timeout(60_000);
  let j: DrawJourney;
  const auth = () => ({ Authorization: `Bearer ${j.lender.key}` });
  const draw = async (): Promise<SignableDraw> =>
    (await request(j.svc.app).get(`/api/draws/${j.drawId}`).set(auth())).body as SignableDraw;
  const failing = async (): Promise<Record<string, string>> => {
    const res = await j.post('/api/payment-push', { draw_id: j.drawId });
    expect(res.status, JSON.stringify(res.body)).to.equal(422);
    return Object.fromEntries(
      (res.body.gates as { gate: string; passed: boolean; detail: string }[])
        .filter((g) => !g.passed)
        .map((g) => [g.gate, g.detail]),
    );
  };
  /** The request is refused with this status and error code, and nothing is appended. */
  const refused = async (send: () => Promise<request.Response>, status: number, code?: string) => {
    const before = await j.svc.head();
    const res = await send();
    expect(res.status, JSON.stringify(res.body)).to.equal(status);
    if (code !== undefined) expect(res.body.errors?.[0]?.code, JSON.stringify(res.body)).to.equal(code);
    expect(await j.svc.head()).to.equal(before);
    return res;
  };

  beforeEach(async () => {
    j = await startJourney();
  });
  afterEach(async () => {
    await j.svc.close();
  });

  describe('enrollment', () => {
    it('enrolls a key with the token alone, once; the token is shown once and never recorded', async () => {
      const { id, token } = await invite(j.svc.app, j.lender, {
        name: 'Dana',
        capacity: 'Contractor',
        entity_id: j.gc,
      });
      expect(token).to.match(/^plenr_/);
      const { publicKey } = await generateSignerKey();
      const res = await enroll(j.svc.app, token, publicKey);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.key_id).to.match(/^sk_[0-9a-f]{16}$/);
      await refused(() => enroll(j.svc.app, token, publicKey), 401);
      const signer = await request(j.svc.app).get(`/api/signers/${id}`).set(auth());
      expect(signer.body).to.include({ status: 'ENROLLED', capacity: 'Contractor', entity_id: j.gc });
      expect(signer.body).to.not.have.property('token_sha256');
      const ledger = await request(j.svc.app).get('/api/ledger?limit=500').set(auth());
      expect(JSON.stringify(ledger.body)).to.not.include(token);
      const types = (ledger.body.events as { type: string }[]).map((e) => e.type);
      expect(types).to.include.members(['SignerInvited', 'SignerEnrolled']);
    });

    it('refuses an expired token, an unknown one and a key that is not Ed25519', async () => {
      const { token } = await invite(j.svc.app, j.lender, {
        name: 'Ari',
        capacity: 'Architect',
        entity_id: j.gc,
      });
      await refused(() => enroll(j.svc.app, token, 'AAAA'), 400);
      const { publicKey } = await generateSignerKey();
      await refused(() => enroll(j.svc.app, `plenr_${'A'.repeat(43)}`, publicKey), 401);
      j.svc.clock.advance(7 * 86_400_000);
      await refused(() => enroll(j.svc.app, token, publicKey), 401);
    });

    it('binds Lender and Notary signers to the lender org and the others to an entity', async () => {
      const post = (body: object) => request(j.svc.app).post('/api/signers').set(auth()).send(body);
      await refused(() => post({ name: 'L', capacity: 'Lender', entity_id: j.gc }), 400, 'not_allowed');
      await refused(() => post({ name: 'C', capacity: 'Contractor' }), 400, 'required');
      await refused(() => post({ name: 'N', capacity: 'Notary' }), 400, 'commission');
    });
  });

  /**
   * A public key is unique within an org, not across orgs (mission: an org sees and changes only its
   * own things): one person who signs for two lenders with one hardware key enrolls with each, each
   * enrollment is its own org's signer, and what another org enrolled neither blocks nor shows.
   */
  describe('one public key in two orgs', () => {
    const dana = (): InviteBody => ({ name: 'Dana Keystone', capacity: 'Contractor', entity_id: j.gc });
    /** Draw 1 of another lender's project with the journey's GC and architect. */
    const otherLendersDraw = async (other: IssuedKey): Promise<string> => {
      const created = async (path: string, body: object): Promise<string> => {
        const res = await j.post(path, body, other);
        expect(res.status, `${path}: ${JSON.stringify(res.body)}`).to.equal(201);
        return String(res.body.id);
      };
      const owner = await created('/api/entities', { legal_name: 'Bayfront Owner LLC', roles: ['owner'] });
      const project = await created(
        '/api/projects',
        projectBody({ borrower: owner, general_contractor: j.gc, architect: j.architect }),
      );
      return created(`/api/projects/${project}/draws`, firstDrawBody());
    };
    const signatureOf = async (key: IssuedKey, drawId: string, role: string) => {
      const res = await request(j.svc.app)
        .get(`/api/draws/${drawId}`)
        .set({ Authorization: `Bearer ${key.key}` });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const signatures = res.body.signatures as { role: string; signer_id: string; key_id: string }[];
      return signatures
        .filter((s) => s.role === role)
        .map((s) => ({ signer_id: s.signer_id, key_id: s.key_id }));
    };

    it('enrolls the key for a signer of each org; each org’s signatures verify and count for its own signer', async () => {
      const other = await j.svc.key('Bayfront Savings');
      const { keyPair, publicKey } = await generateSignerKey();
      // The other lender enrolls her first; then the journey's lender does, with the same key.
      const theirs = await invite(j.svc.app, other, dana());
      const theirEnrollment = await enroll(j.svc.app, theirs.token, publicKey);
      expect(theirEnrollment.status, JSON.stringify(theirEnrollment.body)).to.equal(201);
      const ours = await invite(j.svc.app, j.lender, dana());
      const ourEnrollment = await enroll(j.svc.app, ours.token, publicKey);
      expect(ourEnrollment.status, JSON.stringify(ourEnrollment.body)).to.equal(201);
      const key_id = String(ourEnrollment.body.key_id);
      expect(theirEnrollment.body.key_id).to.equal(key_id);
      const ourSigner = { id: ours.id, key_id, publicKey, privateKey: keyPair.privateKey };
      const theirSigner = { ...ourSigner, id: theirs.id };

      // Each org's draw, signed with the one key, is attributed to that org's own signer.
      const theirDraw = await otherLendersDraw(other);
      expect((await signDrawAs(j.svc.app, j.lender, j.drawId, 'Contractor', ourSigner)).status).to.equal(201);
      expect((await signDrawAs(j.svc.app, other, theirDraw, 'Contractor', theirSigner)).status).to.equal(201);
      expect(await signatureOf(j.lender, j.drawId, 'Contractor')).to.deep.equal([
        { signer_id: ours.id, key_id },
      ]);
      expect(await signatureOf(other, theirDraw, 'Contractor')).to.deep.equal([
        { signer_id: theirs.id, key_id },
      ]);
      // Neither org can sign with the other's signer, and each lists only its own.
      await refused(
        () => signDrawAs(j.svc.app, j.lender, j.drawId, 'Architect', theirSigner),
        400,
        'signer_not_enrolled',
      );
      const listed = await request(j.svc.app).get('/api/signers').set(auth());
      expect(
        (listed.body.items as { id: string; key: { key_id: string } | null }[])
          .filter((s) => s.key?.key_id === key_id)
          .map((s) => s.id),
      ).to.deep.equal([ours.id]);

      // Our gate counts our signer; the other org revoking its own signer changes nothing here.
      const counted = '1 of 3 signed; Architect: not signed; Lender: not signed';
      expect((await failing()).signatures).to.equal(counted);
      const revoked = await j.post(`/api/signers/${theirs.id}/revoke`, { reason: 'left the firm' }, other);
      expect(revoked.status, JSON.stringify(revoked.body)).to.equal(201);
      expect((await failing()).signatures).to.equal(counted);
      expect((await signDrawAs(j.svc.app, j.lender, j.drawId, 'Contractor', ourSigner)).status).to.equal(409);
    });

    it('still refuses the key for a second signer of the same org, in either org', async () => {
      const other = await j.svc.key('Bayfront Savings');
      const { publicKey } = await generateSignerKey();
      for (const key of [other, j.lender]) {
        const first = await invite(j.svc.app, key, dana());
        expect((await enroll(j.svc.app, first.token, publicKey)).status).to.equal(201);
      }
      for (const key of [other, j.lender]) {
        const second = await invite(j.svc.app, key, { name: 'Dana again', capacity: 'Lender' });
        const res = await refused(() => enroll(j.svc.app, second.token, publicKey), 409);
        expect(res.body.detail).to.equal('this public key is already enrolled for another signer');
      }
    });

    it('answers an org the same whether or not another org enrolled the key (no existence oracle)', async () => {
      const other = await j.svc.key('Bayfront Savings');
      /** The org enrolls the key for one signer, then for a second one: both answers, ids left out. */
      const answers = async (publicKey: string) => {
        const out: Record<string, unknown>[] = [];
        for (const name of ['First', 'Second']) {
          const { token } = await invite(j.svc.app, j.lender, { name, capacity: 'Lender' });
          const res = await enroll(j.svc.app, token, publicKey);
          const {
            id: _id,
            ledger: _ledger,
            request_id: _request,
            ...rest
          } = res.body as Record<string, unknown>;
          out.push({ status: res.status, ...rest });
        }
        return out;
      };
      const enrolledElsewhere = (await generateSignerKey()).publicKey;
      const { token } = await invite(j.svc.app, other, dana());
      expect((await enroll(j.svc.app, token, enrolledElsewhere)).status).to.equal(201);
      const seen = await answers(enrolledElsewhere);
      const unseen = await answers((await generateSignerKey()).publicKey);
      expect(seen[0]).to.deep.include({ status: 201, key_id: ed25519KeyId(enrolledElsewhere) });
      expect(seen.map(({ key_id: _k, ...rest }) => rest)).to.deep.equal(
        unseen.map(({ key_id: _k, ...rest }) => rest),
      );
    });
  });

  describe('draw signatures', () => {
    it('records the seed’s unsigned shape as SELF_ATTESTED, which never satisfies the gate', async () => {
      const fresh = await startJourney();
      try {
        await fresh.fixDocuments();
        await fresh.compile();
        for (const role of ['Contractor', 'Architect', 'Lender']) {
          const res = await fresh.post(`/api/draws/${fresh.drawId}/signatures`, {
            role,
            signer_name: `${role} Signer`,
            signed_on: '2026-06-03',
          });
          expect(res.status).to.equal(201);
        }
        const shown = await request(fresh.svc.app)
          .get(`/api/draws/${fresh.drawId}`)
          .set({ Authorization: `Bearer ${fresh.lender.key}` });
        expect(shown.body.signatures.map((s: { attestation: string }) => s.attestation)).to.deep.equal([
          'SELF_ATTESTED',
          'SELF_ATTESTED',
          'SELF_ATTESTED',
        ]);
        const res = await fresh.post('/api/payment-push', { draw_id: fresh.drawId });
        expect(res.status).to.equal(422);
        const sig = (res.body.gates as { gate: string; detail: string }[]).find(
          (g) => g.gate === 'signatures',
        );
        expect(sig?.detail).to.equal(
          '0 of 3 signed; Contractor: self-attested only (not counted); Architect: self-attested only (not counted); Lender: self-attested only (not counted)',
        );
      } finally {
        await fresh.svc.close();
      }
    });

    it('refuses one identity signing a second role on the same draw', async () => {
      const signers = await j.signers();
      expect(
        (await signDrawAs(j.svc.app, j.lender, j.drawId, 'Contractor', signers.Contractor)).status,
      ).to.equal(201);
      const res = await refused(
        () => signDrawAs(j.svc.app, j.lender, j.drawId, 'Architect', signers.Contractor),
        409,
      );
      expect(res.body.detail).to.match(/one identity signs one role/);
    });

    it('refuses a signer of the wrong party: a Contractor signer of the architect firm', async () => {
      const wrong = await enrolledSigner(j.svc.app, j.lender, {
        name: 'Not the GC',
        capacity: 'Contractor',
        entity_id: j.architect,
      });
      await refused(
        () => signDrawAs(j.svc.app, j.lender, j.drawId, 'Contractor', wrong),
        400,
        'signer_wrong_party',
      );
      const lender = (await j.signers()).Lender;
      await refused(
        () => signDrawAs(j.svc.app, j.lender, j.drawId, 'Architect', lender),
        400,
        'signer_wrong_party',
      );
    });

    it('refuses a signature over stale draw bytes', async () => {
      const signer = (await j.signers()).Contractor;
      const stale = await draw();
      // What the GC signed said $1 more was due than the application the service computed.
      stale.summary = { ...stale.summary, current_payment_due: stale.summary.current_payment_due + 100 };
      const signature = await signDraw(signer.privateKey, stale);
      const res = await refused(
        () =>
          j.post(`/api/draws/${j.drawId}/signatures`, {
            role: 'Contractor',
            signer_id: signer.id,
            signature,
          }),
        400,
        'signature_invalid',
      );
      expect(res.body.errors[0].message).to.match(/as it stands \(sha256 [0-9a-f]{64}\)/);
    });

    it('refuses a forged signature: another key signing in the signer’s name', async () => {
      const signer = (await j.signers()).Architect;
      const { keyPair } = await generateSignerKey();
      const signature = await signDraw(keyPair.privateKey, await draw());
      await refused(
        () =>
          j.post(`/api/draws/${j.drawId}/signatures`, { role: 'Architect', signer_id: signer.id, signature }),
        400,
        'signature_invalid',
      );
    });

    it('refuses a revoked signer and does not count its earlier signature', async () => {
      await j.readyToPay();
      const lender = (await j.signers()).Lender;
      const revoked = await j.post(`/api/signers/${lender.id}/revoke`, { reason: 'laptop stolen' });
      expect(revoked.status, JSON.stringify(revoked.body)).to.equal(201);
      expect((await failing()).signatures).to.equal(
        '2 of 3 signed; Lender: no signature by a distinct, active signer of its party',
      );
      await refused(
        () => signDrawAs(j.svc.app, j.lender, j.drawId, 'Lender', lender),
        400,
        'signer_not_enrolled',
      );
      // Another enrolled signer of the lender signs the role again, and the draw pays.
      const successor = await enrolledSigner(j.svc.app, j.lender, {
        name: 'Second Banker',
        capacity: 'Lender',
      });
      expect((await signDrawAs(j.svc.app, j.lender, j.drawId, 'Lender', successor)).status).to.equal(201);
      expect((await j.post('/api/payment-push', { draw_id: j.drawId })).status).to.equal(201);
    });

    it('refuses one public key enrolled for two signers', async () => {
      const a = await invite(j.svc.app, j.lender, { name: 'A', capacity: 'Lender' });
      const b = await invite(j.svc.app, j.lender, { name: 'B', capacity: 'Lender' });
      const raw = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!;
      const publicKey = Buffer.from(raw, 'base64url').toString('base64');
      expect((await enroll(j.svc.app, a.token, publicKey)).status).to.equal(201);
      await refused(() => enroll(j.svc.app, b.token, publicKey), 409);
    });
  });

  describe('executed waivers', () => {
    it('records an unsigned waiver, which does not satisfy the gate until its claimant’s signer signs it', async () => {
      const waiver = await j.fixDocuments({ unsigned: true });
      const compiled = await j.compile();
      expect(compiled.body.compilation.draw_verdict).to.equal('FUNDABLE');
      await j.signAll();
      await j.notarize(waiver);
      expect(await failing()).to.deep.equal({
        waivers_executed: `not executed (no signature by the claimant's signer): ${waiver}`,
      });
      // The architect's signer is not the claimant's.
      const architect = (await j.signers()).Architect;
      await refused(() => signWaiverAs(j.svc.app, j.lender, waiver, architect), 400, 'signer_wrong_party');
      const gc = (await j.signers()).Contractor;
      expect((await signWaiverAs(j.svc.app, j.lender, waiver, gc)).status).to.equal(201);
      const paid = await j.post('/api/payment-push', { draw_id: j.drawId });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
    });
  });

  describe('notarial acts', () => {
    const readyButNotarized = async () => {
      const waiver = await j.fixDocuments();
      expect((await j.compile()).body.compilation.draw_verdict).to.equal('FUNDABLE');
      await j.signAll();
      return waiver;
    };

    it('records an act under an expired commission, which does not satisfy the gate', async () => {
      const waiver = await readyButNotarized();
      const lapsed = await enrolledSigner(j.svc.app, j.lender, {
        name: 'Old Notary',
        capacity: 'Notary',
        commission: { number: 'CA-1000', state: 'CA', expires_on: '2026-05-31' },
      });
      const res = await j.notarialAct(waiver, { notary: lapsed });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.status).to.equal('NOTARIAL_ACT');
      expect(await failing()).to.deep.equal({
        notarization: `${waiver} has an act dated 2026-06-03 under a commission that expired on 2026-05-31`,
      });
      await j.notarize(waiver);
      expect((await j.post('/api/payment-push', { draw_id: j.drawId })).status).to.equal(201);
    });

    it('records an act under another state’s commission, which does not fit the project (CA)', async () => {
      const waiver = await readyButNotarized();
      const nevada = await enrolledSigner(j.svc.app, j.lender, {
        name: 'NV Notary',
        capacity: 'Notary',
        commission: { number: 'NV-77', state: 'NV', expires_on: '2030-01-01' },
      });
      // The act is performed where the notary is commissioned: named elsewhere, it is refused.
      await refused(
        () => j.notarialAct(waiver, { notary: nevada, jurisdiction: 'CA' }),
        400,
        'jurisdiction_mismatch',
      );
      const res = await j.notarialAct(waiver, { notary: nevada, jurisdiction: 'NV' });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(await failing()).to.deep.equal({
        notarization: `${waiver} has an act under a NV commission, not the project's CA`,
      });
    });

    it('refuses an act dated after today or before the waiver it acknowledges was signed', async () => {
      // Journey: today is 2026-06-03 and the waiver was signed on 2026-06-03. A genuine signature
      // over such terms does not make the date possible: an act not yet performed, or one that
      // acknowledged a signature before it was given, is no notarial act.
      const waiver = await readyButNotarized();
      await j.notary(); // enrolled first: its enrollment appends
      const future = await refused(
        () => j.notarialAct(waiver, { actDate: '2026-06-04' }),
        400,
        'out_of_range',
      );
      expect(future.body.errors[0]).to.include({
        path: 'act.act_date',
        message: 'act_date 2026-06-04 is after today (2026-06-03)',
      });
      const early = await refused(
        () => j.notarialAct(waiver, { actDate: '2026-06-02' }),
        400,
        'out_of_range',
      );
      expect(early.body.errors[0].message).to.equal(
        `act_date 2026-06-02 is before ${waiver} was signed (2026-06-03)`,
      );
      await j.notarize(waiver);
      expect((await j.post('/api/payment-push', { draw_id: j.drawId })).status).to.equal(201);
    });

    it('refuses a forged notarial act: a signature by a key that is not the notary’s', async () => {
      const waiver = await readyButNotarized();
      const impostor = { ...(await j.notary()), privateKey: (await generateSignerKey()).keyPair.privateKey };
      await refused(() => j.notarialAct(waiver, { notary: impostor }), 400, 'signature_invalid');
      // A signer who is not a notary cannot perform an act at all.
      const lender = (await j.signers()).Lender;
      await refused(() => j.notarialAct(waiver, { notary: lender }), 400);
    });
  });
});
