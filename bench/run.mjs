// npm run bench: every library on the same seeded data, one process, medians and ratios to the
// floor. Run with NODE_ENV=production (the npm script sets it). Options: --sizes=1000,10000
// --time=<ms per case> --only=<library name part>.
import { deepStrictEqual } from 'node:assert';
import os from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Bench } from 'tinybench';
import { makeResponse, plain } from './data.mjs';
import { cases, prepare, ready, withSetup } from './cases.mjs';
import * as floor from './libs/floor.mjs';
import * as lenscache from './libs/lenscache.mjs';
import * as rtk from './libs/rtk.mjs';
import * as normalizr from './libs/normalizr.mjs';
import * as dataclient from './libs/dataclient.mjs';
import * as apollo from './libs/apollo.mjs';

const option = (name, fallback) => process.argv.find(arg => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const sizes = option('sizes', '1000,10000').split(',').map(Number);
const time = Number(option('time', 400));
const only = option('only', '');
// --extra=<module path>[,…]: more adapters with the same shape (a peer built locally, say), measured beside the others.
const extra = await Promise.all(
  option('extra', '')
    .split(',')
    .filter(Boolean)
    .map(path => import(pathToFileURL(resolve(path)).href)),
);
const libraries = [floor, lenscache, rtk, normalizr, dataclient, apollo, ...extra].filter(
  lib => lib === floor || lib.name.includes(only),
);
/** Before timing: every library must have stored and read back the same content. */
function checkContent(n, response) {
  const reference = floor.create();
  prepare(reference, response, n, false);
  const expected = plain(reference.read());
  for (const lib of libraries) {
    const adapter = lib.create();
    prepare(adapter, response, n, false);
    deepStrictEqual(plain(adapter.read()), expected, `${lib.name} read back different content`);
    if (adapter.denormalize)
      deepStrictEqual(plain(adapter.denormalize()), expected, `${lib.name}: denormalize differs`);
    if (adapter.sorted)
      deepStrictEqual(plain(adapter.sorted()), plain(reference.sorted()), `${lib.name}: sorted query differs`);
    if (adapter.readLens) {
      const lensRef = floor.create();
      prepare(lensRef, response, n, true);
      prepare(adapter, response, n, true);
      deepStrictEqual(plain(adapter.readLens('L4')), plain(lensRef.readLens('L4')), `${lib.name}: lens read differs`);
      if (adapter.denormalizeLens)
        deepStrictEqual(
          plain(adapter.denormalizeLens('L7')),
          plain(lensRef.readLens('L7')),
          `${lib.name}: lens read without memo differs`,
        );
    }
  }
}

/** What stays `===` after each kind of write. */
function identities(n, response) {
  const rows = [];
  for (const lib of libraries) {
    const adapter = lib.create();
    const data = prepare(adapter, response, n, false);
    const before = adapter.read();
    adapter.updatePost('p1', 'Identity check');
    const afterPost = adapter.read();
    const untouchedPosts = before.filter((item, i) => i !== 1 && afterPost[i] === item).length;
    adapter.rewrite(lib.prepare ? lib.prepare(response) : data);
    const beforeRefetch = adapter.read();
    adapter.rewrite(lib.prepare ? lib.prepare(response) : data);
    const sameList = adapter.read() === beforeRefetch;
    rows.push(`| ${lib.name} | ${untouchedPosts} of ${n - 1} | ${sameList ? 'yes' : 'no'} |`);
  }
  return rows;
}

/** The median time of `fn` alone, as tinybench measures it (at least 5 samples, `time` ms of them). */
async function plainCase(lib, adapter, data, fn, caseName) {
  const bench = new Bench({ time, iterations: 5, warmup: true, warmupIterations: 2, warmupTime: 50 });
  bench.add(lib.name, () => fn(adapter, data));
  await bench.run();
  const result = bench.tasks[0].result;
  if (result.state !== 'completed')
    throw new Error(`${lib.name} / ${caseName}: ${result.error?.stack ?? result.state}`);
  return result.latency.p50;
}

function format(ms) {
  if (ms < 0.001) return `${(ms * 1e6).toFixed(0)} ns`;
  if (ms < 1) return `${(ms * 1000).toFixed(1)} µs`;
  return `${ms.toFixed(2)} ms`;
}

console.log(
  `Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}, NODE_ENV=${process.env.NODE_ENV}`,
);
for (const n of sizes) {
  const response = makeResponse(n);
  checkContent(n, response);
  const table = new Map();
  for (const [caseName, needs, before, fn] of cases(n)) {
    const row = new Map();
    for (const lib of libraries) {
      const adapter = lib.create();
      if (typeof adapter[needs] !== 'function') continue;
      const data = ready(adapter, caseName, needs, response, n);
      row.set(
        lib.name,
        before ? withSetup(adapter, data, before, fn, time) : await plainCase(lib, adapter, data, fn, caseName),
      );
    }
    table.set(caseName, row);
    process.stderr.write('.');
  }
  process.stderr.write('\n');
  const names = libraries.map(lib => lib.name);
  console.log(
    `\n### N = ${n.toLocaleString('en')} posts (${(n * 3 + Math.floor(n / 10)).toLocaleString('en')} entities at most), medians, ratio to the floor\n`,
  );
  console.log(`| case | ${names.join(' | ')} |`);
  console.log(`| --- | ${names.map(() => '---').join(' | ')} |`);
  for (const [caseName, row] of table) {
    const base = row.get(floor.name);
    const cells = names.map(name => {
      const value = row.get(name);
      if (value === undefined) return 'n/a';
      return name === floor.name ? format(value) : `${format(value)} (${(value / base).toFixed(1)}×)`;
    });
    console.log(`| ${caseName} | ${cells.join(' | ')} |`);
  }
  console.log(`\nIdentity after writes (N = ${n.toLocaleString('en')}):\n`);
  console.log(
    '| library | untouched posts still `===` after one post changed | identical refetch keeps the very same list |',
  );
  console.log('| --- | --- | --- |');
  for (const line of identities(n, response)) console.log(line);
}
