/**
 * What a bundler makes of the sources (docs/production.md): esbuild bundles them for the browser
 * with `process.env.NODE_ENV` defined, as an application's build does. A production bundle runs
 * in production mode even where no `process` exists, and keeps no development message or check;
 * a development bundle keeps them (so the checks below can fail).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import vm from 'node:vm';

const root = path.resolve(__dirname, '../..');
const esbuild = path.join(root, 'node_modules/.bin/esbuild');

/** Bundles `entry` (code importing from src/) for the browser; esbuild runs as a child process. */
function bundle(entry: string, mode: 'production' | 'development', format: 'esm' | 'iife' = 'esm'): string {
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
      '--external:@reduxjs/toolkit',
      '--external:immer',
      '--external:redux',
      '--external:reselect',
    ],
    { cwd: root, input: entry, encoding: 'utf8' },
  );
}

/** Runs an iife bundle in a context like a browser page's: no `process` at all. */
function runInBrowser(code: string): Record<string, unknown> {
  const context: Record<string, unknown> = { console };
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
