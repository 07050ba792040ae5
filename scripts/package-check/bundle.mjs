// Bundles imports of the installed package with esbuild, as an app would (scripts/check-package.sh;
// run in the scratch project, with the repository's path as argument for esbuild itself). Checks
// that the exports map and "sideEffects" let a bundler drop what an app does not import.
import { createRequire } from 'node:module';
import { join } from 'node:path';

const { build } = createRequire(join(process.argv[2], 'package.json'))('esbuild');
const external = ['react', 'react-dom', 'react-redux', 'redux', '@reduxjs/toolkit', 'immer', 'reselect'];

async function bundle(contents) {
  const result = await build({
    stdin: { contents, resolveDir: process.cwd() },
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    platform: 'browser',
    external,
    define: { 'process.env.NODE_ENV': '"production"' },
    metafile: true,
    logLevel: 'error',
  });
  const [output] = Object.values(result.metafile.outputs);
  return Object.entries(output.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([path]) => path);
}

const everything = await bundle("export * from 'lenscache'; export * from 'lenscache/react';");
if (!everything.some(path => path.includes('node_modules/lenscache/dist/esm/'))) {
  throw new Error(`the bundle did not use dist/esm: ${everything.join(', ')}`);
}
const small = await bundle("export { createCache, Entity } from 'lenscache';");
const kept = small.filter(path => /RestEndpoint|Collection|path-to-regexp/.test(path));
if (kept.length > 0) throw new Error(`createCache + Entity kept code it does not use: ${kept.join(', ')}`);
console.log(
  `esbuild: both entry points bundle from dist/esm; createCache + Entity takes ${small.length} modules, none of REST or Collection`,
);
