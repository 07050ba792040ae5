/**
 * The layer rules of docs/architecture.md, checked on the source: imports flow one way between
 * the folders of src/, each outside package is used only by the layer that owns it, every throw
 * goes through the error module, and no file outgrows the size the house style allows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SRC = path.join(__dirname, '../../src');

/** What each folder may import (itself included). */
const ALLOWED: Record<string, readonly string[]> = {
  base: ['base'],
  schema: ['base', 'schema'],
  normalize: ['base', 'schema', 'normalize'],
  denormalize: ['base', 'schema', 'denormalize'],
  memo: ['base', 'schema', 'normalize', 'denormalize', 'memo'],
  rest: ['base', 'schema', 'rest'],
  store: ['base', 'schema', 'normalize', 'denormalize', 'memo', 'rest', 'store'],
  react: ['base', 'schema', 'normalize', 'denormalize', 'memo', 'rest', 'store', 'react'],
  '.': ['base', 'schema', 'normalize', 'denormalize', 'memo', 'rest', 'store', '.'],
};

/** Which folders may import each outside package. */
const PACKAGES: Record<string, readonly string[]> = {
  '@reduxjs/toolkit': ['store'],
  immer: ['store'],
  react: ['react'],
  'react-redux': ['react'],
};

const MAX_LINES = 300;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const files = sourceFiles(SRC).map(file => ({
  file: path.relative(SRC, file),
  folder: path.dirname(path.relative(SRC, file)).split(path.sep)[0]!,
  text: readFileSync(file, 'utf8'),
}));

function importsOf(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gms)) found.push(match[1]!);
  for (const match of text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) found.push(match[1]!);
  return found;
}

test('the source has every layer', () => {
  expect(new Set(files.map(f => f.folder))).toEqual(new Set(Object.keys(ALLOWED)));
});

test.each(files.map(f => [f.file, f] as const))(
  '%s imports only from the layers before it',
  (_, { file, folder, text }) => {
    const wrong: string[] = [];
    for (const spec of importsOf(text)) {
      if (spec.startsWith('.')) {
        const target = path.relative(SRC, path.resolve(SRC, path.dirname(file), spec));
        const targetFolder = target.includes(path.sep) ? target.split(path.sep)[0]! : '.';
        if (!ALLOWED[folder]!.includes(targetFolder)) wrong.push(`${spec} (${targetFolder}/)`);
      } else {
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        const owners = PACKAGES[name];
        if (!owners) wrong.push(`${spec} (a package no layer owns)`);
        else if (!owners.includes(folder)) wrong.push(`${spec} (owned by ${owners.join(', ')}/)`);
      }
    }
    expect(wrong).toEqual([]);
  },
);

test.each(files.map(f => [f.file, f] as const))(
  '%s throws only errors made by the error module',
  (_, { file, text }) => {
    if (file === path.join('base', 'errors.ts')) return;
    // String literals (messages that tell users to throw an Error) are not code.
    const code = text.replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
    const raw = [...code.matchAll(/\bnew (Error|TypeError|RangeError|SyntaxError)\(/g)].map(match => match[0]);
    expect(raw).toEqual([]);
  },
);

test.each(files.map(f => [f.file, f] as const))('%s stays within the size the house style allows', (_, { text }) => {
  expect(text.replace(/\n$/, '').split('\n').length).toBeLessThanOrEqual(MAX_LINES);
});

/**
 * Module-level state that can grow: a `let`, or an empty Map or Set filled later. Outside base/
 * there is none: per-object facts live in WeakMaps and WeakSets keyed by the object they describe
 * (gone with it), bounded caches are base/Lru.ts's classes, and everything else has an owner
 * per store or per cache (docs/architecture.md, "Who owns what").
 */
function growingModuleState(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [
    ...code.matchAll(/^(?:export\s+)?(?:let|var)\s+\w+/gm),
    ...code.matchAll(/^(?:export\s+)?const\s+\w+(?:\s*:[^=]+)?\s*=\s*new\s+(?:Map|Set)\b(?:<[^>]*>)?\(\s*\)/gm),
  ].map(match => match[0]);
}

test.each(files.filter(f => f.folder !== 'base').map(f => [f.file, f] as const))(
  '%s keeps no growing module-level state',
  (_, { text }) => {
    expect(growingModuleState(text)).toEqual([]);
  },
);

test('the checks can fail: a back import, a raw throw and module state are caught', () => {
  expect(importsOf("import { x } from '../store/createCache.js';\nexport type { Y } from './y.js';")).toEqual([
    '../store/createCache.js',
    './y.js',
  ]);
  expect(ALLOWED['schema']).not.toContain('store');
  expect(/\bnew (Error|TypeError|RangeError|SyntaxError)\(/.test("throw new Error('x')")).toBe(true);
  expect(
    growingModuleState('let count = 0;\nconst seen = new Map<string, number>();\nconst ok = new WeakMap();'),
  ).toEqual(['let count', 'const seen = new Map<string, number>()']);
});
