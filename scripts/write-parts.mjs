// Where a first write's time goes (docs/benchmarks.md, "Where a write's time goes"): the store set-up, normalize
// with its patches (the exported normalize, against an empty slice), the whole write as the bench
// makes it (set-up, then setResponse dispatched: the reducer applies the patches), and normalizr's
// normalize on the same data. Medians of single calls. `npm run build`, then
//   NODE_ENV=production node scripts/write-parts.mjs [N]
import { configureStore } from '@reduxjs/toolkit';
import normalizrPackage from 'normalizr';
import { makeResponse } from '../bench/data.mjs';
import { models } from '../bench/models.mjs';
const lib = await import('../dist/esm/index.js');
const { Collection, createCache, normalize } = lib;
const n = Number(process.argv[2] ?? 1000);
const data = makeResponse(n);
const { Post } = models(lib);
const posts = new Collection([Post], { argsKey: () => ({}) });
const getPosts = { key: () => 'GET /posts', schema: posts };
const { schema: ns } = normalizrPackage;
const u = new ns.Entity('users');
const c = new ns.Entity('comments', { author: u });
const p = new ns.Entity('posts', { author: u, comments: [c] });
const fresh = () => {
  const cache = createCache();
  const store = configureStore({ reducer: { cache: cache.reducer }, middleware: d => d().concat(cache.middleware) });
  return { cache, store };
};
const empty = fresh().store.getState().cache;
let patches;
const parts = {
  'store setup (createCache + configureStore)': () => fresh(),
  'normalize + patches (exported normalize, empty slice)': () => {
    patches = normalize(posts, data, [], empty);
  },
  'whole write: setup + setResponse dispatched': () => {
    const { cache, store } = fresh();
    store.dispatch(cache.setResponse(getPosts, data));
  },
  'normalizr normalize': () => normalizrPackage.normalize(data, [p]),
};
for (let round = 0; round < 3; round++)
  for (const [name, f] of Object.entries(parts)) {
    for (let i = 0; i < 5; i++) f();
    const t = [];
    const until = performance.now() + 700;
    while (performance.now() < until) {
      const s = performance.now();
      f();
      t.push(performance.now() - s);
    }
    t.sort((a, b) => a - b);
    if (round === 2) console.log(name.padEnd(58), t[t.length >> 1].toFixed(3), 'ms');
  }
console.log('patches:', patches.patches.length);
