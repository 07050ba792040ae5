/**
 * The package is built with class fields as constructor assignments (tsconfig.build.json,
 * `useDefineForClassFields: false`), while the tests run the sources with define semantics. The
 * two agree only while every field of a source class has a value, is `declare`d, or is set by
 * the constructor: a field with none of these is an own property holding `undefined` under
 * define semantics and no property at all in the built package (`in`, `Object.keys`, spreads and
 * object shapes would differ). This test reads every class of `src/` and holds that.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SRC = path.join(__dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap(name => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

/** `file:Class.field` for each field with no value, no `declare`, and no assignment in the constructor. */
function bareFields(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isClassLike(node)) {
      const constructor = node.members.find(ts.isConstructorDeclaration)?.body?.getText() ?? '';
      for (const member of node.members) {
        if (!ts.isPropertyDeclaration(member) || member.initializer) continue;
        const modifiers = ts.getModifiers(member) ?? [];
        if (modifiers.some(m => m.kind === ts.SyntaxKind.DeclareKeyword || m.kind === ts.SyntaxKind.AbstractKeyword))
          continue;
        if (constructor.includes(`this.${member.name.getText()} =`)) continue;
        found.push(`${path.relative(SRC, file)}:${node.name?.getText() ?? '(class)'}.${member.name.getText()}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('every class field in src/ has a value, is declared, or is set by the constructor', () => {
  expect(sourceFiles(SRC).flatMap(bareFields)).toEqual([]);
});

test('the check finds such a field', () => {
  const probe = path.join(__dirname, '__probe__.ts');
  const { writeFileSync, rmSync } = jest.requireActual<typeof import('node:fs')>('node:fs');
  writeFileSync(probe, 'class A { x?: number; declare y: number; z = 1; w: number; constructor() { this.w = 1; } }\n');
  try {
    expect(bareFields(probe)).toEqual([expect.stringContaining('A.x')]);
  } finally {
    rmSync(probe);
  }
});
