/**
 * What a bundler makes of the sources (docs/production.md): esbuild bundles them for the browser
 * with `process.env.NODE_ENV` defined, as an application's build does. A production bundle runs
 * in production mode even where no `process` exists, and keeps no development message or check;
 * a development bundle keeps them (so the checks below can fail). What production keeps (a bad
 * action refused whole) is run in a production bundle with Redux Toolkit inside it.
 */
import type { configureStore } from '@reduxjs/toolkit';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import vm from 'node:vm';
import type { createCache, Entity } from '../../src/index';

const root = path.resolve(__dirname, '../..');
const esbuild = path.join(root, 'node_modules/.bin/esbuild');

const LIBRARIES = ['@reduxjs/toolkit', 'immer', 'redux', 'reselect'];

/** Bundles `entry` (code importing from src/) for the browser; esbuild runs as a child process. */
function bundle(
  entry: string,
  mode: 'production' | 'development',
  format: 'esm' | 'iife' = 'esm',
  external = LIBRARIES,
): string {
  return execFileSync(
    esbuild,
    [
      '--bundle',
      '--minify',
      `--format=${format}`,
      '--platform=browser',
      '--target=es2022',
      '--loader=ts',
      `--define:process.env.NODE_ENV="${mode}"`,
      '--global-name=bundled',
      ...external.map(name => `--external:${name}`),
    ],
    { cwd: root, input: entry, encoding: 'utf8' },
  );
}

/** Runs an iife bundle in a context like a browser page's: no `process` at all. */
function runInBrowser(code: string): Record<string, unknown> {
  // (The few globals a page has that the cache and Redux Toolkit use.)
  const context: Record<string, unknown> = { console, setTimeout, clearTimeout, queueMicrotask, AbortController };
  vm.runInNewContext(`${code};globalThis.bundled = bundled;`, context);
  return context.bundled as Record<string, unknown>;
}

const envEntry = `export { isDevelopment, freezeInDevelopment } from './src/base/env.ts';`;

test('a production bundle runs in production mode in a browser, where process does not exist', () => {
  const env = runInBrowser(bundle(envEntry, 'production', 'iife'));
  expect((env.isDevelopment as () => boolean)()).toBe(false);
  expect(Object.isFrozen((env.freezeInDevelopment as (value: object) => object)({}))).toBe(false);
});

test('a development bundle runs in development mode in a browser', () => {
  const env = runInBrowser(bundle(envEntry, 'development', 'iife'));
  expect((env.isDevelopment as () => boolean)()).toBe(true);
  expect(Object.isFrozen((env.freezeInDevelopment as (value: object) => object)({}))).toBe(true);
});

describe('the core bundle', () => {
  const core = `export { createCache, Entity, Collection, Query, Scalar, RestEndpoint, Union, Values, All } from './src/index.ts';`;
  let production: string;
  let development: string;
  beforeAll(() => {
    production = bundle(core, 'production');
    development = bundle(core, 'development');
  });

  // Fragments of messages and of development-only code, from several modules.
  const developmentOnly = [
    'has no usable pk',
    'Check that the schema matches the response',
    'is not a valid template',
    'A cache action could not be applied',
    'would change from build to build',
    'No schema for the polymorphic type',
    'console.warn',
    // The mount check's development-only class (a field name, which minifiers keep).
    '.mounted',
  ];

  test.each(developmentOnly)('a development bundle has %j', fragment => {
    expect(development).toContain(fragment);
  });

  test.each(developmentOnly)('a production bundle has no %j', fragment => {
    expect(production).not.toContain(fragment);
  });

  test('neither bundle reads process: the bundler replaced every NODE_ENV test', () => {
    // (`process` alone is a schema method's name.)
    const readsProcess = /typeof process|process\.env|process\?\./;
    expect(readsProcess.test(production)).toBe(false);
    expect(readsProcess.test(development)).toBe(false);
  });

  test('a production bundle keeps the codes and the docs link', () => {
    expect(production).toContain('MISSING_PK');
    expect(production).toContain('node_modules/lenscache/docs/errors.md');
    expect(production.length).toBeLessThan(development.length * 0.9);
  });
});

describe('a production store', () => {
  // The cache and Redux Toolkit in one bundle, run as a page would run it: no `process`.
  const entry = `export { createCache, Entity } from './src/index.ts'; export { configureStore } from '@reduxjs/toolkit';`;
  interface Bundled {
    createCache: typeof createCache;
    Entity: typeof Entity;
    configureStore: typeof configureStore;
  }
  let production: Bundled;
  let development: Bundled;
  beforeAll(() => {
    production = runInBrowser(bundle(entry, 'production', 'iife', [])) as unknown as Bundled;
    development = runInBrowser(bundle(entry, 'development', 'iife', [])) as unknown as Bundled;
  });

  function storeOf(lib: Bundled) {
    class Note extends lib.Entity {
      id = '';
      text = '';
      tags: string[] = [];
      static override key = 'Note';
    }
    const cache = lib.createCache();
    const store = lib.configureStore({
      reducer: { cache: cache.reducer },
      middleware: getDefault => getDefault().concat(cache.middleware),
    });
    store.dispatch(cache.set(Note, { id: '1', text: 'a', tags: ['x'] }));
    return { cache, store, Note };
  }

  const write = (patches: unknown) => ({ type: 'cache/set', payload: { patches }, meta: { reducerPath: 'cache' } });
  // Development refuses each with a named check; production drops the checks that only name the
  // fault (a patch that is no object), and the applier still fails before anything is returned.
  const malformed: [string, unknown][] = [
    ['patches that are not a list', 'nope'],
    ['a patch that is null', [null]],
    ['a patch that is a number', [5]],
    ['a table replaced by a number', [{ op: 'replace', path: ['entities', 'Note'], value: 5 }]],
    ['a path through a string', [{ op: 'add', path: ['entities', 'Note', '1', 'text', 'x'], value: 1 }]],
    ['an index past the end of a list', [{ op: 'add', path: ['entities', 'Note', '1', 'tags', 5], value: 'y' }]],
    ['the whole slice removed', [{ op: 'remove', path: [] }]],
    [
      'a good patch, then a bad one',
      [
        { op: 'add', path: ['entities', 'Note', '2'], value: { id: '2', text: 'b', tags: [] } },
        { op: 'replace', path: ['lastReset'], value: null },
      ],
    ],
  ];

  test.each(malformed)('%s: refused whole, the slice is the very same object, nothing is printed', (_, patches) => {
    const { cache, store, Note } = storeOf(production);
    const before = store.getState().cache;
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(() => store.dispatch(write(patches) as never)).not.toThrow();
    expect(store.getState().cache).toBe(before);
    expect(cache.selectQuery(store.getState(), Note, '1')?.text).toBe('a');
    expect(cache.selectQuery(store.getState(), Note, '2')).toBeUndefined();
    expect(warn).not.toHaveBeenCalled();
  });

  test('a missing slice is CACHE_NOT_MOUNTED in both builds', () => {
    for (const lib of [production, development]) {
      const { cache, Note } = storeOf(lib);
      let error: { code?: string; message?: string } | undefined;
      try {
        cache.selectQuery({ other: {} }, Note, '1');
      } catch (caught) {
        error = caught as typeof error;
      }
      expect(error?.code).toBe('CACHE_NOT_MOUNTED');
      expect(error?.message).toContain('cache');
    }
  });

  test('two caches at one reducerPath with both middlewares: both builds refuse the store', () => {
    const twoCaches = (lib: Bundled) => () => {
      const first = lib.createCache();
      const second = lib.createCache();
      lib.configureStore({
        reducer: { cache: first.reducer, other: second.reducer },
        middleware: getDefault => getDefault().concat(first.middleware, second.middleware),
      });
    };
    expect(twoCaches(development)).toThrow(expect.objectContaining({ code: 'DUPLICATE_REDUCER_PATH' }));
    expect(twoCaches(production)).toThrow(expect.objectContaining({ code: 'DUPLICATE_REDUCER_PATH' }));
  });
});
