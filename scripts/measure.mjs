// Quick figures (the comparison with other libraries is `npm run bench`): writes N posts, each
// with an author and 2 comments with authors (users drawn from N/10), through a real store, then
// reads the whole nested list back cold, memoized, and after one post changes.
// Run: npm run measure  (builds, then runs with NODE_ENV=production)
import { configureStore } from '@reduxjs/toolkit';
import { createCache, Entity } from '../dist/esm/index.js';
import { makeResponse as response } from '../bench/data.mjs';
import { Post } from '../bench/libs/lenscache.mjs';

function time(fn, runs) {
  const samples = [];
  let value;
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    value = fn(i);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], value };
}

const endpoint = { key: () => 'GET /posts', schema: [Post] };
for (const n of [1000, 3300, 10000]) {
  const data = response(n);
  const entities = n + 2 * n + new Set(data.flatMap(p => [p.author.id, ...p.comments.map(c => c.author.id)])).size;
  const runs = n >= 10000 ? 7 : 15;
  let cache, store;
  const fresh = () => {
    cache = createCache();
    store = configureStore({ reducer: { cache: cache.reducer }, middleware: d => d().concat(cache.middleware) });
  };
  const write = time(() => {
    fresh();
    store.dispatch(cache.setResponse(endpoint, data));
  }, runs);
  const rewrite = time(() => store.dispatch(cache.setResponse(endpoint, response(n))), runs);
  cache.selectResponse(store.getState(), endpoint);
  const warm = time(() => cache.selectResponse(store.getState(), endpoint).data, 1000);
  const update = time(i => {
    store.dispatch(cache.set(Post, { id: 'p1', title: `changed ${i}` }));
    return cache.selectResponse(store.getState(), endpoint).data;
  }, runs);
  // A cold read: a second cache instance over the same state starts with empty memo caches.
  const coldOnly = time(() => {
    const reader = createCache();
    return reader.selectResponse(store.getState(), endpoint).data;
  }, runs);
  console.log(
    `N=${n} (${entities} entities): write into empty store ${write.median.toFixed(2)} ms; ` +
      `same response again ${rewrite.median.toFixed(2)} ms; cold read ${coldOnly.median.toFixed(2)} ms; ` +
      `memoized read ${(warm.median * 1000).toFixed(2)} µs; one post updated + re-read ${update.median.toFixed(2)} ms`,
  );
}

// Collections: pushing one post onto a stored 10,000-post list, against writing the list again.
{
  const { Collection } = await import('../dist/esm/index.js');
  const posts = new Collection([Post]);
  const list = { key: () => 'GET /posts?group=g', schema: posts };
  const data = response(10000);
  const cache = createCache();
  const store = configureStore({ reducer: { cache: cache.reducer }, middleware: d => d().concat(cache.middleware) });
  store.dispatch(cache.setResponse(list, { group: 'g' }, data));
  const changed = () => response(10000).map((p, i) => (i === 0 ? { ...p, title: `moved ${Math.random()}` } : p));
  const rewrite = time(() => store.dispatch(cache.setResponse(list, { group: 'g' }, changed())), 7);
  const push = time(i => {
    store.dispatch(
      cache.set(
        posts.push,
        { group: 'g' },
        { id: `new${i}`, title: 'New', author: { id: 'u1', name: 'User u1' }, comments: [] },
      ),
    );
  }, 15);
  const pushRead = time(i => {
    store.dispatch(
      cache.set(
        posts.push,
        { group: 'g' },
        { id: `more${i}`, title: 'New', author: { id: 'u1', name: 'User u1' }, comments: [] },
      ),
    );
    return cache.selectQuery(store.getState(), posts, { group: 'g' });
  }, 15);
  console.log(
    `Collection of 10,000 posts: refetch with one change ${rewrite.median.toFixed(2)} ms; ` +
      `push one post ${push.median.toFixed(3)} ms (${(rewrite.median / push.median).toFixed(0)}× less); ` +
      `push + re-read the list ${pushRead.median.toFixed(2)} ms`,
  );
}

// Lenses: 1,000 companies with two Scalar fields, columns written for 100 portfolios, then the
// shared list read under each portfolio in turn. Views per row are bounded by lensCacheSize.
{
  const { Collection, Scalar, Values } = await import('../dist/esm/index.js');
  class Company extends Entity {
    id = '';
    name = '';
    price = 0;
    pct = 0;
    shares = 0;
    static key = 'Company';
  }
  const lensScalar = new Scalar({ lens: args => args[0]?.portfolio, key: 'portfolio', entity: Company });
  Company.schema = { pct: lensScalar, shares: lensScalar };
  const list = new Collection([Company], { argsKey: () => ({}) });
  const columns = { key: p => `GET /columns?portfolio=${p.portfolio}`, schema: new Values(lensScalar) };
  const heap = () => {
    globalThis.gc?.();
    return process.memoryUsage().heapUsed / 1e6;
  };
  for (const lensCacheSize of [16, 100]) {
    const cache = createCache({ lensCacheSize });
    const store = configureStore({ reducer: { cache: cache.reducer }, middleware: d => d().concat(cache.middleware) });
    const companies = Array.from({ length: 1000 }, (_, i) => ({ id: `${i}`, name: `Co ${i}`, price: i }));
    store.dispatch(cache.set(list, {}, companies));
    for (let p = 0; p < 100; p++) {
      const cells = {};
      for (let i = 0; i < 1000; i++) cells[i] = { pct: (i + p) / 2000, shares: i * p };
      store.dispatch(cache.setResponse(columns, { portfolio: `P${p}` }, cells));
    }
    const state = store.getState();
    const before = heap();
    const first = time(p => cache.selectQuery(state, list, { portfolio: `P${p}` }), 100);
    const after = heap();
    const again = time(() => cache.selectQuery(state, list, { portfolio: 'P99' }), 100);
    const switched = time(p => cache.selectQuery(state, list, { portfolio: `P${90 + (p % 10)}` }), 100);
    console.log(
      `1,000 companies × 100 lenses (lensCacheSize ${lensCacheSize}): first read per lens ${first.median.toFixed(2)} ms; ` +
        `memoized ${(again.median * 1000).toFixed(2)} µs; switching among 10 recent lenses ${(switched.median * 1000).toFixed(2)} µs; ` +
        `memo heap after 100 lenses ${(after - before).toFixed(1)} MB (≤ ${lensCacheSize} views per company)`,
    );
  }
}
