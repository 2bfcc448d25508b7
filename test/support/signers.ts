/**
 * Signed duties in API specs (docs/duties.md): invite a signer with the lender's key, enroll a
 * fresh Ed25519 key with the token alone (no API key), and sign with the SDK's WebCrypto helpers —
 * the server verifies with node:crypto, so every spec that signs also checks the two agree.
 */
import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import type { IssuedKey } from '../../src/orgs/keys.js';
import {
  generateSignerKey,
  signDraw,
  signNotarialAct,
  signWaiver,
  type NotarialActTerms,
  type SignableDraw,
  type SignableWaiver,
} from '../../src/sdk/duties.js';

export interface EnrolledSigner {
  id: string;
  key_id: string;
  publicKey: string;
  privateKey: CryptoKey;
}

export interface InviteBody {
  name: string;
  capacity: string;
  entity_id?: string | null;
  commission?: { number: string; state: string; expires_on: string };
}

export async function invite(
  app: Express,
  lender: IssuedKey,
  body: InviteBody,
): Promise<{ id: string; token: string }> {
  const res = await request(app)
    .post('/api/signers')
    .set({ Authorization: `Bearer ${lender.key}` })
    .send(body);
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return { id: String(res.body.id), token: String(res.body.enrollment_token) };
}

export async function enroll(app: Express, token: string, publicKey: string): Promise<request.Response> {
  return request(app).post('/api/signers/enroll').send({ token, public_key: publicKey });
}

/** Invites and enrolls a signer with a fresh key. */
export async function enrolledSigner(
  app: Express,
  lender: IssuedKey,
  body: InviteBody,
): Promise<EnrolledSigner> {
  const { id, token } = await invite(app, lender, body);
  const { keyPair, publicKey } = await generateSignerKey();
  const res = await enroll(app, token, publicKey);
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return { id, key_id: String(res.body.key_id), publicKey, privateKey: keyPair.privateKey };
}

const get = async (app: Express, lender: IssuedKey, path: string): Promise<unknown> => {
  const res = await request(app)
    .get(path)
    .set({ Authorization: `Bearer ${lender.key}` });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
};

/** The signer signs the draw as the API shows it and the lender posts the signature. */
export async function signDrawAs(
  app: Express,
  lender: IssuedKey,
  drawId: string,
  role: string,
  signer: EnrolledSigner,
): Promise<request.Response> {
  const draw = (await get(app, lender, `/api/draws/${drawId}`)) as SignableDraw;
  const signature = await signDraw(signer.privateKey, draw);
  return request(app)
    .post(`/api/draws/${drawId}/signatures`)
    .set({ Authorization: `Bearer ${lender.key}` })
    .send({ role, signer_id: signer.id, signature });
}

/** The claimant's signer executes the waiver as the API shows it. */
export async function signWaiverAs(
  app: Express,
  lender: IssuedKey,
  waiverId: string,
  signer: EnrolledSigner,
): Promise<request.Response> {
  const waiver = (await get(app, lender, `/api/documents/${waiverId}`)) as SignableWaiver;
  const signature = await signWaiver(signer.privateKey, waiver);
  return request(app)
    .post(`/api/documents/${waiverId}/signatures`)
    .set({ Authorization: `Bearer ${lender.key}` })
    .send({ signer_id: signer.id, signature });
}

export const notarialSignature = (notary: EnrolledSigner, act: NotarialActTerms): Promise<string> =>
  signNotarialAct(notary.privateKey, act);
