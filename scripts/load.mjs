// Load and memory figures for docs/reliability.md (run: npm run load).
// 1. 100,000 entities in a store with 1,000 subscribed hook selectors (the selector useQuery
//    runs: the read with its precomputed memo key, behind the "same slice, same answer"
//    shortcut; PUBLIC_SELECTOR=1 uses cache.selectQuery instead): time per dispatch.
// 2. Heap after 10,000 lens switches, 10,000 never-seen lenses and 10,000 distinct args: the
//    memo caches are bounded, so the heap levels off.
import { configureStore } from '@reduxjs/toolkit';
import { Collection, createCache, Entity, Query, Scalar, Values } from '../dist/esm/index.js';
import { unlessSliceChanged } from '../dist/esm/react/useResponse.js';
import { internalsOf } from '../dist/esm/store/createCache.js';
import { argsKey } from '../dist/esm/base/json.js';

const gc =
  globalThis.gc ??
  (() => {
    throw new Error('run with node --expose-gc');
  });
const mb = bytes => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const median = values => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

class Row extends Entity {
  id = '';
  label = '';
  value = 0;
  static key = 'Row';
}
class Company extends Entity {
  id = '';
  name = '';
  weight = 0;
  static key = 'Company';
}
const Weight = new Scalar({ lens: args => args[0]?.portfolio, key: 'weight', entity: Company });
Company.schema = { weight: Weight };

function makeStore() {
  const cache = createCache();
  const store = configureStore({
    reducer: {
      [cache.reducerPath]: cache.reducer,
      other: (state = 0, action) => (action.type === 'bump' ? state + 1 : state),
    },
    middleware: getDefault => getDefault({ immutableCheck: false, serializableCheck: false }).concat(cache.middleware),
  });
  return { cache, store };
}

// 1. 100,000 entities, 1,000 subscribers.
{
  const before = heap();
  const { cache, store } = makeStore();
  const rows = Array.from({ length: 100_000 }, (_, i) => ({ id: String(i), label: `row ${i}`, value: i }));
  let start = performance.now();
  store.dispatch(
    cache.setResponse({ key: () => 'GET /rows', schema: new Collection([Row], { argsKey: () => ({}) }) }, rows),
  );
  const writeMs = performance.now() - start;
  const stored = heap() - before;
  const time = run => {
    const samples = [];
    for (let i = 0; i < 200; i++) {
      start = performance.now();
      run(i);
      samples.push(performance.now() - start);
    }
    return median(samples);
  };
  // The write alone, before any subscriber: the cost of copying the 100,000-row table and its meta.
  const bare = time(i => store.dispatch(cache.set(Row, { id: String(90_000 + i), label: 'z', value: i })));
  let changes = 0;
  for (let i = 0; i < 1_000; i++) {
    // As useQuery builds it: the args' memo key computed once, the slice shortcut in front.
    const args = [String(i)];
    const memoKey = argsKey(args);
    const reads = internalsOf(cache);
    const select = process.env.PUBLIC_SELECTOR
      ? unlessSliceChanged(cache, state => cache.selectQuery(state, Row, ...args))
      : unlessSliceChanged(cache, state => reads.query(state, Row, args, memoKey));
    let last = select(store.getState());
    store.subscribe(() => {
      const next = select(store.getState());
      if (next !== last) changes++;
      last = next;
    });
  }
  const other = time(() => store.dispatch({ type: 'bump' }));
  changes = 0;
  const unread = time(i => store.dispatch(cache.set(Row, { id: String(50_000 + i), label: 'x', value: -i })));
  const unreadChanges = changes;
  changes = 0;
  const read = time(i => store.dispatch(cache.set(Row, { id: String(i % 1_000), label: 'y', value: i })));
  console.log('100,000 entities, 1,000 subscribers');
  console.log(`  write of the 100,000: ${writeMs.toFixed(0)} ms; heap for them: ${mb(stored)}`);
  console.log(`  write of one entity, no subscribers: ${(bare * 1000).toFixed(0)} µs`);
  console.log(`  dispatch of another slice's action: ${(other * 1000).toFixed(0)} µs (all 1,000 selectors)`);
  console.log(
    `  write of an entity nobody reads: ${(unread * 1000).toFixed(0)} µs; selectors whose answer changed: ${unreadChanges}`,
  );
  console.log(
    `  write of an entity one subscriber reads: ${(read * 1000).toFixed(0)} µs; changed answers per write: ${changes / 200}`,
  );
}

// 2. Memory over long sessions.
function series(label, steps, run) {
  const base = heap();
  const marks = [];
  for (let i = 0; i < steps; i++) {
    run(i);
    if ((i + 1) % (steps / 4) === 0) marks.push(`${i + 1}: +${mb(heap() - base)}`);
  }
  console.log(`  ${label}: ${marks.join(', ')}`);
}

{
  const { cache, store } = makeStore();
  const list = new Collection([Company], { argsKey: () => ({}) });
  const getList = { key: args => `GET /companies?portfolio=${args?.portfolio}`, schema: list };
  const columns = { key: args => `GET /columns?portfolio=${args?.portfolio}`, schema: new Values(Weight) };
  const companies = Array.from({ length: 1_000 }, (_, i) => ({ id: String(i), name: `c${i}`, weight: i }));
  store.dispatch(cache.setResponse(getList, { portfolio: 'p0' }, companies));
  for (let p = 1; p < 20; p++) {
    store.dispatch(
      cache.setResponse(columns, { portfolio: `p${p}` }, Object.fromEntries(companies.map(c => [c.id, { weight: p }]))),
    );
  }
  const byWeight = new Query(list, (rows, { min } = {}) => rows.filter(row => (row.weight ?? 0) >= min));
  console.log('memory (1,000 companies, 20 portfolios with cells; heap growth after a full GC)');
  series('10,000 switches among the 20 portfolios', 10_000, i =>
    cache.selectQuery(store.getState(), list, { portfolio: `p${i % 20}` }),
  );
  series('10,000 portfolios never seen before', 10_000, i =>
    cache.selectQuery(store.getState(), list, { portfolio: `new${i}` }),
  );
  series('10,000 distinct args of a Query', 10_000, i =>
    cache.selectQuery(store.getState(), byWeight, { portfolio: 'p1', min: i }),
  );
}
