import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import ts from 'typescript';
import { loadBuiltSdk } from './harness.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const CHECK_FILE = join(HERE, 'types.check.ts');
const TSCONFIG = join(HERE, 'tsconfig.check.json');
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** Diagnostics of `text` compiled as types.check.ts with the check tsconfig's options. */
function diagnosticsOf(text: string): readonly ts.Diagnostic[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    TSCONFIG,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (!config) throw new Error(`cannot read ${TSCONFIG}`);
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, version, onError, create) =>
    file === CHECK_FILE
      ? ts.createSourceFile(file, text, version, true)
      : getSourceFile(file, version, onError, create);
  return ts.getPreEmitDiagnostics(ts.createProgram([CHECK_FILE], config.options, host));
}

describe('SDK declarations (static/sdk/plumbline.d.ts)', function () {
  this.timeout(60_000);
  before(async () => {
    await loadBuiltSdk();
  });

  it('compile a correct use with tsc --noEmit, every misuse marked @ts-expect-error included', async () => {
    // execFile rejects on a non-zero exit, with tsc's report in stdout.
    const run: { stdout?: string; code?: number } = await promisify(execFile)(process.execPath, [
      TSC,
      '--noEmit',
      '-p',
      TSCONFIG,
    ]).catch((e: { stdout?: string; code?: number }) => e);
    expect(run.stdout ?? '').to.equal('');
    expect(run.code ?? 0).to.equal(0);
  });

  it('reject each marked misuse once its marker is gone', () => {
    const source = readFileSync(CHECK_FILE, 'utf8').split('\n');
    const marker = /^\s*\/\/ @ts-expect-error /;
    const marked = source.flatMap((line, i) => (marker.test(line) ? [i + 1] : []));
    expect(marked.length).to.be.at.least(7);
    const unmarked = source.map((line) => (marker.test(line) ? '' : line)).join('\n');
    // A misuse sits on the line after its marker: its 0-based line index is the marker's line number.
    const failing = new Set(
      diagnosticsOf(unmarked).map((d) => d.file!.getLineAndCharacterOfPosition(d.start!).line),
    );
    expect([...failing].sort((a, b) => a - b)).to.deep.equal(marked);
  });
});
