// What a Redux app in development sees: RTK's default checks (immutability, serializability, and
// their "took longer than 32ms" warnings) and the size of each action, as DevTools would
// serialize it. Timing depends on the machine, so this is a script, not a test.
// Run: npm run dev-checks   (options: --sizes=10000,100000 --rounds=5)
import { configureStore, createEntityAdapter, createSlice } from '@reduxjs/toolkit';
import { randomUUID } from 'node:crypto';
import * as lenscache from '../dist/esm/index.js';
import { models } from '../bench/models.mjs';

const { Collection, createCache, Entity } = lenscache;

const option = (name, fallback) => process.argv.find(arg => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const sizes = option('sizes', '10000,100000').split(',').map(Number);
const rounds = Number(option('rounds', 5));

// The bench's posts, authors and comments (bench/models.mjs).
const { Post } = models(lenscache);
class Row extends Entity {
  id = '';
  title = '';
  score = 0;
  static key = 'Row';
}
const rows = new Collection([Row]);

const messages = [];
for (const method of ['warn', 'error'])
  console[method] = (...args) => messages.push(`${method}: ${String(args[0]).split('\n')[0]}`);
const printed = () =>
  messages.length
    ? `${messages.length} warnings, e.g. ${messages[0].replace(/, which is more.*/, '')}`
    : 'nothing printed';
const median = values => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];

const ids = {
  p123: i => `p${i}`,
  123: i => String(i),
  uuid: () => randomUUID(),
};

// `skipSlice`: the options docs/architecture.md gives for large caches.
function cacheStore(skipSlice = false) {
  const cache = createCache();
  const actions = [];
  const record = () => next => action => {
    if (typeof action === 'object') actions.push(action);
    return next(action);
  };
  const checks = skipSlice
    ? { serializableCheck: { ignoredPaths: ['cache'] }, immutableCheck: { ignoredPaths: ['cache'] } }
    : {};
  const store = configureStore({
    reducer: { cache: cache.reducer },
    middleware: d => d(checks).concat(cache.middleware, record),
  });
  return { cache, store, actions };
}

function timeEdits(store, edit, n) {
  const times = [];
  messages.length = 0;
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    store.dispatch(edit(r));
    times.push(performance.now() - start);
  }
  return `${median(times).toFixed(1)} ms (${printed()})`;
}

function loadRows(cache, store, n, idOf, given) {
  const data = given ?? Array.from({ length: n }, (_, i) => ({ id: idOf(i), title: `Row ${i}`, score: i }));
  store.dispatch(cache.setResponse({ key: () => 'GET /rows', schema: rows }, data));
  return data;
}

// 1. A first load, an identical refetch and a changed refetch of nested posts.
for (const [n, users] of [
  [300, 100],
  [1000, 100],
]) {
  const { cache, store } = cacheStore();
  const endpoint = { key: () => 'GET /posts', schema: [Post] };
  const posts = suffix =>
    Array.from({ length: n }, (_, i) => ({
      id: `p${i}`,
      title: `Post ${i}${suffix}`,
      author: { id: `u${i % users}`, name: `User ${i % users}` },
      comments: [0, 1].map(j => ({
        id: `c${i}-${j}`,
        body: `Comment ${j}`,
        author: { id: `u${(i + j + 1) % users}`, name: `User ${(i + j + 1) % users}` },
      })),
    }));
  for (const [label, data] of [
    ['first load', posts('')],
    ['identical refetch', posts('')],
    ['changed refetch', posts(' (edited)')],
  ]) {
    messages.length = 0;
    const start = performance.now();
    store.dispatch(cache.setResponse(endpoint, data));
    const ms = performance.now() - start;
    console.log(`${3 * n + users} entities, ${label}: ${ms.toFixed(1)} ms with dev checks; ${printed()}`);
  }
}

// 2. Action sizes: a one-row edit and a one-item push, as JSON (what DevTools serializes).
console.log('\naction size (JSON bytes: patches + inverse patches)');
for (const n of [100, 1000, 10000]) {
  const { cache, store, actions } = cacheStore();
  loadRows(cache, store, n, ids.p123);
  actions.length = 0;
  store.dispatch(cache.set(Row, { id: 'p5', title: 'Edited', score: -1 }));
  const edit = JSON.stringify(actions.at(-1)).length;
  actions.length = 0;
  store.dispatch(cache.set(rows.push, {}, { id: 'new', title: 'New', score: 0 }));
  const push = JSON.stringify(actions.at(-1)).length;
  console.log(`${n} rows: one-row edit ${edit} B, one-item push ${push} B`);
}

// 3. One-row writes in development with the default configureStore, beside RTK's entity adapter.
console.log(`\none-row write with RTK's default dev checks (median of ${rounds}; messages printed)`);
for (const n of sizes) {
  for (const [style, idOf] of Object.entries(ids)) {
    const { cache, store } = cacheStore();
    const data = loadRows(cache, store, n, idOf);
    const ours = timeEdits(store, r => cache.set(Row, { id: data[(r * 7919) % n].id, title: `Edited ${r}` }), n);
    const skipping = cacheStore(true);
    loadRows(skipping.cache, skipping.store, n, () => 0, data);
    const skipped = timeEdits(
      skipping.store,
      r => skipping.cache.set(Row, { id: data[(r * 7919) % n].id, title: `Edited ${r}` }),
      n,
    );

    const adapter = createEntityAdapter();
    const slice = createSlice({
      name: 'rows',
      initialState: adapter.getInitialState(),
      reducers: { setAll: adapter.setAll, updateOne: adapter.updateOne },
    });
    const rtk = configureStore({ reducer: { rows: slice.reducer } });
    rtk.dispatch(slice.actions.setAll(data));
    const theirs = timeEdits(
      rtk,
      r => slice.actions.updateOne({ id: data[(r * 7919) % n].id, changes: { title: `Edited ${r}` } }),
      n,
    );
    console.log(
      `${n} rows, ids like ${style}:\n  lenscache, default checks: ${ours}\n  lenscache, checks skip the slice: ${skipped}\n  RTK adapter, default checks: ${theirs}`,
    );
  }
}
