// Where a first write's time goes (docs/benchmarks.md, "Where a write's time goes"). Each part on
// the same response, against an empty store, in interleaved rounds (every part once a round, the
// order turned each round); the figure is the median of the rounds' medians of single calls, the
// set-up of each call (a fresh store, say) and a turn of the event loop after it left out of its time:
//   - normalize: the exported `normalize` against the empty slice, making the patches (dropped at
//     once, or kept until the next call as a store keeps them);
//   - the reducer: the cache's reducer called directly with the write's action;
//   - dispatch: that action dispatched to a fresh `configureStore` (default middleware);
//   - setResponse: the whole write as the thunk makes it (normalize, action, dispatch, reducer);
//   - setResponse followed by the first read (what cache.fetch's read back costs, without the request);
//   - cache.fetch: its request answered at once; the write, then the read it resolves to; and the
//     first `selectQuery` after it, which returns the object the fetch resolved to;
//   - normalizr's `normalize`, and its write as the bench's normalizr adapter makes it.
// `npm run build`, then (development runs RTK's serializability and immutability checks)
//   NODE_ENV=production node scripts/write-parts.mjs [N=1000] [--rounds=7] [--time=<ms a part a round>]
//   NODE_ENV=development node scripts/write-parts.mjs [N]
import { configureStore } from '@reduxjs/toolkit';
import { makeResponse } from '../bench/data.mjs';
import { models } from '../bench/models.mjs';
import { create as normalizrAdapter } from '../bench/libs/normalizr.mjs';
import normalizrPackage from 'normalizr';

const lib = await import('../dist/esm/index.js');
const { Collection, createCache, normalize } = lib;
const option = (name, fallback) => process.argv.find(arg => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const n = Number(process.argv.slice(2).find(arg => !arg.startsWith('--')) ?? 1000);
const rounds = Number(option('rounds', 7));
const time = Number(option('time', n >= 10000 ? 600 : 250));
const data = makeResponse(n);
const { Post } = models(lib);
const posts = new Collection([Post], { argsKey: () => ({}) });
const getPosts = { key: () => 'GET /posts', schema: posts, fetch: () => Promise.resolve(data) };
const { schema: ns } = normalizrPackage;
const u = new ns.Entity('users');
const c = new ns.Entity('comments', { author: u });
const listSchema = [new ns.Entity('posts', { author: u, comments: [c] })];

// The write's action as setResponse dispatches it, kept by a middleware in front of the chain.
let caught;
const fresh = () => {
  const cache = createCache();
  const keep = () => next => action => ((caught = action), next(action));
  const store = configureStore({
    reducer: { cache: cache.reducer },
    middleware: d => d().prepend(keep).concat(cache.middleware),
  });
  return { cache, store };
};
const plainStore = cache =>
  configureStore({ reducer: { cache: cache.reducer }, middleware: d => d().concat(cache.middleware) });
{
  const { cache, store } = fresh();
  store.dispatch(cache.setResponse(getPosts, data));
}
const action = caught;
const empty = fresh().store.getState().cache;
const patches = normalize(posts, data, [], empty).patches.length;

let kept;
/** Each part: [name, set-up (untimed), timed call]. */
const parts = [
  ['store set-up (createCache + configureStore)', () => null, () => plainStore(createCache())],
  ['normalize + patches (exported normalize, empty slice)', () => null, () => normalize(posts, data, [], empty)],
  // As the store keeps what it writes: the rows live on until the next call (the collector's share).
  ['normalize + patches, kept until the next call', () => null, () => (kept = normalize(posts, data, [], empty))],
  [
    'the reducer applying the patches (called directly)',
    () => {
      const cache = createCache();
      return { reducer: cache.reducer, slice: cache.reducer(undefined, { type: '@@init' }) };
    },
    ({ reducer, slice }) => reducer(slice, action),
  ],
  ['dispatch of that action (middleware + reducer)', () => plainStore(createCache()), store => store.dispatch(action)],
  [
    'setResponse, dispatched (the whole write)',
    () => {
      const cache = createCache();
      return { cache, store: plainStore(cache) };
    },
    ({ cache, store }) => store.dispatch(cache.setResponse(getPosts, data)),
  ],
  [
    'setResponse, then the first read (selectQuery)',
    () => {
      const cache = createCache();
      return { cache, store: plainStore(cache) };
    },
    ({ cache, store }) => {
      store.dispatch(cache.setResponse(getPosts, data));
      return cache.selectQuery(store.getState(), posts);
    },
  ],
  [
    'cache.fetch answered at once (write + read back)',
    () => {
      const cache = createCache();
      return { cache, store: plainStore(cache) };
    },
    ({ cache, store }) => store.dispatch(cache.fetch(getPosts)),
  ],
  [
    'the first selectQuery after cache.fetch (the same object)',
    async () => {
      const cache = createCache();
      const store = plainStore(cache);
      await store.dispatch(cache.fetch(getPosts));
      return { cache, store };
    },
    ({ cache, store }) => cache.selectQuery(store.getState(), posts),
  ],
  ["normalizr's normalize", () => null, () => normalizrPackage.normalize(data, listSchema)],
  ['normalizr: normalize + merge (the bench adapter)', () => normalizrAdapter(), adapter => adapter.write(data)],
];

const median = values => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
// A turn of the event loop after each call, untimed, as an app's writes get (bench/ab.mjs, nextTurn).
const nextTurn = () => new Promise(resolve => setImmediate(resolve));
const medians = new Map(parts.map(([name]) => [name, []]));
for (let round = 0; round < rounds; round++) {
  const order = round % 2 ? [...parts].reverse() : parts;
  for (const [name, setup, run] of order) {
    for (let i = 0; i < 2; i++) {
      await run(await setup());
      await nextTurn();
    }
    const times = [];
    const until = performance.now() + time;
    while (times.length < 5 || performance.now() < until) {
      const context = await setup();
      const start = performance.now();
      await run(context);
      times.push(performance.now() - start);
      await nextTurn();
    }
    medians.get(name).push(median(times));
  }
  process.stderr.write('.');
}
process.stderr.write('\n');
const whole = median(medians.get('setResponse, dispatched (the whole write)'));
const reference = median(medians.get("normalizr's normalize"));
console.log(
  `N = ${n.toLocaleString('en')}, NODE_ENV=${process.env.NODE_ENV}, ${rounds} rounds, ${patches.toLocaleString('en')} patches; median of the rounds' medians (range of the rounds)\n`,
);
console.log("| part | time | of setResponse | / normalizr's normalize |");
console.log('| --- | ---: | ---: | ---: |');
for (const [name, values] of medians) {
  const ms = median(values);
  const range = `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;
  console.log(
    `| ${name} | ${ms.toFixed(2)} ms (${range}) | ${Math.round((ms / whole) * 100)}% | ${(ms / reference).toFixed(2)} |`,
  );
}
