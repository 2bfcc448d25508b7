/**
 * Serves the files under static/ at their own paths (static/ledger/app.js → /ledger/app.js), each
 * declared in the route table so unknown paths still answer 404 and wrong methods 405. A path some
 * other capability already declared (the template the methodology route fills, the SDK, /docs) is
 * left to it, which is why the pages mount last.
 */
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { ProblemError } from '../platform/http/problem.js';
import type { Service } from '../platform/http/service.js';

/** Content types by extension; a file of any other kind is not served. */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  // TypeScript declarations (the SDK's .d.ts) are read as text by editors and people alike.
  '.ts': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

export interface StaticFile {
  /** URL path, always with forward slashes. */
  path: string;
  file: string;
  contentType: string;
}

/** Every servable file under `dir`, skipping dotfiles (editor and VCS litter). */
export function staticFiles(dir: string): StaticFile[] {
  const out: StaticFile[] = [];
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const file = join(current, entry.name);
      if (entry.isDirectory()) walk(file);
      const contentType = CONTENT_TYPES[extname(entry.name)];
      if (entry.isFile() && contentType !== undefined)
        out.push({ path: '/' + relative(dir, file).split(sep).join('/'), file, contentType });
    }
  };
  walk(dir);
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

export function mountStaticFiles(s: Service, dir: string): StaticFile[] {
  // Matched against the declared patterns, so `/docs/assets/:file` also claims the files under it.
  const served = staticFiles(dir).filter((f) => s.routes.allowed(f.path) === null);
  for (const f of served) {
    s.routes.add('GET', f.path, async (_req, res) => {
      // Read per request: a rebuilt asset is served without a restart, and files are small.
      const body = await readFile(f.file).catch(() => null);
      if (body === null) throw new ProblemError('NOT_FOUND', `no resource at ${f.path}`);
      res.type(f.contentType).set('Cache-Control', 'no-cache').send(body);
    });
  }
  return served;
}
