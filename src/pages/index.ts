/**
 * @module Browser-facing pages (SPEC §8): the generated compliance-methodology page and the files
 * under static/ (the ledger explorer and its assets), mounted after every API route.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Service } from '../platform/http/service.js';
import { mountMethodology } from './methodology.js';
import { mountStaticFiles } from './static-files.js';

export { METHODOLOGY_PATH } from './methodology.js';
export { renderMethodologyPage } from './methodology-page.js';
export { CONTENT_TYPES, staticFiles } from './static-files.js';

/** static/ beside src/, wherever the checkout lives. */
export const STATIC_DIR = fileURLToPath(new URL('../../static/', import.meta.url));

/**
 * Mounts the methodology route first, so its template in static/ is rendered, never served raw;
 * then every other static file.
 */
export function mountPages(s: Service, staticDir: string = STATIC_DIR): void {
  mountMethodology(s, readFileSync(join(staticDir, 'compliance-methodology.html'), 'utf8'));
  // The front door: `/` is static/index.html (what the service is, its status, every page).
  s.routes.add('GET', '/', async (_req, res) => {
    res
      .type('text/html; charset=utf-8')
      .set('Cache-Control', 'no-cache')
      .send(await readFile(join(staticDir, 'index.html')));
  });
  mountStaticFiles(s, staticDir);
}
