// The cost of releases in a burst with a tiny gcTime (docs/gc.md, "When sweeps run"): 50,000
// rows kept by one retained list, then 100 detail keys released one per 16 ms frame, with
// gcTime 0. Time is simulated (a clock and a timer queue of its own), so what is measured is
// the work the releases and the sweeps they cause do, not waiting.
// Run: npm run build && NODE_ENV=production node scripts/gc-burst.mjs [path to dist/esm/index.js]
import { configureStore } from '@reduxjs/toolkit';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const entry = process.argv[2] ? pathToFileURL(resolve(process.argv[2])).href : '../dist/esm/index.js';
const { createCache, Entity } = await import(entry);

// A simulated clock: Date.now and setTimeout run on it, timers fire as it moves.
let clock = 1_000_000;
let nextId = 1;
const timers = new Map();
Date.now = () => clock;
globalThis.setTimeout = (fn, delay = 0) => {
  const id = nextId++;
  timers.set(id, { at: clock + Math.max(0, delay), fn });
  return { id, unref() {} };
};
globalThis.clearTimeout = handle => handle && timers.delete(handle.id);
function advance(ms) {
  const end = clock + ms;
  for (;;) {
    let due;
    for (const [id, timer] of timers) if (timer.at <= end && (!due || timer.at < due[1].at)) due = [id, timer];
    if (!due) break;
    timers.delete(due[0]);
    clock = Math.max(clock, due[1].at);
    due[1].fn();
  }
  clock = end;
}

class Item extends Entity {
  id = '';
  label = '';
  static key = 'Item';
}
const ROWS = 50_000;
const RELEASES = 100;
const getItems = { key: () => 'GET /items', schema: [Item] };
const getItem = { key: id => `GET /items/${id}`, schema: Item };

const cache = createCache({ gcTime: 0 });
let sweeps = 0;
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault =>
    getDefault({ immutableCheck: false, serializableCheck: false }).concat(cache.middleware, () => next => action => {
      if (action.type === 'cache/gc') sweeps++;
      return next(action);
    }),
});
const items = Array.from({ length: ROWS }, (_, i) => ({ id: String(i), label: `item ${i}` }));
store.dispatch(cache.setResponse(getItems, items));
cache.retain(store, getItems);
const releases = [];
for (let i = 0; i < RELEASES; i++) {
  store.dispatch(cache.setResponse(getItem, String(i), items[i]));
  releases.push(cache.retain(store, getItem, String(i)));
}
advance(10_000);
sweeps = 0;

const started = performance.now();
for (const release of releases) {
  release();
  advance(16);
}
advance(2_000);
const elapsed = performance.now() - started;
const left = Object.keys(store.getState().cache.endpoints).length;
console.log(
  `${RELEASES} releases at ${ROWS.toLocaleString('en')} rows, gcTime 0: ${elapsed.toFixed(0)} ms, ` +
    `${sweeps} sweeps dispatched, ${left} response(s) left`,
);
