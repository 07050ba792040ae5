// An interleaved A/B of two builds of lenscache through the bench's own adapter and cases: both
// loaded in one process, measured in alternating rounds (the order swapped every round), so they
// meet the same machine load. On a shared machine the medians of the per-round ratios are the
// figures to read; run the same build against itself (A/A) to see the noise.
//
//   npm run build && cp -r dist /tmp/dist-before      (on the base commit)
//   npm run build && NODE_ENV=production node bench/ab.mjs --base=/tmp/dist-before [--new=dist]
//     [--n=1000] [--rounds=20] [--time=<ms per sample>] [--cases='<part of a case name>|…']
//
// --peer=<adapter module> (bench/libs/normalizr.mjs, say) puts a peer in the base's place: the
// build is then measured against that library, case by case, in the same alternating rounds.
//
// Two cases here only (async, one call per sample): the first write as `cache.fetch` makes it,
// its request answered at once (the thunk, the request, the write and the read it resolves to;
// a peer awaits the answer and writes), and the same followed by the first read. Calls of a
// millisecond or more get a turn of the event loop between them, untimed, as an app's writes do.
import { deepStrictEqual } from 'node:assert';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cases, ready, withSetup } from './cases.mjs';
import { makeResponse, plain } from './data.mjs';
import { adapterFor } from './libs/lenscache.mjs';

const option = (name, fallback) => process.argv.find(arg => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const n = Number(option('n', 1000));
const rounds = Number(option('rounds', 20));
const time = Number(option('time', 150));
const only = option('cases', '').split('|').filter(Boolean);
const load = async dir => adapterFor(await import(pathToFileURL(resolve(dir, 'esm/index.js')).href));
const peer = option('peer', '');
const builds = [
  {
    name: 'base',
    create: peer ? (await import(pathToFileURL(resolve(peer)).href)).create : await load(option('base', 'dist')),
  },
  { name: 'new', create: await load(option('new', 'dist')) },
];

const fetchCases = [
  ['write through cache.fetch (answered at once)', 'fetchWrite', null, (lib, data) => lib.fetchWrite(data)],
  ['cache.fetch, then the first read', 'fetchThenRead', null, (lib, data) => lib.fetchThenRead(data)],
];
const isAsync = new Set(fetchCases.map(([caseName]) => caseName));

/** The median time of one call of an async `fn` (calls of milliseconds: no batches), after 2 warmups. */
async function sampleAsync(adapter, data, fn) {
  for (let i = 0; i < 2; i++) {
    await fn(adapter, data);
    await nextTurn();
  }
  const times = [];
  const until = performance.now() + time;
  while (times.length < 5 || performance.now() < until) {
    const start = performance.now();
    await fn(adapter, data);
    times.push(performance.now() - start);
    await nextTurn();
  }
  return median(times);
}

/**
 * A turn of the event loop, between timed calls. A WeakRef made in a job keeps its target alive
 * to the job's end (a cache's collector holds its store that way), and awaiting settled promises
 * never ends the job: without turns every store a run writes stays in memory (4 GB, then a
 * crash, at 10,000 posts) and the collector's work grows round by round.
 */
const nextTurn = () => new Promise(resolve => setImmediate(resolve));

/** The median per-call time of `fn` (a turn of the event loop after each batch of a millisecond or more), timed in batches long enough for the timer (about 50 µs each). */
async function sample(adapter, data, fn) {
  let batch = 1;
  for (;;) {
    const start = performance.now();
    for (let i = 0; i < batch; i++) fn(adapter, data);
    if (performance.now() - start >= 0.05) break;
    batch *= 2;
  }
  const times = [];
  const until = performance.now() + time;
  while (times.length < 5 || performance.now() < until) {
    const start = performance.now();
    for (let i = 0; i < batch; i++) fn(adapter, data);
    const elapsed = performance.now() - start;
    times.push(elapsed / batch);
    // (Calls of microseconds, reads, run on: a turn per batch would cost more than they do.)
    if (elapsed >= 1) await nextTurn();
  }
  return median(times);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function format(ms) {
  if (ms < 0.001) return `${(ms * 1e6).toFixed(0)} ns`;
  if (ms < 1) return `${(ms * 1000).toFixed(1)} µs`;
  return `${ms.toFixed(2)} ms`;
}

const response = makeResponse(n);
const probe = builds[0].create();
const chosen = [...cases(n), ...fetchCases].filter(
  ([caseName, needs]) =>
    typeof probe[needs] === 'function' && (only.length === 0 || only.some(part => caseName.includes(part))),
);
// Both builds must read back the same content before anything is timed.
const [a, b] = builds.map(build => build.create());
ready(a, 'read', 'read', response, n);
ready(b, 'read', 'read', response, n);
deepStrictEqual(plain(b.read()), plain(a.read()), 'the two builds read back different content');

const results = new Map(chosen.map(([caseName]) => [caseName, { base: [], new: [], ratios: [] }]));
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? builds : [...builds].reverse();
  for (const [caseName, needs, before, fn] of chosen) {
    const times = {};
    for (const build of order) {
      const adapter = build.create();
      const data = ready(adapter, caseName, needs, response, n);
      times[build.name] = before
        ? withSetup(adapter, data, before, fn, time)
        : isAsync.has(caseName)
          ? await sampleAsync(adapter, data, fn)
          : await sample(adapter, data, fn);
      await nextTurn();
    }
    const result = results.get(caseName);
    result.base.push(times.base);
    result.new.push(times.new);
    result.ratios.push(times.new / times.base);
  }
  process.stderr.write('.');
}
process.stderr.write('\n');
console.log(
  `N = ${n.toLocaleString('en')}, ${rounds} rounds, medians (new / ${peer ? 'peer' : 'base'}: the median of the per-round ratios, with their interquartile range)\n`,
);
console.log(`| case | ${peer ? 'peer' : 'base'} | new | new / ${peer ? 'peer' : 'base'} |`);
console.log('| --- | ---: | ---: | ---: |');
for (const [caseName, result] of results) {
  const ratios = [...result.ratios].sort((x, y) => x - y);
  const low = ratios[Math.floor(ratios.length * 0.25)];
  const high = ratios[Math.ceil(ratios.length * 0.75) - 1];
  console.log(
    `| ${caseName} | ${format(median(result.base))} | ${format(median(result.new))} | ${median(ratios).toFixed(2)} (${low.toFixed(2)}–${high.toFixed(2)}) |`,
  );
}
