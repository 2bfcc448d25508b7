import { expect } from 'chai';
import { METHODOLOGY_REFRESH_MS } from '../../src/pages/methodology.js';
import request from 'supertest';
import { CONTENT_TYPES, STATIC_DIR, staticFiles } from '../../src/pages/index.js';
import { startService, type TestService } from '../support/service.js';

describe('pages and static files (SPEC §8)', function () {
  this.timeout(30_000);
  let svc: TestService;
  beforeEach(async () => {
    svc = await startService();
  });
  afterEach(async () => {
    await svc.close();
  });

  it('serves the explorer and its assets at their paths with their content types and the CSP', async () => {
    for (const path of ['/mesh-ledger.html', '/ledger/app.js', '/ledger/ledger.css', '/pages.css']) {
      const res = await request(svc.app).get(path);
      expect(res.status, path).to.equal(200);
      expect(res.headers['content-type'], path).to.equal(CONTENT_TYPES[path.slice(path.lastIndexOf('.'))]);
      expect(res.headers['content-security-policy'], path).to.include("script-src 'self'");
      expect(res.headers['x-content-type-options'], path).to.equal('nosniff');
    }
    const head = await request(svc.app).head('/ledger/app.js');
    expect(head.status).to.equal(200);
  });

  it('serves every file under static/, the methodology template only ever rendered', async () => {
    for (const file of staticFiles(STATIC_DIR)) {
      const res = await request(svc.app).get(file.path);
      expect(res.status, file.path).to.equal(200);
      expect(res.headers['content-type'], file.path).to.match(/^[a-z]+\/[a-z+.-]+/);
    }
    const page = await request(svc.app).get('/compliance-methodology.html');
    expect(page.headers['content-type']).to.equal('text/html; charset=utf-8');
    expect(page.text).not.to.match(/\{\{[a-z_]+\}\}/);
  });

  it('answers 404 for an unknown asset and 405 for a write to a page', async () => {
    const missing = await request(svc.app).get('/ledger/nope.js');
    expect(missing.status).to.equal(404);
    expect(missing.headers['content-type']).to.match(/^application\/problem\+json/);
    const post = await request(svc.app).post('/mesh-ledger.html');
    expect(post.status).to.equal(405);
    expect(post.headers.allow).to.equal('GET, HEAD');
  });

  it('recomputes the bias analysis once the ledger moves, at most every METHODOLOGY_REFRESH_MS', async () => {
    const sampleSize = async (): Promise<string | undefined> =>
      /<span id="bias-sample-size">(\d+)<\/span>/.exec(
        (await request(svc.app).get('/compliance-methodology.html')).text,
      )?.[1];
    expect(await sampleSize()).to.equal('0');
    const key = await svc.key('First Builders Bank');
    const res = await request(svc.app)
      .post('/api/entities')
      .set({ Authorization: `Bearer ${key.key}` })
      .send({ legal_name: 'Keystone Builders, Inc.', roles: ['general_contractor'], business_types: ['A2'] });
    expect(res.status).to.equal(201);
    expect(await sampleSize(), 'the cached analysis within the refresh interval').to.equal('0');
    svc.clock.advance(METHODOLOGY_REFRESH_MS);
    expect(await sampleSize()).to.equal('1');
  });
});
