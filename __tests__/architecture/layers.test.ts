/**
 * The layer rules of docs/architecture.md, checked on the source: imports flow one way between
 * the folders of src/ and form no cycle between files (type-only imports included), each outside
 * package is used only by the layer that owns it, every throw goes through the error module, no
 * module keeps state that could grow, and no file outgrows the size the house style allows.
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
  // The lenscache/test entry: on top of everything, imported by no other layer.
  test: ['base', 'schema', 'normalize', 'denormalize', 'memo', 'rest', 'store', 'react', 'test'],
  '.': ['base', 'schema', 'normalize', 'denormalize', 'memo', 'rest', 'store', '.'],
};

/** Which folders may import each outside package. */
const PACKAGES: Record<string, readonly string[]> = {
  '@reduxjs/toolkit': ['store', 'test'],
  immer: ['store'],
  react: ['react', 'test'],
  'react-redux': ['react', 'test'],
  '@testing-library/react': ['test'],
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
  // `import('./x.js')`: a dynamic import, or an import type (`typeof import('./x.js')`).
  for (const match of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(match[1]!);
  return found;
}

/** Each file (path relative to src/) with the source files it imports, type-only imports included. */
function importGraph(sources: ReadonlyArray<{ file: string; text: string }>): Map<string, string[]> {
  const known = new Set(sources.map(source => source.file));
  const graph = new Map<string, string[]>();
  for (const { file, text } of sources) {
    const targets = importsOf(text)
      .filter(spec => spec.startsWith('.'))
      .map(spec => path.normalize(path.join(path.dirname(file), spec)).replace(/\.js$/, ''))
      .map(base => [`${base}.ts`, path.join(base, 'index.ts')].find(candidate => known.has(candidate)) ?? `${base}.ts`);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * The import cycles of `graph`, each as the files along it, back to its first file: one cycle for
 * every import that closes one in a depth-first walk, so the graph has none exactly when this is empty.
 */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const trail: string[] = [];
  const visit = (file: string): void => {
    trail.push(file);
    for (const target of graph.get(file) ?? []) {
      const at = trail.indexOf(target);
      if (at >= 0) cycles.push([...trail.slice(at), target]);
      else if (!done.has(target) && graph.has(target)) visit(target);
    }
    trail.pop();
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) if (!done.has(file)) visit(file);
  return cycles;
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

test('source files import one another without cycles, type-only imports included', () => {
  // A cycle is reported as its files, e.g. "store/a.ts → store/b.ts → store/a.ts": put the
  // types both need in a file below them (docs/architecture.md, "Layers").
  expect(importCycles(importGraph(files)).map(cycle => cycle.join(' → '))).toEqual([]);
});

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

/** The bounded-map classes: what base/Lru.ts exports. Their instances are caches, with an owner. */
const BOUNDED_MAPS = [...readFileSync(path.join(SRC, 'base', 'Lru.ts'), 'utf8').matchAll(/^export class (\w+)/gm)].map(
  match => match[1]!,
);

/** Where the bracket opening at `at` (`<` or `(`) closes, nested ones included (`=>` is no bracket). */
function closing(code: string, at: number): number {
  const open = code[at]!;
  const close = open === '<' ? '>' : ')';
  let depth = 0;
  for (let i = at; i < code.length; i++) {
    if (code[i] === open) depth++;
    else if (code[i] === close && !(close === '>' && code[i - 1] === '=') && --depth === 0) return i;
  }
  return code.length - 1;
}

/**
 * Module-level state that can grow: a `let`, an empty Map or Set filled later (whatever its type
 * arguments: `new Map<string, WeakRef<Function>>()`), or a bounded map of base/Lru.ts (a cache
 * shared by every store and cache in the process). Outside base/ there is none but the shared
 * caches listed below: per-object facts live in WeakMaps and WeakSets keyed by the object they
 * describe (gone with it), and everything else has an owner per store or per cache
 * (docs/architecture.md, "Who owns what").
 */
function growingModuleState(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found = [...code.matchAll(/^(?:export\s+)?(?:let|var)\s+\w+/gm)].map(match => match[0]);
  const made = new RegExp(
    `^(?:export\\s+)?const\\s+\\w+(?:\\s*:[^=]+(?:=>[^=]+)*)?\\s*=\\s*new\\s+(Map|Set|${BOUNDED_MAPS.join('|')})\\b\\s*`,
    'gm',
  );
  for (const match of code.matchAll(made)) {
    let end = match.index + match[0].length;
    if (code[end] === '<') end = closing(code, end) + 1;
    while (/\s/.test(code[end] ?? '')) end++;
    if (code[end] !== '(') continue;
    const argsEnd = closing(code, end);
    const empty = code.slice(end + 1, argsEnd).trim() === '';
    // A Map or Set made from entries is a constant table; an empty one is filled later.
    if (empty || BOUNDED_MAPS.includes(match[1]!)) found.push(code.slice(match.index, argsEnd + 1));
  }
  return found;
}

/**
 * The module-level caches allowed outside base/, by file and name: each is a bounded map of
 * base/Lru.ts, holds nothing that belongs to one store or one cache (the same answer for every
 * one of them, so sharing it leaks nothing between stores), and has its row, with its bound, in
 * docs/architecture.md's "Who owns what".
 */
const SHARED_CACHES: Record<string, readonly string[]> = {
  // Row key → parsed pk object: a pure function of the string.
  'schema/collectionKey.ts': ['parsed'],
  // Path → compiled template: a pure function of the string.
  'rest/pathParams.ts': ['templates'],
  // Table name → the class last seen with it (weakly), for a development warning only.
  'schema/entityInfo.ts': ['classesByKey'],
};

/** The name of a shared cache `state` makes, if it is one: a const holding a bounded map. */
const cacheName = (state: string): string | undefined =>
  new RegExp(`^(?:export\\s+)?const\\s+(\\w+)[^]*=\\s*new\\s+(?:${BOUNDED_MAPS.join('|')})\\b`).exec(state)?.[1];
const slashed = (file: string): string => file.split(path.sep).join('/');

test.each(files.filter(f => f.folder !== 'base').map(f => [f.file, f] as const))(
  '%s keeps no growing module-level state',
  (_, { file, text }) => {
    const allowed = SHARED_CACHES[slashed(file)] ?? [];
    const state = growingModuleState(text);
    expect(state.filter(found => !allowed.includes(cacheName(found) ?? ''))).toEqual([]);
    // Every allowed cache is still there, and still bounded (so this list cannot go stale).
    expect(allowed.filter(name => !state.some(found => cacheName(found) === name))).toEqual([]);
  },
);

test('every shared cache allowed outside base/ has its row in "Who owns what"', () => {
  const doc = readFileSync(path.join(__dirname, '../../docs/architecture.md'), 'utf8');
  const table = doc.slice(doc.indexOf('## Who owns what'));
  const rows = table.split('\n').filter(line => line.startsWith('|'));
  for (const file of Object.keys(SHARED_CACHES)) {
    expect(rows.filter(row => row.includes(`\`${file}\``)).length).toBeGreaterThan(0);
  }
});

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

test('the checks can fail: an injected import cycle is caught, type-only imports included', () => {
  const injected = [
    { file: path.join('store', 'a.ts'), text: "import type { B } from './b.js';\nexport interface A { b: B }" },
    { file: path.join('store', 'b.ts'), text: "import type { C } from './c.js';\nexport type B = C;" },
    { file: path.join('store', 'c.ts'), text: "export type { A as C } from './a.js';" },
    {
      file: path.join('store', 'd.ts'),
      text: "import type { A } from './a.js';\nexport type D = import('./d2.js').D;",
    },
    { file: path.join('store', 'd2.ts'), text: "export type D = typeof import('./d.js');" },
  ];
  expect(importCycles(importGraph(injected)).map(cycle => cycle.map(slashed))).toEqual([
    ['store/a.ts', 'store/b.ts', 'store/c.ts', 'store/a.ts'],
    ['store/d.ts', 'store/d2.ts', 'store/d.ts'],
  ]);
  // The real source breaks a cycle the same way: one more import closes one.
  const real = files.find(f => slashed(f.file) === 'store/types.ts')!;
  const closed = files.map(f =>
    f === real ? { ...f, text: `${f.text}\nimport type { Cache } from './Cache.js';` } : f,
  );
  expect(importCycles(importGraph(closed)).length).toBeGreaterThan(0);
});

test('the checks can fail: a module-level map with nested type arguments and a bounded map are caught', () => {
  expect(BOUNDED_MAPS).toEqual(expect.arrayContaining(['Lru', 'ClearingMap']));
  expect(
    growingModuleState(
      [
        'const classesByKey = new Map<string, WeakRef<Function>>();',
        'export const handlers: Map<string, (x: number) => void> = new Map<string, (x: number) => void>();',
        'const recent = new Lru<string, Array<Set<number>>>(100);',
        'const parsed = new ClearingMap(50);',
        "const KINDS = new Set(['a', 'b']);",
        'function local() {\n  const scratch = new Map<string, WeakRef<object>>();\n}',
      ].join('\n'),
    ),
  ).toEqual([
    'const classesByKey = new Map<string, WeakRef<Function>>()',
    'export const handlers: Map<string, (x: number) => void> = new Map<string, (x: number) => void>()',
    'const recent = new Lru<string, Array<Set<number>>>(100)',
    'const parsed = new ClearingMap(50)',
  ]);
  // The injected map in a real file fails that file's check.
  const info = files.find(f => slashed(f.file) === 'schema/entityInfo.ts')!;
  const injected = `${info.text}\nconst seenKeys = new Map<string, WeakRef<Function>>();\n`;
  expect(growingModuleState(injected)).toContain('const seenKeys = new Map<string, WeakRef<Function>>()');
});
