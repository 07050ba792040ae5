// Builds the server-rendered example (example/ssr/) with esbuild and starts it:
// `node example/ssr/start.mjs` (PORT=0 for a free port). `lenscache` resolves to this repository's
// sources; both bundles are development builds, so React reports any hydration mismatch.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));
const shared = {
  bundle: true,
  jsx: 'automatic',
  logLevel: 'warning',
  alias: { 'lenscache/react': `${root}src/react/index.ts`, lenscache: `${root}src/index.ts` },
  define: { 'process.env.NODE_ENV': '"development"' },
};

await build({
  ...shared,
  entryPoints: [`${here}client.tsx`],
  outfile: `${here}dist/client.js`,
  format: 'esm',
  target: 'es2022',
  sourcemap: true,
});
await build({
  ...shared,
  entryPoints: [`${here}server.tsx`],
  outfile: `${here}dist/server.mjs`,
  platform: 'node',
  format: 'esm',
  // React's server build requires Node's modules: give the ES module bundle a require.
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
});
const { startServer } = await import(`${here}dist/server.mjs`);
const url = await startServer(Number(process.env.PORT ?? 3001), `${here}dist/client.js`);
console.log(`Server-rendered example: ${url}`);
