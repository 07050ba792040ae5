// Writes with optimistic guesses pending (docs/benchmarks.md, "Writes with guesses pending"): a
// table of N posts, K renames in flight with guesses (their requests never answer), then the
// median cost of one unrelated write (a ticker row in another table) and of one write of another
// post in the guessed table, for K = 0, 1 and 100.
// Run: npm run build && NODE_ENV=production node scripts/guesses.mjs [dist folder]
import { configureStore } from '@reduxjs/toolkit';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const dist = resolve(process.argv[2] ?? 'dist');
const { createCache, Entity } = await import(pathToFileURL(`${dist}/esm/index.js`).href);

class Post extends Entity {
  id = '';
  title = '';
  static key = 'Post';
}
class Ticker extends Entity {
  id = '';
  price = 0;
  static key = 'Ticker';
}

const rename = {
  key: (...args) => `rename ${JSON.stringify(args)}`,
  schema: Post,
  sideEffect: true,
  fetch: () => new Promise(() => {}),
  getOptimisticResponse: (_snap, { id }, { title }) => ({ id, title }),
};

function median(fn, runs) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    fn(i);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

const rows = [];
for (const n of [10_000, 100_000]) {
  const posts = Array.from({ length: n }, (_, i) => ({ id: String(i), title: `post ${i}` }));
  const base = {};
  for (const k of [0, 1, 100]) {
    const cache = createCache();
    const store = configureStore({
      reducer: { cache: cache.reducer },
      middleware: d => d({ serializableCheck: false, immutableCheck: false }).concat(cache.middleware),
    });
    store.dispatch(cache.set([Post], posts));
    store.dispatch(cache.set(Ticker, { id: 't', price: 0 }));
    for (let i = 0; i < k; i++)
      store.dispatch(cache.fetch(rename, { id: String(i) }, { title: `guess ${i}` })).catch(() => {});
    const runs = n >= 100_000 ? 15 : 41;
    const other = median(i => store.dispatch(cache.set(Ticker, { id: 't', price: i + 1 })), runs);
    const same = median(i => store.dispatch(cache.set(Post, { id: String(n - 1 - i), title: `edit ${i}` })), runs);
    if (k === 0) Object.assign(base, { other, same });
    rows.push({ n, k, other, same, otherRatio: other / base.other, sameRatio: same / base.same });
  }
}
console.log('| rows | guesses pending | write to another table | ratio | write to the guessed table | ratio |');
console.log('| ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows)
  console.log(
    `| ${r.n.toLocaleString('en')} | ${r.k} | ${r.other.toFixed(3)} ms | ${r.otherRatio.toFixed(1)}× | ${r.same.toFixed(3)} ms | ${r.sameRatio.toFixed(1)}× |`,
  );
