/**
 * Developer resources (SPEC §8): `/openapi.json`, the `/docs` reference page and its assets
 * (Swagger UI from the swagger-ui-dist package, served locally: no CDN, no inline script — the
 * CSP stays `default-src 'self'`), and the SDK bundle with its declarations. All public.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RequestHandler } from 'express';
import { creditActions } from '../lender-api/credit-actions.js';
import { historyAction } from '../lender-api/history.js';
import { pdfLinkAction } from '../lender-api/pdf-route.js';
import { usageAction } from '../lender-api/routes.js';
import { ProblemError } from '../platform/http/problem.js';
import type { Service } from '../platform/http/service.js';
import { buildOpenApi } from './document.js';
import { lenderOperations } from './lender.js';
import { routeOperations, type OperationSpec } from './operations.js';
import { staticFileOperations } from './static-files.js';

const STATIC_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../static');
const SWAGGER_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

/** The only files /docs/assets/ serves (Swagger UI's): a closed list, so no request names a path. */
const DOCS_ASSETS: Readonly<Record<string, { file: string; type: string }>> = {
  'swagger-ui-bundle.js': { file: join(SWAGGER_DIR, 'swagger-ui-bundle.js'), type: JS },
  'swagger-ui.css': { file: join(SWAGGER_DIR, 'swagger-ui.css'), type: CSS },
  'favicon-32x32.png': { file: join(SWAGGER_DIR, 'favicon-32x32.png'), type: 'image/png' },
};

/** Every operation the service declares, the lender actions read from the live action table. */
export function documentedOperations(s: Service): OperationSpec[] {
  const actions = [...creditActions(s), historyAction(s), usageAction(s), pdfLinkAction(s)];
  const operations = [...lenderOperations(actions), ...routeOperations()];
  return [...operations, ...staticFileOperations(s.routes.paths(), operations)];
}

function serveFile(file: string, type: string, missing?: string): RequestHandler {
  return async (_req, res) => {
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch {
      // The SDK is built, not committed: say how to build it rather than a bare 404.
      if (missing) throw new ProblemError('UNAVAILABLE', missing, {}, { 'Retry-After': '5' });
      throw new ProblemError('NOT_FOUND', 'no such file');
    }
    res.set('Cache-Control', 'no-cache').type(type).send(bytes);
  };
}

export function mountDeveloperResources(s: Service): void {
  let document: string | null = null;
  s.routes.add('GET', '/openapi.json', (_req, res) => {
    document ??= JSON.stringify(buildOpenApi(documentedOperations(s)));
    res.set('Cache-Control', 'no-cache').type('application/json').send(document);
  });

  // Declared before the pages capability mounts static/, so these paths stay this module's.
  s.routes.add('GET', '/docs', serveFile(join(STATIC_DIR, 'docs/index.html'), 'text/html; charset=utf-8'));
  s.routes.add('GET', '/docs/init.js', serveFile(join(STATIC_DIR, 'docs/init.js'), JS));
  s.routes.add('GET', '/docs/docs.css', serveFile(join(STATIC_DIR, 'docs/docs.css'), CSS));
  s.routes.add('GET', '/docs/assets/:file', async (req, res, next) => {
    const asset = Object.hasOwn(DOCS_ASSETS, String(req.params.file))
      ? DOCS_ASSETS[String(req.params.file)]
      : undefined;
    if (!asset) throw new ProblemError('NOT_FOUND', `no docs asset ${String(req.params.file)}`);
    await serveFile(asset.file, asset.type)(req, res, next);
  });

  const unbuilt = 'the SDK has not been built on this server; run npm run build:sdk';
  s.routes.add('GET', '/sdk/plumbline.js', serveFile(join(STATIC_DIR, 'sdk/plumbline.js'), JS, unbuilt));
  s.routes.add(
    'GET',
    '/sdk/plumbline.d.ts',
    serveFile(join(STATIC_DIR, 'sdk/plumbline.d.ts'), 'application/typescript; charset=utf-8', unbuilt),
  );
}
