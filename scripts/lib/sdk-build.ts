/**
 * Builds the SDK served at /sdk/plumbline.js (SPEC §8) from src/sdk: esbuild bundles the ESM
 * (with @noble/hashes and canonicalize inside, platform "browser" so a node: import fails the
 * build), and the TypeScript compiler emits declarations that are folded into one plumbline.d.ts.
 * The declarations are compiled with DOM types only (no @types/node), so Node-only APIs cannot
 * creep in unnoticed, and the folded file is type-checked on its own before it is written.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SDK_ENTRY = join(ROOT, 'src/sdk/index.ts');
export const SDK_OUT_DIR = join(ROOT, 'static/sdk');

const BANNER = '/* Plumbline SDK 1.0.0 — generated from src/sdk by scripts/build-sdk.ts; do not edit. */';

const COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: [],
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  skipLibCheck: true,
};

export interface SdkBuild {
  js: string;
  dts: string;
  exports: string[];
}

function formatDiagnostics(diagnostics: readonly ts.Diagnostic[]): string {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => ROOT,
    getNewLine: () => '\n',
  });
}

function declaredName(stmt: ts.Statement): string | undefined {
  if (ts.isVariableStatement(stmt)) {
    const first = stmt.declarationList.declarations[0];
    return first && ts.isIdentifier(first.name) ? first.name.text : undefined;
  }
  const name = (stmt as { name?: ts.Node }).name;
  return name && ts.isIdentifier(name) ? name.text : undefined;
}

const isExported = (stmt: ts.Statement): boolean =>
  ts.canHaveModifiers(stmt) &&
  (ts.getModifiers(stmt) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/**
 * One module's declarations, ready to be concatenated with its siblings: imports of sibling
 * modules and re-exports vanish (everything lands in one scope), and `export` is kept only on the
 * names the entry module exports, so the .d.ts promises exactly what the bundle has.
 */
function foldModule(fileName: string, text: string, publicNames: ReadonlySet<string>): string {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  for (const stmt of source.statements) {
    if (ts.isImportDeclaration(stmt) || ts.isExportDeclaration(stmt)) {
      const spec = stmt.moduleSpecifier;
      const relative = spec !== undefined && ts.isStringLiteral(spec) && spec.text.startsWith('.');
      const emptyExport =
        ts.isExportDeclaration(stmt) &&
        spec === undefined &&
        stmt.exportClause !== undefined &&
        ts.isNamedExports(stmt.exportClause) &&
        stmt.exportClause.elements.length === 0;
      if (relative || emptyExport) continue;
      throw new Error(
        `${fileName}: the SDK's declarations must not depend on other packages: ${stmt.getText()}`,
      );
    }
    const leading = stmt.getFullText().slice(0, stmt.getStart() - stmt.getFullStart());
    let body = stmt.getText();
    const name = declaredName(stmt);
    if (isExported(stmt) && (name === undefined || !publicNames.has(name)))
      body = body.replace(/^export\s+/, '');
    out.push(leading.replace(/^\n+/, '') + body);
  }
  return out.join('\n');
}

function emitDeclarations(): { dts: string; valueExports: string[] } {
  const program = ts.createProgram([SDK_ENTRY], {
    ...COMPILER_OPTIONS,
    declaration: true,
    emitDeclarationOnly: true,
  });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length > 0) throw new Error(`SDK type errors:\n${formatDiagnostics(diagnostics)}`);
  const checker = program.getTypeChecker();
  const entry = program.getSourceFile(SDK_ENTRY);
  const entrySymbol = entry && checker.getSymbolAtLocation(entry);
  if (!entrySymbol) throw new Error(`cannot read the exports of ${SDK_ENTRY}`);
  const exported = checker.getExportsOfModule(entrySymbol);
  const publicNames = new Set(exported.map((s) => s.name));
  const valueExports = exported
    .filter((s) => {
      const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
      return (target.flags & ts.SymbolFlags.Value) !== 0;
    })
    .map((s) => s.name)
    .sort();
  const emitted = new Map<string, string>();
  const sdkDir = dirname(SDK_ENTRY);
  program.emit(undefined, (fileName, text) => {
    if (fileName.startsWith(sdkDir)) emitted.set(fileName, text);
  });
  const parts = [...emitted.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([fileName, text]) => foldModule(fileName, text, publicNames))
    .filter((text) => text.trim() !== '');
  return { dts: `${BANNER}\n${parts.join('\n\n')}\n\nexport {};\n`, valueExports };
}

/** Type-checks the folded declarations alone: a dangling name or a clash fails the build. */
function checkFolded(dts: string): void {
  const fileName = join(SDK_OUT_DIR, '__check__.d.ts');
  const host = ts.createCompilerHost(COMPILER_OPTIONS);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (f) => (f === fileName ? dts : readFile(f));
  host.fileExists = (
    (exists) => (f: string) =>
      f === fileName || exists(f)
  )(host.fileExists.bind(host));
  host.getSourceFile = (f, v, onError, create) =>
    f === fileName ? ts.createSourceFile(f, dts, v, true) : getSourceFile(f, v, onError, create);
  const program = ts.createProgram(
    [fileName],
    { ...COMPILER_OPTIONS, skipLibCheck: false, noEmit: true },
    host,
  );
  const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => d.file?.fileName === fileName);
  if (diagnostics.length > 0)
    throw new Error(`folded plumbline.d.ts does not compile:\n${formatDiagnostics(diagnostics)}`);
}

/** Writes beside and renames, so a server reading the file never sees half of it. */
function writeAtomically(path: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, path);
}

export async function buildSdk(outDir: string = SDK_OUT_DIR): Promise<SdkBuild> {
  mkdirSync(outDir, { recursive: true });
  const js = join(outDir, 'plumbline.js');
  const dtsPath = join(outDir, 'plumbline.d.ts');
  const bundled = await build({
    entryPoints: [SDK_ENTRY],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    write: false,
    outfile: js,
    metafile: true,
    banner: { js: BANNER },
    logLevel: 'silent',
  });
  const output = bundled.outputFiles[0];
  const meta = Object.values(bundled.metafile.outputs)[0];
  if (!output || !meta) throw new Error('esbuild produced no output');
  const { dts, valueExports } = emitDeclarations();
  const bundleExports = [...meta.exports].sort();
  if (bundleExports.join() !== valueExports.join())
    throw new Error(
      `bundle exports [${bundleExports.join()}] differ from declared values [${valueExports.join()}]`,
    );
  checkFolded(dts);
  writeAtomically(js, output.text);
  writeAtomically(dtsPath, dts);
  return { js, dts: dtsPath, exports: bundleExports };
}
