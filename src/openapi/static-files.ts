/**
 * Static files (pages, their scripts and styles) are declared in the route table by the pages
 * capability, one route per file under static/. They are documented from the route table itself:
 * any declared GET of a file name (an extension) outside /api/ that no operation describes. The
 * API stays held to the hand-checked operation list; a page added to static/ is documented as
 * the file it is.
 */
import type { Method } from '../platform/http/routes.js';
import type { OperationSpec } from './operations.js';

const TYPES: Readonly<Record<string, string>> = {
  html: 'text/html',
  js: 'text/javascript',
  mjs: 'text/javascript',
  css: 'text/css',
  svg: 'image/svg+xml',
  json: 'application/json',
  map: 'application/json',
  ts: 'text/plain',
  png: 'image/png',
  ico: 'image/x-icon',
};

/** The content type of a static file path, or undefined when the path is not one. */
export function staticFileType(path: string): string | undefined {
  if (path.startsWith('/api/') || path.includes(':')) return undefined;
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return ext === undefined ? undefined : TYPES[ext];
}

export function staticFileOperations(
  declared: readonly { path: string; methods: Method[] }[],
  documented: readonly OperationSpec[],
): OperationSpec[] {
  const known = new Set(documented.map((op) => `${op.method} ${op.path}`));
  const out: OperationSpec[] = [];
  for (const route of declared) {
    const type = staticFileType(route.path);
    if (type === undefined || !route.methods.includes('GET') || known.has(`GET ${route.path}`)) continue;
    out.push({
      method: 'GET',
      path: route.path,
      operationId: `static${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
      tag: 'Static pages',
      summary: `Static file ${route.path}`,
      access: 'public',
      response: { status: 200, description: type, contentType: type },
      errors: ['NOT_FOUND'],
    });
  }
  return out;
}
