/**
 * A scene for the governance pages (browser specs and `npm run screenshots`): the Harbor View Lofts
 * draw documented, compiled and signed but its lien waiver not yet notarized and a new lien on title
 * since (so its payment gate shows unmet rules and the project an open blocking finding), the project certified, and the GC scored by this lender in three months
 * and once by another lender (redacted on the entity page).
 */
import { expect } from 'chai';
import request from 'supertest';
import type { IssuedKey } from '../../src/orgs/keys.js';
import { startJourney, type DrawJourney } from './draw-journey.js';

export interface PagesScene extends DrawJourney {
  other: IssuedKey;
  certificationId: string;
}

export async function pagesScene(): Promise<PagesScene> {
  const journey = await startJourney({ now: '2026-04-10T15:00:00Z' });
  const { svc, lender } = journey;
  const other = await svc.key('Second Street Capital');
  const score = async (key: IssuedKey) => {
    const res = await request(svc.app)
      .post('/api/lender-credit?action=score')
      .set('x-plumbline-api-key', key.key)
      .send({ entity: journey.gc });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  };
  await score(lender);
  svc.clock.set('2026-05-12T15:00:00Z');
  await score(lender);
  await score(other);
  svc.clock.set('2026-06-03T15:00:00Z');
  await journey.fixDocuments();
  const compiled = await journey.compile();
  expect(compiled.status, JSON.stringify(compiled.body)).to.equal(201);
  await journey.signAll();
  // A lien recorded after the compile: a blocking finding the page shows open, with its evidence.
  await journey.recordLien();
  await score(lender);
  const cert = await journey.post('/api/certification', { action: 'issue', project_id: journey.projectId });
  expect(cert.status, JSON.stringify(cert.body)).to.equal(201);
  return { ...journey, other, certificationId: String(cert.body.certification.id) };
}
