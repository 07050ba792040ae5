/**
 * The type tests again, as an application with the strictest common settings compiles them:
 * `npm run typecheck` checks __tests__/types/*.test-d.ts under this repository's tsconfig, where
 * `exactOptionalPropertyTypes` is off; this test checks the same files with it on (and `strict`,
 * `noUncheckedIndexedAccess`), so a public type that holds only without it fails here.
 *
 * Only the type-test files' own diagnostics count: they are what a user's code sees, and the
 * sources themselves are compiled under the repository's settings (docs/getting-started.md,
 * "TypeScript settings"). `npm run check:package` checks the same against the packed package.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const root = path.join(__dirname, '../..');
const typeTests = fs
  .readdirSync(__dirname)
  .filter(name => /\.test-d\.tsx?$/.test(name))
  .map(name => path.join(__dirname, name));

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

test('the type tests hold under strict, exactOptionalPropertyTypes and noUncheckedIndexedAccess', () => {
  expect(typeTests.length).toBeGreaterThanOrEqual(4);
  const program = ts.createProgram(typeTests, strictOptions());
  const errors = typeTests.flatMap(file => {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`the type test ${file} was not compiled`);
    return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map(format);
  });
  expect(errors).toEqual([]);
}, 120_000);
