import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import { SDK_OUT_DIR } from '../../scripts/lib/sdk-build.js';
import { builtSdkFile } from '../sdk/harness.js';
import { startService, type TestService } from '../support/service.js';

describe('developer resources: /docs, its assets and the SDK files (SPEC §8)', function () {
  this.timeout(60_000);
  let svc: TestService;

  before(async () => {
    await builtSdkFile();
    svc = await startService();
  });
  after(async () => {
    await svc.close();
  });

  it('serves /docs as HTML that loads only same-origin scripts and styles, under the strict CSP', async () => {
    const res = await request(svc.app).get('/docs');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).to.include("default-src 'self'");
    expect(res.headers['content-security-policy']).to.include("script-src 'self'");
    const html = res.text;
    expect(html).to.not.match(/<script(?![^>]*\bsrc=)[^>]*>/i);
    expect(html).to.not.match(/<style\b|\sstyle=/i);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets).to.include.members(['/docs/assets/swagger-ui-bundle.js', '/docs/init.js']);
    for (const asset of assets.filter((a) => a.startsWith('/docs'))) {
      const got = await request(svc.app).get(asset);
      expect(got.status, asset).to.equal(200);
    }
  });

  it('serves the Swagger UI assets from the installed package with their content types', async () => {
    const js = await request(svc.app).get('/docs/assets/swagger-ui-bundle.js');
    expect(js.headers['content-type']).to.equal('text/javascript; charset=utf-8');
    expect(js.text).to.include('SwaggerUIBundle');
    const css = await request(svc.app).get('/docs/assets/swagger-ui.css');
    expect(css.headers['content-type']).to.equal('text/css; charset=utf-8');
    const init = await request(svc.app).get('/docs/init.js');
    expect(init.text).to.include("url: '/openapi.json'");
  });

  it('serves only the listed assets: other names and traversal answer 404', async () => {
    for (const path of [
      '/docs/assets/index.html',
      '/docs/assets/..%2F..%2Fpackage.json',
      '/docs/assets/package.json',
    ]) {
      const res = await request(svc.app).get(path);
      expect(res.status, path).to.equal(404);
      expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
    }
    expect((await request(svc.app).post('/docs')).status).to.equal(405);
  });

  it('serves the freshly built SDK and its declarations', async () => {
    const js = await request(svc.app).get('/sdk/plumbline.js');
    expect(js.status).to.equal(200);
    expect(js.headers['content-type']).to.equal('text/javascript; charset=utf-8');
    expect(js.text).to.equal(readFileSync(`${SDK_OUT_DIR}/plumbline.js`, 'utf8'));
    expect(js.text).to.not.match(/from\s*["'](?!\.)/);
    const dts = await request(svc.app).get('/sdk/plumbline.d.ts');
    expect(dts.status).to.equal(200);
    expect(dts.headers['content-type']).to.match(/^application\/typescript/);
    expect(dts.text).to.include('export declare class Plumbline');
    expect(dts.text).to.not.match(/^import /m);
  });
});
