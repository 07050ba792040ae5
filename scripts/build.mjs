// Builds dist/esm (ES modules) and dist/cjs (CommonJS) with tsc, each with its own .d.ts files:
// every entry (lenscache, lenscache/react, lenscache/test) is a folder of src/ built alongside.
// Each folder gets a package.json naming its module type, so Node loads the .js files and
// TypeScript reads the .d.ts files beside them as the same format (ESM types for `import`, CJS
// types for `require`: no types "masquerading" as the other format). The same package.json says
// `"sideEffects": false`, because bundlers read the nearest package.json of a file, not the
// package root's: without it, an unused module with top-level code stays in the bundle.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');

const targets = [
  { out: 'dist/esm', module: 'ES2022', type: 'module' },
  { out: 'dist/cjs', module: 'CommonJS', type: 'commonjs' },
];

rmSync('dist', { recursive: true, force: true });
for (const { out, module, type } of targets) {
  const args = [
    '-p',
    'tsconfig.build.json',
    '--outDir',
    out,
    '--module',
    module,
    '--moduleResolution',
    'bundler',
    '--declaration',
  ];
  execFileSync(process.execPath, [tsc, ...args], { stdio: 'inherit' });
  mkdirSync(out, { recursive: true });
  writeFileSync(`${out}/package.json`, JSON.stringify({ type, sideEffects: false }, null, 2) + '\n');
}
console.log('built dist/esm and dist/cjs (JavaScript, source maps and .d.ts)');
