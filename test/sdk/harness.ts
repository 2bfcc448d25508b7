/**
 * SDK test harness: builds the SDK once per process unless `npm run build` has just built it (the
 * tests exercise the shipped bundle, not the sources), loads it, and serves an app on a loopback port so the SDK's own fetch is used.
 */
import { once } from 'node:events';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSdk, ROOT, SDK_OUT_DIR } from '../../scripts/lib/sdk-build.js';
import type * as SdkModule from '../../src/sdk/index.js';

/** The bundle's shape: the sources' types, checked against the bundle by types.test.ts. */
export type Sdk = typeof SdkModule;

let built: Promise<Sdk> | undefined;

const newest = (dir: string): number =>
  Math.max(
    ...readdirSync(dir, { withFileTypes: true }).map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return entry.isDirectory() ? newest(path) : statSync(path).mtimeMs;
    }),
  );

/**
 * static/sdk/plumbline.js when the build wrote it (with its declarations) after the last change to
 * src/sdk and to the SDK build itself — as `npm test` does just before the specs (scripts/checks.sh
 * runs `npm run build`, which runs the same buildSdk, its export and declaration checks included).
 */
function bundleIsFresh(): string | null {
  const js = join(SDK_OUT_DIR, 'plumbline.js');
  const dts = join(SDK_OUT_DIR, 'plumbline.d.ts');
  if (!existsSync(js) || !existsSync(dts)) return null;
  const sources = Math.max(
    newest(join(ROOT, 'src/sdk')),
    statSync(join(ROOT, 'scripts/lib/sdk-build.ts')).mtimeMs,
  );
  return Math.min(statSync(js).mtimeMs, statSync(dts).mtimeMs) >= sources ? js : null;
}

/** static/sdk/plumbline.js (and its declarations) as built from src/sdk now: the build's, or a new one. */
export async function builtSdkFile(): Promise<string> {
  return bundleIsFresh() ?? (await buildSdk()).js;
}

/** The bundled static/sdk/plumbline.js, built from src/sdk as it is now (at most once per process). */
export function loadBuiltSdk(): Promise<Sdk> {
  built ??= builtSdkFile().then(async (js) => (await import(pathToFileURL(js).href)) as Sdk);
  return built;
}

export interface Listening {
  baseUrl: string;
  close(): Promise<void>;
}

export async function listen(handler: RequestListener): Promise<Listening> {
  const server: Server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
