/**
 * `POST /api/registry/import` (the platform operator's `registry:admin`, SPEC §5): a raw SAM
 * extract upload (exclusions CSV, entity V2 .dat, or a zip of either; 1 MiB at most) or `{path}`
 * naming a file under DATA_DIR/imports — never elsewhere, so the key cannot make the server read
 * arbitrary files, and never a URL: the server fetches nothing on a caller's behalf. Either way
 * the extract is held to HTTP_IMPORT_LIMITS (413 past them, nothing recorded). The registry is
 * every lender's, so a tenant's `admin` key cannot import (403).
 */
import { realpathSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import type { Request, Response } from 'express';
import { registryProjection } from '../../projections/registry.js';
import { authenticate } from '../platform/http/auth.js';
import { ctxOf } from '../platform/http/context.js';
import { BULK_BODY_LIMIT, jsonBody } from '../platform/http/middleware.js';
import { ProblemError } from '../platform/http/problem.js';
import { rateLimit } from '../platform/http/rate-limit.js';
import type { Service } from '../platform/http/service.js';
import { parseWith } from '../platform/http/validate.js';
import { ImportRegistryFileBody } from './contract.js';
import {
  HTTP_IMPORT_LIMITS,
  ImportTooLarge,
  importSamFile,
  type ImportOptions,
  type ImportResult,
} from './sam/import.js';

const RAW_TYPES = [
  'text/csv',
  'text/plain',
  'application/zip',
  'application/octet-stream',
  'application/x-zip-compressed',
];

/** Passes bytes through until `limit`, then fails the stream with a 413. */
class ByteLimit extends Transform {
  #seen = 0;
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.#seen += chunk.length;
    if (this.#seen > this.limit) {
      done(
        new ProblemError(
          'PAYLOAD_TOO_LARGE',
          `uploads are limited to ${this.limit / 1024} KiB; import larger extracts with npm run import-sam`,
        ),
      );
      return;
    }
    done(null, chunk);
  }
}

/** Resolves `path` inside `dir` (symlinks followed); anything outside is refused. */
export function confinedPath(dir: string, path: string): string {
  const root = resolve(dir);
  const wanted = resolve(root, path);
  let real: string;
  try {
    real = realpathSync(wanted);
  } catch {
    throw new ProblemError('NOT_FOUND', `no file ${path} under the imports directory`);
  }
  if (!real.startsWith(realpathSync(root) + sep)) {
    throw new ProblemError('INVALID_REQUEST', 'path must name a file under DATA_DIR/imports', {
      errors: [{ path: 'path', code: 'invalid_value', message: 'path must stay inside DATA_DIR/imports' }],
    });
  }
  return real;
}

/** Reads the extract the request carries (JSON `{path}` or the raw bytes) and imports it. */
async function importFrom(
  req: Request,
  res: Response,
  importsDir: string,
  options: ImportOptions,
): Promise<ImportResult> {
  if (req.is(['application/json'])) {
    const json = jsonBody(BULK_BODY_LIMIT);
    await new Promise<void>(
      (ok, fail) =>
        void json(req, res, (e?: unknown) =>
          e ? fail(e instanceof Error ? e : new Error('body', { cause: e })) : ok(),
        ),
    );
    const { path } = parseWith(ImportRegistryFileBody, req.body);
    return importSamFile(confinedPath(importsDir, path), options);
  }
  if (req.is(RAW_TYPES)) {
    const name = typeof req.query.filename === 'string' ? req.query.filename.slice(0, 200) : 'upload';
    return importSamFile(req.pipe(new ByteLimit(BULK_BODY_LIMIT)), { ...options, fileName: name });
  }
  throw new ProblemError(
    'UNSUPPORTED_MEDIA_TYPE',
    `send text/csv, the .dat as text/plain, a zip, or JSON {path}`,
  );
}

export function mountRegistryImport(s: Service): void {
  const importsDir = join(s.dataDir, 'imports');
  s.routes.add(
    'POST',
    '/api/registry/import',
    authenticate(s.resolveKey, { scope: 'registry:admin', bearerChallenge: true }),
    rateLimit(s.limiter, 'project', s.logger, s.metrics),
    async (req: Request, res) => {
      const options: ImportOptions = {
        ledger: s.ledger,
        registryState: () => s.runtime.state(registryProjection),
        now: s.clock.now(),
        actor: ctxOf(req).auth?.key_id ?? 'system',
        requestId: ctxOf(req).request_id,
        limits: HTTP_IMPORT_LIMITS,
      };
      let result: ImportResult;
      try {
        result = await importFrom(req, res, importsDir, options);
      } catch (error) {
        if (error instanceof ImportTooLarge) throw new ProblemError('PAYLOAD_TOO_LARGE', error.message);
        throw error;
      }
      if (!result.ok) {
        throw new ProblemError(
          'INVALID_REQUEST',
          `the file was rejected${result.rejection.line === null ? '' : ` at line ${result.rejection.line}`}: ${result.rejection.reason}`,
          { rejection: result.rejection },
        );
      }
      res.status(200).json(result.summary);
    },
  );
}
