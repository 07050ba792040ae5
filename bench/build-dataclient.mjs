// Builds data-client's schemas and normalizr from a checkout of its repository into two ES
// modules, for the bench's adapter `bench/libs/dataclient-source.mjs` (the default run's
// data-client column is the npm release 0.10).
//
//   git clone https://github.com/reactive/data-client /tmp/data-client
//   node bench/build-dataclient.mjs /tmp/data-client [/tmp/dataclient-build]
//   NODE_ENV=production DATA_CLIENT_BUILD=/tmp/dataclient-build node bench/run.mjs --extra=bench/libs/dataclient-source.mjs
//
// Bundled with esbuild for Node, NODE_ENV=production (development checks folded away, as in an
// app's production build); each package's own source, the other package resolved to its source.
import { build } from 'esbuild';
import { resolve } from 'node:path';

const [checkout, out = '/tmp/dataclient-build'] = process.argv.slice(2);
if (!checkout) {
  console.error('Usage: node bench/build-dataclient.mjs <checkout of reactive/data-client> [<output folder>]');
  process.exit(1);
}
const packages = resolve(checkout, 'packages');
const alias = {
  '@data-client/normalizr': resolve(packages, 'normalizr/src/index.ts'),
  '@data-client/endpoint': resolve(packages, 'endpoint/src/index.ts'),
};
for (const name of ['endpoint', 'normalizr']) {
  await build({
    entryPoints: [resolve(packages, name, 'src/index.ts')],
    outfile: resolve(out, `${name}.mjs`),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    define: { 'process.env.NODE_ENV': '"production"' },
    alias,
    logLevel: 'warning',
  });
}
console.log(`built ${out}/endpoint.mjs and ${out}/normalizr.mjs`);
