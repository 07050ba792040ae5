/**
 * The type tests, the docs' examples and the example app again, as an application with the
 * strictest common settings compiles them: `npm run typecheck` checks them under this repository's
 * tsconfig, where `exactOptionalPropertyTypes` is off; this test checks the same files with it on
 * (and `strict`, `noUncheckedIndexedAccess`), so a public type that holds only without it fails.
 *
 * Only those files' own diagnostics count: they are what a user's code sees, and the sources
 * themselves are compiled under the repository's settings (docs/getting-started.md, "TypeScript
 * settings"). `npm run check:package` checks the same against the packed package.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const root = path.join(__dirname, '../..');
const inFolder = (folder: string, pattern: RegExp): string[] =>
  fs
    .readdirSync(path.join(root, folder))
    .filter(name => pattern.test(name))
    .map(name => path.join(root, folder, name));
const typeTests = inFolder('__tests__/types', /\.test-d\.tsx?$/);
const userCode = [...typeTests, ...inFolder('docs/examples', /\.tsx?$/), ...inFolder('example/src', /\.tsx?$/)];

function strictOptions(): ts.CompilerOptions {
  const file = path.join(root, 'tsconfig.json');
  const { config } = ts.readConfigFile(file, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, file);
  return {
    ...options,
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
  };
}

function format(diagnostic: ts.Diagnostic): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  if (!diagnostic.file || diagnostic.start === undefined) return message;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return `${path.relative(root, diagnostic.file.fileName)}(${line + 1},${character + 1}): ${message}`;
}

test('the type tests and examples hold under strict, exactOptionalPropertyTypes and noUncheckedIndexedAccess', () => {
  expect(typeTests.length).toBeGreaterThanOrEqual(4);
  expect(userCode.length).toBeGreaterThan(typeTests.length + 20);
  const program = ts.createProgram(userCode, strictOptions());
  const errors = userCode.flatMap(file => {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`${file} was not compiled`);
    return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map(format);
  });
  expect(errors).toEqual([]);
}, 120_000);
