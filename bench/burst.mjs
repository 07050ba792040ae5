// A stream's burst at a large table (docs/benchmarks.md, "Bursts"): 20 rows ticking in one task
// into a table of 50,000 Tickers. Before: each message its own write (what connectStream did
// until it wrote a task's messages together; measured here as 20 `set`s). After: connectStream's
// burst. Interleaved rounds, medians. Run after `npm run build`:
//   NODE_ENV=production node bench/burst.mjs [--rows=50000] [--rounds=9]
import { configureStore } from '@reduxjs/toolkit';
import { connectStream, createCache, Entity } from '../dist/esm/index.js';

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

function makeStore() {
  const cache = createCache();
  const store = configureStore({
    reducer: { [cache.reducerPath]: cache.reducer },
    middleware: getDefault => getDefault({ serializableCheck: false, immutableCheck: false }).concat(cache.middleware),
  });
  store.dispatch(
    cache.set(
      [Ticker],
      Array.from({ length: ROWS }, (_, i) => ({ id: String(i), price: i })),
    ),
  );
  return { cache, store };
}

const tick = round =>
  Array.from({ length: TICK }, (_, i) => ({ id: String((round * 7919 + i * 997) % ROWS), price: round + i }));

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
