// Long-running patterns with garbage collection off (gcTime: Infinity, as before GC existed) and
// on (gcTime 60 s), for docs/gc.md and docs/reliability.md (run: npm run load:gc).
// Time is simulated: each step moves the clock 100 ms, and a sweep runs every 100 steps (what the
// timer does with a short gap), so 10,000 steps are 1,000 s of a session. Heap after a full GC.
import { configureStore } from '@reduxjs/toolkit';
import { Collection, createCache, Entity, RestEndpoint } from '../dist/esm/index.js';

const gc =
  globalThis.gc ??
  (() => {
    throw new Error('run with node --expose-gc');
  });
const mb = bytes => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
// WeakRef targets stay alive until the current job ends: measure in a new one.
const heap = async () => {
  await new Promise(resolve => setImmediate(resolve));
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const median = values => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

let clock = Date.now();
Date.now = () => clock;
const GC_ON = 60_000;

class Item extends Entity {
  id = '';
  label = '';
  static key = 'Item';
}

function makeStore(gcTime) {
  const cache = createCache({ gcTime });
  const store = configureStore({
    reducer: { [cache.reducerPath]: cache.reducer },
    middleware: getDefault => getDefault({ immutableCheck: false, serializableCheck: false }).concat(cache.middleware),
  });
  const slice = () => store.getState().cache;
  return { cache, store, slice };
}

/** Runs `steps` of `step(i, setup)` with the clock moving and, when GC is on, a sweep every 100 steps. */
async function session(gcTime, steps, step, prepare = () => {}) {
  const base = await heap();
  const setup = makeStore(gcTime);
  prepare(setup);
  for (let i = 0; i < steps; i++) {
    step(i, setup);
    clock += 100;
    if (gcTime !== Infinity && i % 100 === 99) setup.cache.gc(setup.store);
  }
  const state = setup.slice();
  const keys = Object.keys(state.meta).length;
  const rows = Object.values(state.entities).reduce((n, table) => n + Object.keys(table).length, 0);
  const used = (await heap()) - base;
  return { setup, keys, rows, used };
}

async function compare(label, steps, step, prepare) {
  for (const gcTime of [Infinity, GC_ON]) {
    const { keys, rows, used } = await session(gcTime, steps, step, prepare);
    console.log(
      `  ${label}, gcTime ${gcTime === Infinity ? 'Infinity' : '60 s'}: ${keys} request keys, ${rows} rows, heap +${mb(used)}`,
    );
  }
}

const getItem = { key: id => `GET /items/${id}`, schema: Item };

console.log('10,000 steps of each pattern');
// 1. A page per id, visited once (mount, fetch, unmount).
await compare('distinct args read once', 10_000, (i, { cache, store }) => {
  const release = cache.retain(store, getItem, String(i));
  store.dispatch(cache.setResponse(getItem, String(i), { id: String(i), label: `item ${i}` }));
  release();
});
// 2. The same, then invalidated (invalidateAll kept a meta record per key).
await compare('distinct args, then invalidated', 10_000, (i, { cache, store }) => {
  store.dispatch(cache.setResponse(getItem, String(i), { id: String(i), label: `item ${i}` }));
  store.dispatch(cache.invalidate(getItem, String(i)));
});
// 3. Failed requests with large error bodies (a 100 kB page per 404).
const page = 'x'.repeat(100_000);
await compare('404s with 100 kB bodies', 2_000, (i, { cache, store }) => {
  const release = cache.retain(store, getItem, `missing-${i}`);
  // A flat string of its own (a concatenation would share \`page\`'s characters).
  const body = Buffer.from(`${i} ${page}`).toString();
  const error = Object.assign(new Error(`404 for ${i}`), { status: 404, body });
  store.dispatch(cache.setError(getItem, `missing-${i}`, error));
  cache.selectResponse(store.getState(), getItem, `missing-${i}`);
  release();
});
// 4. Mutations with 1 MB bodies (their key holds the body).
const put = {
  key: (id, body) => `PUT /items/${id} ${JSON.stringify(body)}`,
  schema: Item,
  sideEffect: true,
};
const mega = 'y'.repeat(1_000_000);
await compare('PUTs with 1 MB bodies', 100, (i, { cache, store }) => {
  store.dispatch(cache.setResponse(put, '1', { label: `${mega}${i}` }, { id: '1', label: `v${i}` }));
});
// 5. The read memo over a large table written between reads: 100 args of one list, each read
// after a write to the table (each write makes a new copy of the 100,000-row table).
{
  const rows = Array.from({ length: 100_000 }, (_, i) => ({ id: String(i), label: `row ${i}` }));
  const list = new Collection([Item], { argsKey: () => ({}) });
  const getList = { key: args => `GET /items?page=${args.page}`, schema: list };
  const before = await heap();
  const { cache, store } = makeStore(GC_ON);
  store.dispatch(cache.setResponse(getList, { page: 0 }, rows));
  const stored = (await heap()) - before;
  for (let i = 0; i < 100; i++) {
    store.dispatch(cache.set(Item, { id: String(i), label: `changed ${i}` }));
    cache.selectQuery(store.getState(), list, { page: 0, view: i });
  }
  const afterReads = (await heap()) - before;
  store.dispatch(cache.resetEntireStore());
  const afterReset = (await heap()) - before;
  console.log(
    `  read memo, 100,000 rows (${mb(stored)} stored), 100 args each read after a write: heap +${mb(afterReads)}; after resetEntireStore +${mb(afterReset)}`,
  );
}
// 6. Path templates: 100,000 distinct paths.
{
  const before = await heap();
  for (let i = 0; i < 100_000; i++) new RestEndpoint({ path: `/p${i}/:id` }).key({ id: '1' });
  console.log(`  100,000 distinct path templates: heap +${mb((await heap()) - before)}`);
}

// 7. The cost of one write as request keys accumulate. GC off keeps all N (a state holding them
// is restored, since writing them one by one costs O(N²)); GC on writes the N one by one, 100 ms
// apart, and keeps what gcTime covers (600).
function restored(n) {
  const dict = () => Object.create(null);
  const state = {
    entities: { Item: dict() },
    entitiesMeta: { Item: dict() },
    endpoints: dict(),
    meta: dict(),
    lastReset: 0,
  };
  const meta = { fetchedAt: clock, date: clock, expiresAt: clock + 60_000 };
  for (let i = 0; i < n; i++) {
    state.entities.Item[String(i)] = { id: String(i), label: `item ${i}` };
    state.entitiesMeta.Item[String(i)] = meta;
    state.endpoints[`GET /items/${i}`] = String(i);
    state.meta[`GET /items/${i}`] = meta;
  }
  return state;
}
function writeCost(cache, store) {
  const samples = [];
  for (let i = 0; i < 200; i++) {
    const start = performance.now();
    store.dispatch(cache.setResponse(getItem, `w${i % 10}`, { id: `w${i % 10}`, label: `w ${i}` }));
    samples.push(performance.now() - start);
  }
  return `${Object.keys(store.getState().cache.meta).length} keys stored, ${(median(samples) * 1000).toFixed(0)} µs`;
}
console.log('one-entity response write (median of 200) after N request keys were written');
for (const n of [1_000, 10_000, 30_000]) {
  const off = createCache({ gcTime: Infinity });
  const offStore = configureStore({
    reducer: { [off.reducerPath]: off.reducer },
    preloadedState: { cache: restored(n) },
    middleware: getDefault => getDefault({ immutableCheck: false, serializableCheck: false }).concat(off.middleware),
  });
  const { setup } = await session(GC_ON, n, (i, { cache, store }) =>
    store.dispatch(cache.setResponse(getItem, String(i), { id: String(i), label: `item ${i}` })),
  );
  console.log(
    `  N = ${n.toLocaleString('en')}: gcTime Infinity ${writeCost(off, offStore)}; gcTime 60 s ${writeCost(setup.cache, setup.store)}`,
  );
}
