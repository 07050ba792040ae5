// npm run bench: every library on the same seeded data, one process, medians and ratios to the
// floor. Run with NODE_ENV=production (the npm script sets it). Options: --sizes=1000,10000
// --time=<ms per case> --only=<library name part>.
import { deepStrictEqual } from 'node:assert';
import os from 'node:os';
import { Bench } from 'tinybench';
import { makeColumns, makeResponse, plain } from './data.mjs';
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
const libraries = [floor, lenscache, rtk, normalizr, dataclient, apollo].filter(
  lib => lib === floor || lib.name.includes(only),
);
const LENSES = Array.from({ length: 10 }, (_, i) => `L${i}`);

/** The cases, in table order: [name, what the library must support, setup for each sample, timed fn]. */
function cases(n) {
  let counter = 0;
  const post = () => `p${counter++ % n}`;
  const user = () => `u${counter++ % Math.max(1, Math.floor(n / 10))}`;
  return [
    ['write into an empty store', 'write', null, (lib, data) => lib.write(data)],
    ['same response again (populated store)', 'rewrite', null, (lib, data) => lib.rewrite(data)],
    ['cold read of the nested list', 'read', lib => lib.resetMemo(), lib => lib.read()],
    ['denormalize without memo', 'denormalize', lib => lib.resetMemo?.(), lib => lib.denormalize()],
    ['first read after an identical refetch', 'read', (lib, data) => lib.rewrite(data), lib => lib.read()],
    ['memoized read, unchanged store', 'read', null, lib => lib.read()],
    [
      'update one post, re-read',
      'updatePost',
      null,
      lib => {
        lib.updatePost(post(), `Changed ${counter}`);
        return lib.read();
      },
    ],
    [
      'update one shared user, re-read',
      'updateUser',
      null,
      lib => {
        lib.updateUser(user(), `Renamed ${counter}`);
        return lib.read();
      },
    ],
    ['sorted query, cold', 'sorted', lib => lib.resetMemo(), lib => lib.sorted()],
    ['sorted query, memoized', 'sorted', null, lib => lib.sorted()],
    ['count query, cold', 'count', lib => lib.resetMemo(), lib => lib.count()],
    ['count query, memoized', 'count', null, lib => lib.count()],
    ['groupBy query, cold', 'groupBy', lib => lib.resetMemo(), lib => lib.groupBy()],
    ['groupBy query, memoized', 'groupBy', null, lib => lib.groupBy()],
    [
      'update one post, re-run the sorted query',
      'sorted',
      null,
      lib => {
        lib.updatePost(post(), `Changed ${counter}`);
        return lib.sorted();
      },
    ],
    ['10 lenses, cold', 'readLens', lib => lib.resetMemo(), lib => LENSES.map(lens => lib.readLens(lens))],
    ['10 lenses, memoized', 'readLens', null, lib => LENSES.map(lens => lib.readLens(lens))],
    [
      '10 lenses after one cell of one lens changed',
      'readLens',
      null,
      lib => {
        lib.updateCell('L3', post(), counter);
        return LENSES.map(lens => lib.readLens(lens));
      },
    ],
  ];
}

function prepare(lib, response, n, lens) {
  const data = lib.prepare ? lib.prepare(response) : response;
  if (lens) {
    lib.writeLensList(data);
    for (const name of LENSES) lib.writeColumns(name, makeColumns(n, name));
  } else {
    lib.write(data);
  }
  return data;
}

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
      const lens = caseName.includes('lens');
      const data = prepare(adapter, response, n, lens);
      adapter.read?.();
      if (needs === 'sorted' || lens) lens ? LENSES.forEach(name => adapter.readLens(name)) : adapter.sorted();
      const bench = new Bench({ time, iterations: 5, warmup: true, warmupIterations: 2, warmupTime: 50 });
      bench.add(lib.name, () => fn(adapter, data), before ? { beforeEach: () => before(adapter, data) } : {});
      await bench.run();
      const result = bench.tasks[0].result;
      if (result.state !== 'completed')
        throw new Error(`${lib.name} / ${caseName}: ${result.error?.stack ?? result.state}`);
      row.set(lib.name, result.latency.p50);
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
