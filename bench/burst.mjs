// A stream's burst at a large table (docs/benchmarks.md, "Bursts"): 20 rows ticking in one task
// into a table of 50,000 Tickers. Before: each message its own write (what connectStream did
// until it wrote a task's messages together; measured here as 20 `set`s). After: connectStream's
// burst. Then the answers of 20 requests (one row each) at 50,000 and 1,000 rows: each answer in
// a task of its own (one write each, as every answer was written before bursts of answers), and
// all 20 in one task (one write: the cache is built with the opt-in bursts() feature). Interleaved
// rounds, medians. Run after `npm run build`:
//   NODE_ENV=production node bench/burst.mjs [--rows=50000] [--rounds=9]
import { configureStore } from '@reduxjs/toolkit';
import {
  bursts,
  connectStream,
  createCache,
  createLeanCache,
  Entity,
  garbageCollection,
  liveData,
  optimisticUpdates,
  pagination,
  retries,
} from '../dist/esm/index.js';

const option = (name, fallback) =>
  Number(process.argv.find(arg => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const ROWS = option('rows', 50_000);
const ROUNDS = option('rounds', 9);
const TICK = 20;

class Ticker extends Entity {
  id = '';
  price = 0;
  static key = 'Ticker';
}

/** A store holding `rows` Tickers; `joined`: its cache is createCache's with bursts() added. */
function makeStore(rows = ROWS, joined = false) {
  const cache = joined
    ? createLeanCache({
        features: [garbageCollection, liveData, optimisticUpdates, retries, pagination, bursts()],
      })
    : createCache();
  const store = configureStore({
    reducer: { [cache.reducerPath]: cache.reducer },
    middleware: getDefault => getDefault({ serializableCheck: false, immutableCheck: false }).concat(cache.middleware),
  });
  store.dispatch(
    cache.set(
      [Ticker],
      Array.from({ length: rows }, (_, i) => ({ id: String(i), price: i })),
    ),
  );
  return { cache, store };
}

const tick = (round, rows = ROWS) =>
  Array.from({ length: TICK }, (_, i) => ({ id: String((round * 7919 + i * 997) % rows), price: round + i }));

const each = makeStore();
const burst = makeStore();
let emit;
connectStream(burst.cache.controller(burst.store), {
  schema: Ticker,
  open: send => ((emit = send), () => undefined),
});

const times = { each: [], burst: [] };
for (let round = 0; round < ROUNDS; round++) {
  const rows = tick(round);
  const order = round % 2 ? ['burst', 'each'] : ['each', 'burst'];
  for (const which of order) {
    const start = performance.now();
    if (which === 'each') for (const row of rows) each.store.dispatch(each.cache.set(Ticker, row));
    else {
      for (const row of rows) emit(row);
      await Promise.resolve();
    }
    times[which].push(performance.now() - start);
  }
}
const median = list => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const check = id => [each, burst].map(({ cache, store }) => cache.selectQuery(store.getState(), Ticker, id)?.price);
const [a, b] = check(tick(ROUNDS - 1)[0].id);
if (a !== b) throw new Error(`the two stores disagree: ${a} and ${b}`);
console.log(
  `${TICK} rows in one task into ${ROWS.toLocaleString('en')} rows, median of ${ROUNDS}: ` +
    `one write per message ${median(times.each).toFixed(1)} ms, one write per burst ${median(times.burst).toFixed(1)} ms`,
);

// Requests: 20 reads of one row each, answered one per task or all in one task.
const answers = [];
const reads = {
  key: ({ id }) => `GET /tickers/${id}`,
  schema: Ticker,
  fetch: () => new Promise(resolve => answers.push(resolve)),
};
const turn = () => new Promise(resolve => setImmediate(resolve));
for (const rows of [ROWS, 1_000]) {
  const { cache, store } = makeStore(rows, true);
  const times = { each: [], burst: [] };
  for (let round = 0; round < ROUNDS * 2; round++) {
    const which = (round + Math.floor(round / 2)) % 2 ? 'burst' : 'each';
    const ticks = tick(round, rows);
    const requests = ticks.map(row => store.dispatch(cache.fetch(reads, { id: row.id })));
    await turn();
    const start = performance.now();
    if (which === 'burst') {
      answers.splice(0).forEach((resolve, i) => resolve(ticks[i]));
      await Promise.all(requests);
    } else {
      for (const [i, resolve] of answers.splice(0).entries()) {
        resolve(ticks[i]);
        await requests[i];
      }
    }
    times[which].push(performance.now() - start);
    const last = ticks[TICK - 1];
    if (cache.selectQuery(store.getState(), Ticker, last.id)?.price !== last.price)
      throw new Error('an answer is missing');
  }
  console.log(
    `${TICK} request answers into ${rows.toLocaleString('en')} rows, median of ${ROUNDS}: ` +
      `one write per answer ${median(times.each).toFixed(1)} ms, one write per task ${median(times.burst).toFixed(1)} ms`,
  );
}
