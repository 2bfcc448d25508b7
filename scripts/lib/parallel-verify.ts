/**
 * `ledger:verify` across worker threads: the SQLite ledger is cut into contiguous seq ranges and
 * each worker verifies one (scripts/lib/verify-worker.ts). Reading rows and hashing them is all
 * the work and every range is independent once it starts from the stored hash before it, so a
 * million-event ledger verifies in a fraction of the time on a multi-core machine. The merged
 * result is the one a sequential pass gives: the first bad seq, its issues and the watermark.
 */
import { Worker } from 'node:worker_threads';
import type { VerifyResult } from '../../src/platform/ledger/verify.js';
import type { VerifyShare } from './verify-worker.js';

type ShareResult = VerifyResult & { head: number };

const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
import('tsx/esm/api').then((tsx) => { tsx.register(); return import(workerData.entry); });
`;

function runShare(share: VerifyShare, onChecked: (delta: number) => void): Promise<ShareResult> {
  return new Promise((resolve, reject) => {
    // Workers load TypeScript through tsx's loader, registered in the worker before the entry.
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: { ...share, entry: new URL('./verify-worker.ts', import.meta.url).href },
    });
    let last = 0;
    worker.on(
      'message',
      (msg: { type: 'progress'; checked: number } | { type: 'done'; result: ShareResult }) => {
        if (msg.type === 'progress') {
          onChecked(msg.checked - last);
          last = msg.checked;
        } else {
          resolve(msg.result);
          void worker.terminate();
        }
      },
    );
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`verify worker for seqs ${share.from}–${share.to} exited ${code}`));
    });
  });
}

export async function verifyInParallel(
  path: string,
  head: number,
  workers: number,
  opts: { stopAtFirstIssue: boolean; onProgress?: (checked: number) => void },
): Promise<ShareResult> {
  const size = Math.ceil(head / workers);
  const shares: VerifyShare[] = [];
  for (let from = 1; from <= head; from += size)
    shares.push({ path, from, to: Math.min(head, from + size - 1), stopAtFirstIssue: opts.stopAtFirstIssue });
  let checked = 0;
  const results = await Promise.all(
    shares.map((share) =>
      runShare(share, (delta) => {
        checked += delta;
        opts.onProgress?.(checked);
      }),
    ),
  );
  // The first share with an issue holds the first bad seq; the ones before it verified clean.
  const bad = results.find((r) => r.issues.length > 0);
  return {
    ok: bad === undefined,
    checked: results.reduce((sum, r) => sum + r.checked, 0),
    verified_through: bad ? bad.verified_through : (results.at(-1)?.verified_through ?? 0),
    issues: bad ? bad.issues : [],
    head,
  };
}
