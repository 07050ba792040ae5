// What the cache keeps alive (docs/benchmarks.md, "Memory within one job, and after a reset").
// Run: npm run build && NODE_ENV=production node --expose-gc scripts/memory.mjs [--rows=100000] [--steps=200]
//
// 1. A synchronous loop of `set` + reads on a table of `rows` rows, as react-redux runs its
//    selectors after every dispatch of a loop in one event handler. A full GC inside the loop's
//    job shows what the job itself keeps alive (a WeakRef made or dereferenced in a job keeps its
//    target until the job ends); the same GC once the loop returned shows what stays.
// 2. The heap after `resetEntireStore`, against the same store shape never filled.
import { configureStore } from '@reduxjs/toolkit';
import { Collection, createCache, Entity } from '../dist/esm/index.js';

const gc =
  globalThis.gc ??
  (() => {
    throw new Error('run with node --expose-gc');
  });
const option = (name, fallback) => {
  const arg = process.argv.find(a => a.startsWith(`--${name}=`));
  return arg ? Number(arg.slice(name.length + 3)) : fallback;
};
const ROWS = option('rows', 100_000);
const STEPS = option('steps', 200);
const mb = bytes => `${(bytes / 1e6).toFixed(1)} MB`;
/** Heap after a full GC, in the current job. */
const heapNow = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
/** Heap after a full GC, in a new job (what outlives the current one). */
const heapLater = async () => {
  await new Promise(resolve => setImmediate(resolve));
  return heapNow();
};

class Row extends Entity {
  id = '';
  label = '';
  n = 0;
  static key = 'MemRow';
}
const all = new Collection([Row], { argsKey: () => ({}) });
const oneRow = { key: ({ id }) => `GET /rows/${id}`, schema: Row };

function makeStore() {
  const cache = createCache();
  const store = configureStore({
    reducer: { [cache.reducerPath]: cache.reducer },
    middleware: getDefault => getDefault({ immutableCheck: false, serializableCheck: false }).concat(cache.middleware),
  });
  return { cache, store };
}

function fill({ cache, store }) {
  const rows = Array.from({ length: ROWS }, (_, i) => ({ id: `r${i}`, label: `row ${i}`, n: i }));
  store.dispatch(cache.set(all, {}, rows));
  store.dispatch(cache.setResponse(oneRow, { id: 'r1' }, rows[1]));
}

// 1. The synchronous loop.
{
  const target = makeStore();
  fill(target);
  const { cache, store } = target;
  // Read once before measuring, so the memo's first entries are not counted as growth.
  cache.selectQuery(store.getState(), Row, { id: 'r0' });
  cache.selectResponse(store.getState(), oneRow, { id: 'r1' });
  const before = await heapLater();
  let inJob = 0;
  const started = performance.now();
  (() => {
    for (let i = 0; i < STEPS; i++) {
      // A write to another row each step: the table (and its meta table) are copied.
      store.dispatch(cache.set(Row, { id: `r${(i % (ROWS - 2)) + 2}`, label: `step ${i}` }));
      const state = store.getState();
      cache.selectQuery(state, Row, { id: 'r0' });
      cache.selectResponse(state, oneRow, { id: 'r1' });
    }
    inJob = heapNow();
  })();
  const ms = performance.now() - started;
  const after = await heapLater();
  console.log(
    `${STEPS} set + selectQuery + selectResponse steps on ${ROWS.toLocaleString('en')} rows in one job (${ms.toFixed(0)} ms): ` +
      `heap growth at the end of the job ${mb(inJob - before)}, once it returned ${mb(after - before)}`,
  );
}

// 2. After a reset.
{
  const empty = makeStore();
  const emptyHeap = await heapLater();
  empty.cache.selectQuery(empty.store.getState(), Row, { id: 'r0' });
  const target = makeStore();
  fill(target);
  const { cache, store } = target;
  cache.selectQuery(store.getState(), Row, { id: 'r0' });
  cache.selectQuery(store.getState(), all, {});
  cache.selectResponse(store.getState(), oneRow, { id: 'r1' });
  const full = await heapLater();
  store.dispatch(cache.resetEntireStore());
  const reset = await heapLater();
  console.log(
    `${ROWS.toLocaleString('en')} rows read, then resetEntireStore: heap above an empty store ${mb(full - emptyHeap)} filled, ` +
      `${mb(reset - emptyHeap)} after the reset`,
  );
  // Keep both stores alive until here.
  if (!empty.store.getState() || !store.getState()) throw new Error('unreachable');
}
