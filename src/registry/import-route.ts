/**
 * `POST /api/registry/import` (admin, SPEC §5): a raw SAM extract upload (exclusions CSV, entity
 * V2 .dat, or a zip of either; 1 MiB at most) or `{path}` naming a file under DATA_DIR/imports —
 * never elsewhere, so an admin key cannot make the server read arbitrary files.
 */
import { realpathSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import type { Request } from 'express';
import { registryProjection } from '../../projections/registry.js';
import { authenticate } from '../platform/http/auth.js';
import { ctxOf } from '../platform/http/context.js';
import { BULK_BODY_LIMIT, jsonBody } from '../platform/http/middleware.js';
import { ProblemError } from '../platform/http/problem.js';
import { rateLimit } from '../platform/http/rate-limit.js';
import type { Service } from '../platform/http/service.js';
import { parseWith } from '../platform/http/validate.js';
import { ImportRegistryFileBody } from './contract.js';
import { importSamFile, type ImportResult } from './sam/import.js';

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

export function mountRegistryImport(s: Service): void {
  const importsDir = join(s.dataDir, 'imports');
  const json = jsonBody(BULK_BODY_LIMIT);
  s.routes.add(
    'POST',
    '/api/registry/import',
    authenticate(s.resolveKey, { scope: 'admin', bearerChallenge: true }),
    rateLimit(s.limiter, 'project', s.logger, s.metrics),
    async (req: Request, res) => {
      const options = {
        ledger: s.ledger,
        registryState: () => s.runtime.state(registryProjection),
        now: s.clock.now(),
        actor: ctxOf(req).auth?.key_id ?? 'system',
        requestId: ctxOf(req).request_id,
      };
      let result: ImportResult;
      if (req.is(['application/json'])) {
        await new Promise<void>(
          (ok, fail) =>
            void json(req, res, (e?: unknown) =>
              e ? fail(e instanceof Error ? e : new Error('body', { cause: e })) : ok(),
            ),
        );
        const { path } = parseWith(ImportRegistryFileBody, req.body);
        result = await importSamFile(confinedPath(importsDir, path), options);
      } else if (req.is(RAW_TYPES)) {
        const name = typeof req.query.filename === 'string' ? req.query.filename.slice(0, 200) : 'upload';
        result = await importSamFile(req.pipe(new ByteLimit(BULK_BODY_LIMIT)), {
          ...options,
          fileName: name,
        });
      } else {
        throw new ProblemError(
          'UNSUPPORTED_MEDIA_TYPE',
          `send text/csv, the .dat as text/plain, a zip, or JSON {path}`,
        );
      }
      if (!result.ok) {
        throw new ProblemError(
          'INVALID_REQUEST',
          `the file was rejected at line ${result.rejection.line}: ${result.rejection.reason}`,
          {
            rejection: result.rejection,
          },
        );
      }
      res.status(200).json(result.summary);
    },
  );
}
