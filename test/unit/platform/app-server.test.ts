import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import type { Express } from 'express';
import { createAppServer } from '../../../src/platform/http/server.js';
import { startService, type TestService } from '../../support/service.js';

/** Headers that differ between any two answers (time, request id, and what signs over them). */
const VARYING = new Set(['date', 'request-id', 'plumbline-signature', 'ledger-receipt', 'keep-alive']);

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function ask(base: string, method: string, path: string, key: string | null, body?: string) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(key ? { 'x-plumbline-api-key': key } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body }),
  });
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!VARYING.has(name)) headers[name] = value;
  });
  const text = await res.text();
  return { status: res.status, headers, body: text };
}

/** A problem's or a report's per-request fields, which differ between any two answers. */
function stable(answer: Answer): Answer {
  const body = answer.body
    .replace(/"(request_id|instance|issued_at|report_id|inquiry_id|as_of|checked_at)":"[^"]*"/g, '"$1":"…"')
    .replace(
      /"(sha256|sha3_256|blake2b_256|hash|seq|content_hash|prev_hash)":("[0-9a-f]{64}"|\d+)/g,
      '"$1":…',
    );
  const { 'content-length': _length, 'content-digest': _digest, ...headers } = answer.headers;
  // The quota left moves by one with every counted call.
  if (headers.ratelimit) headers.ratelimit = headers.ratelimit.replace(/;r=\d+/, ';r=…');
  return { ...answer, headers, body };
}

describe('the app server (requests born with Express’s prototypes)', function () {
  this.timeout(30_000);
  let svc: TestService;
  let plain: Server;
  let shaped: Server;
  let plainBase: string;
  let shapedBase: string;
  let key: string;

  before(async () => {
    svc = await startService();
    key = (await svc.key('Server Shape Lending')).key;
    plain = createServer(svc.app);
    shaped = createAppServer(svc.app);
    plainBase = await listen(plain);
    shapedBase = await listen(shaped);
  });

  after(async () => {
    plain.closeAllConnections();
    shaped.closeAllConnections();
    plain.close();
    shaped.close();
    await svc.close();
  });

  it('hands Express requests and responses that already have the app’s prototypes', async () => {
    const app: Express = svc.app;
    const seen: boolean[] = [];
    const probe = createAppServer(app);
    probe.prependListener('request', (req, res) => {
      seen.push(Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response);
    });
    const base = await listen(probe);
    try {
      const answer = await ask(base, 'GET', '/healthz', null);
      expect(answer.status).to.equal(200);
      expect(seen).to.deep.equal([true, true]);
    } finally {
      probe.closeAllConnections();
      probe.close();
    }
  });

  const CASES: [string, string, string, boolean, string?][] = [
    ['health', 'GET', '/healthz', false],
    ['the discovery document', 'GET', '/api/lender-credit', false],
    ['usage', 'POST', '/api/lender-credit?action=usage', true, '{}'],
    [
      'an unknown entity (404 problem)',
      'POST',
      '/api/lender-credit?action=score',
      true,
      '{"entity":"Nobody At All"}',
    ],
    ['broken JSON (400 problem)', 'POST', '/api/lender-credit?action=usage', true, '{"a":'],
    ['no key (401 problem)', 'POST', '/api/lender-credit?action=usage', false, '{}'],
    ['an unknown route (404)', 'GET', '/api/nothing-here', true],
    ['a wrong method (405)', 'DELETE', '/api/lender-credit', true],
    ['a HEAD', 'HEAD', '/healthz', false],
    ['a page', 'GET', '/', false],
    ['a project listing', 'GET', '/api/projects?limit=5', true],
  ];

  for (const [what, method, path, authenticated, body] of CASES) {
    it(`answers ${what} exactly as a plain node:http server does`, async () => {
      const k = authenticated ? key : null;
      const a = stable(await ask(plainBase, method, path, k, body));
      const b = stable(await ask(shapedBase, method, path, k, body));
      expect(b).to.deep.equal(a);
    });
  }
});
