// Bundles the example app (example/src/main.tsx) into example/dist/app.js with esbuild.
// `lenscache` and `lenscache/react` resolve to this repository's sources.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export async function buildExample({ production = false } = {}) {
  await build({
    entryPoints: [`${root}example/src/main.tsx`],
    outfile: `${root}example/dist/app.js`,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    sourcemap: true,
    jsx: 'automatic',
    minify: production,
    logLevel: 'warning',
    alias: { 'lenscache/react': `${root}src/react/index.ts`, lenscache: `${root}src/index.ts` },
    define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  await buildExample({ production: process.argv.includes('--production') });
