/**
 * Worker threads whose entry is a module of this tree: a `.ts` file under tsx (the tests, `npm
 * start`), a `.js` file in the built dist/ (the production image, which has no tsx — a
 * devDependency — to load). The worker registers tsx's loader itself before it imports a
 * TypeScript entry. Used by `ledger:verify`'s threads and by the service's background verifier.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
(workerData.entry.endsWith('.ts')
  ? import('tsx/esm/api').then((tsx) => { tsx.register(); return import(workerData.entry); })
  : import(workerData.entry));
`;

/**
 * The URL of `name` (without extension) beside the module at `here` (`import.meta.url`): `.ts`
 * when that module was loaded as TypeScript, `.js` in the built output.
 */
export function siblingEntry(here: string, name: string): string {
  const ext = here.endsWith('.ts') ? 'ts' : 'js';
  return new URL(`./${name}.${ext}`, here).href;
}

/** Starts a worker running `entry` (a file URL); `data` reaches it as `workerData.data`. */
export function startModuleWorker(
  entry: string,
  data: unknown,
  options: Omit<WorkerOptions, 'eval' | 'workerData'> = {},
): Worker {
  return new Worker(BOOTSTRAP, { ...options, eval: true, workerData: { entry, data } });
}
