import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import express, { type Request, type RequestHandler } from 'express';
import { setContext } from '../../../src/platform/http/context.js';
import { toProblem } from '../../../src/platform/http/errors.js';
import { jsonBody } from '../../../src/platform/http/middleware.js';

/**
 * An app whose body reader runs either as soon as the headers are in (the body still on its way:
 * body-parser reads it) or once the whole request has arrived (read from the buffer).
 */
function appReading(arrived: boolean, seen: boolean[]): express.Express {
  const app = express();
  const wait: RequestHandler = (req, _res, next) => {
    setContext(req, {
      request_id: 'req_1',
      surface: 'project',
      started_at: 0,
      auth: null,
      idempotency_key: null,
      idempotency_request_hash: null,
      route: null,
    });
    if (!arrived) {
      next();
      return;
    }
    // The body follows its headers by 5 ms (`send`).
    setTimeout(() => {
      seen.push(req.complete);
      next();
    }, 50);
  };
  app.post('/', wait, jsonBody(256), (req: Request, res) => {
    res.json({ body: req.body as unknown, type: typeof req.body });
  });
  app.use(((error, _req, res, _next) => {
    const problem = toProblem(error);
    res.status(problem?.status ?? 500).json({ code: problem?.code ?? 'INTERNAL', detail: problem?.detail });
  }) as express.ErrorRequestHandler);
  return app;
}

async function listen(app: express.Express): Promise<Server> {
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** Headers first, then the body a moment later: the reader meets a body still on its way. */
function send(server: Server, headers: Record<string, string>, body: Buffer): Promise<[number, string]> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ port, method: 'POST', path: '/', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve([res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')]));
    });
    req.on('error', reject);
    req.flushHeaders();
    setTimeout(() => req.end(body), 5);
  });
}

const json = (text: string, type = 'application/json'): [Record<string, string>, Buffer] => {
  const body = Buffer.from(text, 'utf8');
  return [{ 'content-type': type, 'content-length': String(body.length) }, body];
};

const PLAIN = new Set(['application/json', 'application/json; charset=utf-8']);

const CASES: [string, Record<string, string>, Buffer][] = [
  ['an object', ...json('{"a":1,"b":"é"}')],
  ['an empty object', ...json('{}')],
  ['a bare value', ...json('42')],
  ['UTF-8 named as the charset', ...json('{"a":"x"}', 'application/json; charset=utf-8')],
  ['UTF-8 named in capitals', ...json('{"a":"x"}', 'Application/JSON; Charset=UTF-8')],
  ['a byte-order mark', ...json('\ufeff{"a":1}')],
  ['malformed JSON', ...json('{"a":')],
  ['a body nested too deep', ...json('['.repeat(65) + ']'.repeat(65))],
  ['a lone surrogate', ...json('{"a":"\\ud800"}')],
  ['a body over the limit', ...json(`{"a":"${'x'.repeat(300)}"}`)],
  ['another charset', ...json('{"a":1}', 'application/json; charset=latin1')],
  ['a vendor JSON type', ...json('{"a":1}', 'application/merge-patch+json')],
  ['text', ...json('{"a":1}', 'text/plain')],
  ['a gzip body', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, gzipSync('{"z":1}')],
];

describe('the JSON body reader', () => {
  let early: Server;
  let late: Server;
  const seen: boolean[] = [];
  before(async () => {
    early = await listen(appReading(false, []));
    late = await listen(appReading(true, seen));
  });
  after(() => {
    early.close();
    late.close();
  });

  for (const [what, headers, body] of CASES) {
    it(`answers ${what} as body-parser does, read as it arrives or once it is in`, async () => {
      // The same type with a quoted charset is not plain to this reader: body-parser reads it.
      const type = headers['content-type']!.toLowerCase();
      const reference = PLAIN.has(type)
        ? { ...headers, 'content-type': 'application/json; charset="utf-8"' }
        : headers;
      const parsedByBodyParser = await send(early, reference, body);
      const streamed = await send(early, headers, body);
      const buffered = await send(late, headers, body);
      expect(streamed).to.deep.equal(parsedByBodyParser);
      expect(buffered).to.deep.equal(parsedByBodyParser);
      expect(seen.at(-1), 'the whole request was in when the reader ran').to.equal(true);
    });
  }

  it('parses, and refuses with the SPEC §2 problems', async () => {
    expect(await send(late, ...json('{"a":1}'))).to.deep.equal([200, '{"body":{"a":1},"type":"object"}']);
    const [status, text] = await send(late, ...json('{"a":'));
    expect([status, (JSON.parse(text) as { code: string }).code]).to.deep.equal([400, 'INVALID_REQUEST']);
    const [tooBig] = await send(late, ...json(`"${'x'.repeat(300)}"`));
    expect(tooBig).to.equal(413);
    const [latin1] = await send(late, ...json('{}', 'application/json; charset=latin1'));
    expect(latin1).to.equal(415);
  });
});
