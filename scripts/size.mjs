// `npm run size`: what lenscache adds to an application's bundle. Each entry below is bundled
// from the built package (dist/esm, run `npm run build` first) with esbuild as an app would:
// minified, for the browser, NODE_ENV=production, with the libraries an app already has (React,
// Redux, RTK, Immer, reselect, react-redux) left external. Prints min and gzip sizes per entry,
// then fails (exit 1) when an entry is over its budget or a tree-shaking check finds code that
// the entry does not use. Sizes are deterministic for a given esbuild version.
//
//   node scripts/size.mjs [--json] [--analyze=<entry name>]
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));

const EXTERNAL = ['react', 'react-dom', 'react-redux', 'redux', '@reduxjs/toolkit', 'immer', 'reselect'];

/**
 * Budgets are in bytes of gzip output. The targets are 24 kB for the typical imports and 16 kB for
 * the lean cache; they are not reached yet (docs/benchmarks.md), so each budget is the measured
 * size plus about 1%, to catch growth until the code itself gets smaller (docs/benchmarks.md,
 * "Bundle size", gives the figures and what takes the room).
 */
const entries = [
  {
    name: 'typical (core + hooks)',
    code: `export { createCache, Entity, Collection, Query, Scalar, RestEndpoint } from 'lenscache';
export { useSuspense, useQuery, CacheProvider } from 'lenscache/react';`,
    budget: 36_050,
    // The test helpers (lenscache/test) reach an app's bundle only through their own entry; row
    // statuses (and their recording) only an app that imports them; crossTab, outbox and bursts
    // are opt-in (createCache installs none of them).
    absent: [
      'dist/esm/test/',
      'reads/rowStatus',
      'useRowStatus',
      'store/features/crossTab/',
      'store/features/outbox/',
      'store/features/bursts/',
    ],
  },
  {
    name: 'lean (no gc, live, optimistic, pages)',
    code: `export { createLeanCache, Entity, RestEndpoint } from 'lenscache';
export { useSuspense, CacheProvider } from 'lenscache/react';`,
    budget: 25_060,
    // A cache built without features bundles none of their code.
    absent: [
      'store/features/gc/',
      'store/features/live/',
      'store/features/optimistic/',
      'store/features/retries/',
      'store/features/pages/',
      'store/features/crossTab/',
      'store/features/outbox/',
      'store/features/bursts/',
    ],
  },
  {
    name: 'core, no hooks',
    code: `export { createCache, Entity, Collection, Query, Scalar, RestEndpoint } from 'lenscache';`,
    budget: 35_170,
  },
  {
    name: 'createCache + Entity',
    code: `export { createCache, Entity } from 'lenscache';`,
    budget: 28_590,
    // Sources whose code must be shaken out of this entry (Scalar.js is not among them: the
    // reads share its lens check).
    absent: [
      'rest/',
      'path-to-regexp',
      'schema/Collection',
      'schema/Query.js',
      'schema/Union.js',
      'schema/Values.js',
      'react/',
    ],
  },
  {
    name: 'hooks only',
    code: `export { useSuspense, useQuery, CacheProvider } from 'lenscache/react';`,
    budget: 2_250,
    absent: ['rest/', 'path-to-regexp', 'schema/'],
  },
];

/**
 * Text no production bundle may hold: fragments of development messages from several modules, and
 * development-only code (warnings, the NODE_ENV test itself, which the bundler must have folded).
 * Messages exist only in development builds (docs/errors.md, "Production messages").
 */
const DEVELOPMENT_ONLY = [
  'has no usable pk',
  'Check that the schema matches the response',
  'A cache action could not be applied',
  'is not a valid template',
  'would change from build to build',
  'so its table is named after the class',
  'a 2xx status was expected',
  'was called outside a <CacheProvider>',
  'console.warn',
  // The one-cache-per-path check's development-only class (a field name, which minifiers keep).
  '.mounted',
  'process.env',
  'typeof process',
];

/** Resolves `lenscache` and `lenscache/react` to the built ES modules, as the exports map does. */
const lenscache = {
  name: 'lenscache',
  setup(build) {
    build.onResolve({ filter: /^lenscache(\/react)?$/ }, args => ({
      path: `${root}dist/esm/${args.path === 'lenscache' ? 'index.js' : 'react/index.js'}`,
    }));
  },
};

async function measure(entry) {
  const result = await build({
    stdin: { contents: entry.code, resolveDir: root, loader: 'js' },
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    external: EXTERNAL,
    define: { 'process.env.NODE_ENV': '"production"' },
    metafile: true,
    logLevel: 'silent',
    plugins: [lenscache],
  });
  const code = result.outputFiles[0].contents;
  const inputs = Object.entries(Object.values(result.metafile.outputs)[0].inputs)
    .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
    .map(([path]) => path);
  const found = (entry.absent ?? []).filter(part => inputs.some(path => path.includes(part)));
  const text = new TextDecoder().decode(code);
  const development = DEVELOPMENT_ONLY.filter(fragment => text.includes(fragment));
  return {
    name: entry.name,
    min: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    budget: entry.budget,
    found,
    development,
    metafile: result.metafile,
  };
}

if (!existsSync(`${root}dist/esm/index.js`)) {
  console.error('dist/esm/index.js is missing: run `npm run build` first.');
  process.exit(1);
}

const results = [];
for (const entry of entries) results.push(await measure(entry));

const analyze = process.argv.find(arg => arg.startsWith('--analyze='))?.slice('--analyze='.length);
if (analyze) {
  const result = results.find(r => r.name.startsWith(analyze));
  if (!result) throw new Error(`no entry named ${analyze}`);
  const { analyzeMetafile } = await import('esbuild');
  console.log(await analyzeMetafile(result.metafile, { verbose: false }));
}

const kB = bytes => `${(bytes / 1000).toFixed(1)} kB`;
if (process.argv.includes('--json')) {
  console.log(
    JSON.stringify(
      results.map(({ name, min, gzip, budget, found, development }) => ({
        name,
        min,
        gzip,
        budget,
        found,
        development,
      })),
      null,
      2,
    ),
  );
} else {
  const rows = [
    ['entry', 'min', 'gzip', 'budget (gzip)', ''],
    ...results.map(r => [r.name, kB(r.min), kB(r.gzip), kB(r.budget), r.gzip > r.budget ? 'OVER' : 'ok']),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map(row => row[i].length)));
  for (const row of rows)
    console.log(
      row
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
        .join('  ')
        .trimEnd(),
    );
}

let failed = false;
for (const r of results) {
  if (r.gzip > r.budget) {
    failed = true;
    console.error(`${r.name}: ${r.gzip} B gzip is over its budget of ${r.budget} B.`);
  }
  if (r.found.length > 0) {
    failed = true;
    console.error(`${r.name}: tree shaking kept code it does not use: ${r.found.join(', ')}.`);
  }
  if (r.development.length > 0) {
    failed = true;
    console.error(`${r.name}: the production bundle holds development-only text: ${r.development.join(', ')}.`);
  }
}
process.exit(failed ? 1 : 0);
