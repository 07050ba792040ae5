/**
 * The browser's entry: an empty store takes the state the server's render streamed (the scripts
 * already run, and each one still to come), then React hydrates the page. Nothing is fetched:
 * each boundary's data is in the store before its HTML is.
 */
import { configureStore } from '@reduxjs/toolkit';
import { receiveState } from 'lenscache';
import { CacheProvider } from 'lenscache/react';
import { hydrateRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { App } from './App';
import { cache } from './api';

const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});
receiveState(store, cache);

hydrateRoot(
  document,
  <Provider store={store}>
    <CacheProvider cache={cache}>
      <App />
    </CacheProvider>
  </Provider>,
);
