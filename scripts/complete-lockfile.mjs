// Completes package-lock.json where this machine's npm registry mirror lacks the prebuilt
// packages of other platforms: npm then leaves their entries out of the lockfile, and `npm ci`
// refuses it as out of sync. Each missing optional platform package gets the entry npm writes on
// a machine that can see it (version, os, cpu, libc), so `npm ci` accepts the lockfile and skips
// the package on platforms it does not fit. Run after `npm install` changes the lockfile.
import { readFileSync, writeFileSync } from 'node:fs';

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const packages = lock.packages;
const OS = {
  android: 'android',
  darwin: 'darwin',
  freebsd: 'freebsd',
  linux: 'linux',
  openharmony: 'openharmony',
  win32: 'win32',
};
const CPU = {
  arm: 'arm',
  arm64: 'arm64',
  x64: 'x64',
  ia32: 'ia32',
  loong64: 'loong64',
  ppc64: 'ppc64',
  riscv64: 'riscv64',
  s390x: 's390x',
};
let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const target = `node_modules/${name}`;
    if (packages[target]) continue;
    const [os, cpu, abi] = name
      .split('/')
      .pop()
      .split('-')
      .slice(-3)
      .reduce(
        (found, part) => {
          if (OS[part]) found[0] = OS[part];
          else if (CPU[part]) found[1] = CPU[part];
          else found[2] = part;
          return found;
        },
        [undefined, undefined, undefined],
      );
    if (!os || !cpu) throw new Error(`cannot tell the platform of ${name} (needed by ${path})`);
    const added_entry = { version, cpu: [cpu], dev: entry.dev, license: entry.license, optional: true, os: [os] };
    if (abi === 'gnu' || abi === 'gnueabihf') added_entry.libc = ['glibc'];
    if (abi === 'musl' || abi === 'musleabihf') added_entry.libc = ['musl'];
    if (!added_entry.dev) delete added_entry.dev;
    packages[target] = added_entry;
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync('package-lock.json', JSON.stringify(lock, null, 2) + '\n');
console.log(`added ${added} lockfile entries for optional platform packages`);
