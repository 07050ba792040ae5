'use client';
/**
 * The store, made once per request on the server and once per page in the browser. On the server,
 * before each batch of HTML Next sends, useServerInsertedHTML writes a script with what the store
 * wrote since the last one (streamState), so a boundary's data reaches the browser before its
 * HTML; in the browser, receiveState merges those scripts into the store, before and after
 * hydration starts.
 */
import { configureStore } from '@reduxjs/toolkit';
import { receiveState, streamState } from 'lenscache';
import { CacheProvider } from 'lenscache/react';
import { useServerInsertedHTML } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { cache } from '../lib/api';

/** Where the server's store fetches the API: this app's own route handlers, by an internal address. */
const API_ORIGIN = process.env.API_ORIGIN ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;

function makeServerStore() {
  return configureStore({
    reducer: { [cache.reducerPath]: cache.reducer },
    middleware: getDefault => getDefault().concat(cache.middlewareWith({ baseUrl: API_ORIGIN })),
  });
}

type Store = ReturnType<typeof makeServerStore>;

let browserStore: Store | undefined;

/** The browser's one store: made on first use, taking the scripts already run and each one to come. */
function getBrowserStore(): Store {
  if (!browserStore) {
    browserStore = configureStore({
      reducer: { [cache.reducerPath]: cache.reducer },
      middleware: getDefault => getDefault().concat(cache.middleware),
    });
    receiveState(browserStore, cache);
  }
  return browserStore;
}

export function StoreProvider({ children }: { children: ReactNode }) {
  const [store] = useState(() => (typeof window === 'undefined' ? makeServerStore() : getBrowserStore()));
  // Only on the server (the hook does nothing in the browser): one stream of the store's changes.
  const [stream] = useState(() => (typeof window === 'undefined' ? streamState(store, cache) : undefined));
  useServerInsertedHTML(() => {
    const code = stream?.code();
    return code ? <script dangerouslySetInnerHTML={{ __html: code }} /> : null;
  });
  return (
    <Provider store={store}>
      <CacheProvider cache={cache}>{children}</CacheProvider>
    </Provider>
  );
}
