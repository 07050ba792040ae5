import { configureStore } from '@reduxjs/toolkit';
import { Entity, RestEndpoint, createCache, serializeState, type CacheState } from 'lenscache';
import { CacheProvider, useSuspense } from 'lenscache/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { Provider } from 'react-redux';

export class Product extends Entity {
  id = '';
  name = '';
  static override key = 'Product';
}
export const getProduct = new RestEndpoint({ path: '/api/products/:id', schema: Product });
export const cache = createCache();

export function ProductPage({ id }: { id: string }) {
  return <h1>{useSuspense(getProduct, { id }).name}</h1>;
}

/** Server: fetch what the page reads, render it, and embed the cache's slice as safe JSON. */
export async function renderWhole(id: string, apiOrigin: string): Promise<string> {
  const store = configureStore({
    reducer: { [cache.reducerPath]: cache.reducer },
    middleware: getDefault => getDefault().concat(cache.middlewareWith({ baseUrl: apiOrigin })),
  });
  await store.dispatch(cache.fetch(getProduct, { id }));
  const html = renderToString(
    <Provider store={store}>
      <CacheProvider cache={cache}>
        <ProductPage id={id} />
      </CacheProvider>
    </Provider>,
  );
  const state = { [cache.reducerPath]: store.getState()[cache.reducerPath] };
  return `<div id="root">${html}</div>
<script id="state" type="application/json">${serializeState(state)}</script>
<script type="module" src="/client.js"></script>`;
}

/** Browser: the store starts with the server's slice, so hydrating fetches nothing. */
export function hydrateWhole(id: string) {
  const text = document.getElementById('state')!.textContent!;
  const store = configureStore({
    reducer: { [cache.reducerPath]: cache.reducer },
    middleware: getDefault => getDefault().concat(cache.middleware),
    preloadedState: JSON.parse(text) as Record<typeof cache.reducerPath, CacheState>,
  });
  hydrateRoot(
    document.getElementById('root')!,
    <Provider store={store}>
      <CacheProvider cache={cache}>
        <ProductPage id={id} />
      </CacheProvider>
    </Provider>,
  );
}
