/**
 * Schemas a bundle does not use stay out of it: a Collection tells a Union or a Values by its
 * `kind` (schema/collectionMember.ts, polyOf), so an app with lists of one entity type bundles
 * neither; a Collection makes its own page schema, so an app without lists bundles none; and what
 * only tests ask of a feature's object is a function beside its class, not a method the class drags in.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import type { configureStore } from '@reduxjs/toolkit';
import type { createCache, Entity, selectRowStatus } from '../../src/index';

const root = path.resolve(__dirname, '../..');
const esbuild = path.join(root, 'node_modules/.bin/esbuild');
/** An app's production bundle: ES modules for a browser, the peer dependencies left out. */
const PRODUCTION = [
  '--format=esm',
  '--platform=browser',
  '--loader=ts',
  '--define:process.env.NODE_ENV="production"',
  '--external:@reduxjs/toolkit',
  '--external:immer',
  '--external:redux',
  '--external:reselect',
];

/** The source files whose code a production bundle of `entry` keeps. */
function bundledSources(entry: string): string[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lenscache-shaking-'));
  try {
    const meta = path.join(dir, 'meta.json');
    execFileSync(
      esbuild,
      ['--bundle', '--minify', ...PRODUCTION, `--metafile=${meta}`, `--outfile=${path.join(dir, 'out.js')}`],
      { cwd: root, input: entry },
    );
    const { outputs } = JSON.parse(readFileSync(meta, 'utf8')) as {
      outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
    };
    const [output] = Object.values(outputs);
    return Object.entries(output!.inputs)
      .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
      .map(([source]) => source);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a bundle with Collection but neither Union nor Values keeps neither class, nor Polymorphic', () => {
  const sources = bundledSources(`export { Collection, Entity, createCache } from './src/index.ts';`);
  expect(sources.some(source => source.endsWith('schema/Collection.ts'))).toBe(true);
  expect(sources.filter(source => /schema\/(Union|Values|polymorphic)\.ts$/.test(source))).toEqual([]);
});

test('a bundle that uses Values and Union keeps them', () => {
  const sources = bundledSources(`export { Collection, Union, Values } from './src/index.ts';`);
  expect(sources.filter(source => /schema\/(Union|Values)\.ts$/.test(source)).sort()).toEqual([
    'src/schema/Union.ts',
    'src/schema/Values.ts',
  ]);
});

test('a bundle with RestEndpoint but no Collection keeps no page schema (a Collection makes its own)', () => {
  const sources = bundledSources(`export { RestEndpoint, Entity, createLeanCache } from './src/index.ts';`);
  expect(sources.some(source => source.endsWith('rest/pagination.ts'))).toBe(true);
  expect(sources.filter(source => /schema\/Collection(Page)?\.ts$/.test(source))).toEqual([]);
});

/** The code a production bundle of `entry` keeps, with its names (whitespace and syntax minified only). */
function bundledCode(entry: string): string {
  return execFileSync(esbuild, ['--bundle', '--minify-whitespace', '--minify-syntax', ...PRODUCTION], {
    cwd: root,
    input: entry,
    encoding: 'utf8',
  });
}

test('what only tests ask (the period a key is polled at, how many are, the confirmed state, how many guesses are pending, how full a cache is) stays out of a bundle', () => {
  const code = bundledCode(`export { createCache } from './src/index.ts';`);
  expect(code).toMatch(/\bPollers=class\b/);
  expect(code).toMatch(/\bOptimistic=class\b/);
  expect(code).not.toMatch(
    /pollPeriod|confirmedUnder|frequency\(|confirmed\(|size\(\)\{return this\.pollers|pending\(\)\{return this\.layers|size\(\)\{return this\.map\.size/,
  );
});

test('row statuses stay out of a bundle that does not ask for them, and come with the hook that does', () => {
  const without = bundledSources(
    `export { createCache } from './src/index.ts'; export { useQuery } from './src/react/index.ts';`,
  );
  expect(without.filter(source => /rowStatus|useRowStatus/.test(source))).toEqual([]);
  const withHook = bundledSources(`export { useRowStatus } from './src/react/index.ts';`);
  expect(withHook.filter(source => /rowStatus|useRowStatus/.test(source)).sort()).toEqual([
    'src/react/useRowStatus.ts',
    'src/store/reads/rowStatus.ts',
  ]);
});

test('a production bundle that imports selectRowStatus records failures (its module hooks into the ledger as it loads); one that does not holds no hook', () => {
  const code = execFileSync(
    esbuild,
    [
      '--bundle',
      '--minify',
      ...PRODUCTION.filter(arg => !arg.startsWith('--external')),
      '--format=iife',
      '--global-name=bundled',
    ].filter(arg => arg !== '--format=esm'),
    {
      cwd: root,
      input: `export { createCache, Entity, selectRowStatus } from './src/index.ts'; export { configureStore } from '@reduxjs/toolkit';`,
      encoding: 'utf8',
    },
  );
  const context: Record<string, unknown> = { console, setTimeout, clearTimeout, queueMicrotask, AbortController };
  vm.runInNewContext(`${code};globalThis.bundled = bundled;`, context);
  const lib = context.bundled as {
    createCache: typeof createCache;
    Entity: typeof Entity;
    selectRowStatus: typeof selectRowStatus;
    configureStore: typeof configureStore;
  };
  class Note extends lib.Entity {
    id = '';
    title = '';
    static override key = 'Note';
  }
  const cache = lib.createCache();
  const store = lib.configureStore({
    reducer: { cache: cache.reducer },
    middleware: getDefault => getDefault().concat(cache.middleware),
  });
  store.dispatch(cache.set(Note, { id: '1', title: 'a' }));
  const refused = new Error('refused');
  const rename = {
    key: (id: string) => `PATCH /notes/${id}`,
    schema: Note,
    sideEffect: true,
    fetch: () => Promise.reject(refused),
    getOptimisticResponse: (_: unknown, id: string) => ({ id, title: 'b' }),
  };
  return store.dispatch(cache.fetch(rename, '1')).then(
    () => {
      throw new Error('expected the mutation to fail');
    },
    (error: unknown) => {
      expect(error).toBe(refused);
      expect(lib.selectRowStatus(cache, store.getState(), Note, '1')).toEqual({ saving: false, error: refused });
      expect(bundledCode(`export { createCache } from './src/index.ts';`)).not.toMatch(/\.listener=/);
      expect(code).toMatch(/\.listener=/);
    },
  );
});
