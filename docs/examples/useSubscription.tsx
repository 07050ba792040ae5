import { configureStore } from '@reduxjs/toolkit';
import { createCache, Entity, RestEndpoint } from 'lenscache';
import { CacheProvider, useCache, useSubscription } from 'lenscache/react';
import { Provider } from 'react-redux';

export class Price extends Entity {
  id = '';
  value = 0;
  static override key = 'Price';
}

// Subscribers poll it every 5 s; a header and a table reading the same price share one poller.
export const getPrice = new RestEndpoint({ path: '/prices/:id', schema: Price, pollFrequency: 5_000 });

export function PriceBadge({ id }: { id: string }) {
  // Keeps the price fresh while mounted; reads it without suspending.
  useSubscription(getPrice, { id });
  const price = useCache(getPrice, { id }); // Price | undefined until the first answer
  return <span>{price ? price.value.toFixed(2) : '…'}</span>;
}

export function Watch({ id, watching }: { id: string; watching: boolean }) {
  // null params: no subscription (and no poll) while not watching.
  useSubscription(getPrice, watching ? { id } : null);
  return null;
}

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

export function App() {
  return (
    <Provider store={store}>
      <CacheProvider cache={cache}>
        <PriceBadge id="BTC" />
        <Watch id="ETH" watching={false} />
      </CacheProvider>
    </Provider>
  );
}
