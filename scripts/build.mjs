// Builds dist/esm (ES modules), dist/cjs (CommonJS) and dist/types (.d.ts) with tsc.
// Each output folder gets a package.json naming its module type, so Node loads both correctly.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');

const targets = [
  { out: 'dist/esm', args: ['--module', 'ES2022', '--moduleResolution', 'bundler'], type: 'module' },
  { out: 'dist/cjs', args: ['--module', 'CommonJS', '--moduleResolution', 'bundler'], type: 'commonjs' },
  {
    out: 'dist/types',
    args: ['--module', 'ES2022', '--moduleResolution', 'bundler', '--declaration', '--emitDeclarationOnly', '--sourceMap', 'false'],
  },
];

rmSync('dist', { recursive: true, force: true });
for (const { out, args, type } of targets) {
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', out, ...args], { stdio: 'inherit' });
  if (type) {
    mkdirSync(out, { recursive: true });
    writeFileSync(`${out}/package.json`, JSON.stringify({ type }, null, 2) + '\n');
  }
}
console.log('built dist/esm, dist/cjs and dist/types');
