/**
 * SDK test harness: builds the SDK once per run (the tests exercise the shipped bundle, not the
 * sources), loads it, and serves an app on a loopback port so the SDK's own fetch is used.
 */
import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { buildSdk } from '../../scripts/lib/sdk-build.js';
import type * as SdkModule from '../../src/sdk/index.js';

/** The bundle's shape: the sources' types, checked against the bundle by types.test.ts. */
export type Sdk = typeof SdkModule;

let built: Promise<Sdk> | undefined;

/** The bundled static/sdk/plumbline.js, freshly built from src/sdk (once per process). */
export function loadBuiltSdk(): Promise<Sdk> {
  built ??= buildSdk().then(async (b) => (await import(pathToFileURL(b.js).href)) as Sdk);
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
