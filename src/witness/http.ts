/**
 * The witness's HTTP face (c2sp.org/tlog-witness): `POST /add-checkpoint`, and `GET /` with the
 * witness's name and verifier key. node:http, bodies capped; nothing a client sends can crash it.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { Witness, WitnessResponse } from './witness.js';

/** A checkpoint with 63 proof lines and dozens of signatures fits easily. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * The body as text, or null past MAX_BODY_BYTES. Past the cap the rest is not kept; the request is
 * not destroyed here, since that closes the socket before the 400 is written (the client saw a
 * reset, not the answer): the answer goes out with `Connection: close` and the socket ends then.
 */
function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        chunks.length = 0;
        resolve(null);
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function createWitnessServer(witness: Witness): Server {
  return createServer(witnessHandler(witness));
}

/** The request handler alone (to mount on a server of one's own). */
export function witnessHandler(witness: Witness): RequestListener {
  return (req, res) => {
    const send = (r: WitnessResponse, close = false): void => {
      res.writeHead(r.status, {
        'content-type': r.contentType,
        'cache-control': 'no-store',
        ...(close ? { connection: 'close' } : {}),
      });
      res.end(r.body, () => {
        if (close) req.destroy();
      });
    };
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/add-checkpoint' && req.method === 'POST') {
      readBody(req)
        .then((body) =>
          body === null
            ? send(
                {
                  status: 400,
                  contentType: 'text/plain; charset=utf-8',
                  body: 'request body too large\n',
                },
                true,
              )
            : witness.addCheckpoint(body).then(send),
        )
        .catch(() => {
          if (!res.headersSent)
            send({ status: 400, contentType: 'text/plain; charset=utf-8', body: 'bad request\n' });
        });
      return;
    }
    if (path === '/' && (req.method === 'GET' || req.method === 'HEAD')) {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`${witness.name}\n${witness.verifierKey}\n`);
      return;
    }
    res.writeHead(path === '/add-checkpoint' ? 405 : 404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(path === '/add-checkpoint' ? 'use POST\n' : 'not found\n');
  };
}
