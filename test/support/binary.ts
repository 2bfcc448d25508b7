import type request from 'supertest';

/** A supertest parser that keeps a response body as its raw bytes (PDFs, tiles, entry bundles). */
export function binary(res: request.Response, done: (err: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}
