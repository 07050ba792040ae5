import { configureStore } from '@reduxjs/toolkit';
import { createCache, Entity, RestEndpoint } from 'lenscache';
import { CacheProvider, useLive } from 'lenscache/react';
import { Suspense } from 'react';
import { Provider } from 'react-redux';

export class Stats extends Entity {
  product_id = '';
  last = 0;
  volume = 0;
  override pk() {
    return this.product_id;
  }
  static override key = 'Stats';
}

export const getStats = new RestEndpoint({
  path: '/stats/:product_id',
  schema: Stats,
  pollFrequency: 2_000,
  // A poll that meets a 5xx or a dropped connection tries twice more before storing the error.
  retry: { attempts: 2, delay: attempt => 500 * attempt },
});

export function LiveStats({ product }: { product: string }) {
  // Suspends for the first answer; then every 2 s a poll, and a render only when it changed.
  const stats = useLive(getStats, { product_id: product });
  return (
    <p>
      {product}: {stats.last} (volume {stats.volume})
    </p>
  );
}

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});
// Refetch what is shown and stale when the user comes back to the tab or back online.
cache.setupListeners(store);

export function App() {
  return (
    <Provider store={store}>
      <CacheProvider cache={cache}>
        <Suspense fallback={<p>Loading…</p>}>
          <LiveStats product="BTC" />
        </Suspense>
      </CacheProvider>
    </Provider>
  );
}
