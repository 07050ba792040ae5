/** The example app's entry: the store (the cache beside ordinary slices), the providers, the page. */
import { configureStore } from '@reduxjs/toolkit';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import {
  bursts,
  createLeanCache,
  crossTab,
  garbageCollection,
  isNetworkError,
  liveData,
  optimisticUpdates,
  outbox,
  pagination,
  retries,
  setupListeners,
} from 'lenscache';
import { CacheProvider } from 'lenscache/react';
import { App } from './App';
import { PostResource } from './api';
import { answerWrites, loggedFetch, requests } from './requestLog';
import { fetchWithRefresh, prepareHeaders, session } from './session';

// The features this page uses, listed (docs/features.md): createCache() is the same with all of
// them but crossTab, outbox and bursts, which this page adds: an edit saved in one tab shows in the
// others (docs/crossTab.md), and the answers that arrive within 16 ms of a burst's first (the first load
// sends a dozen reads at once) are written as one action, one store update (docs/architecture.md,
// "Bursts of answers"; the session panel counts them). A feature left out that an endpoint needs
// (the polled stats retry) is a set-up error.
// Every request carries the session's token, and goes through the request log; a 401 is
// answered by one refresh and one more try (session.ts).
const requestOptions = { prepareHeaders, fetch: fetchWithRefresh(loggedFetch) };
// And the outbox (docs/outbox.md): a post renamed offline waits in localStorage, its new title
// shown, and is saved once the browser is online and someone is logged in (after a reload, the
// page asks for the login first: sent before it, the edit would meet a 401).
const offline = outbox({
  endpoints: { renamePost: PostResource.partialUpdate },
  isOnline: () => navigator.onLine && store.getState().session.token !== null,
  onOnline: resume => {
    window.addEventListener('online', resume);
    // (A login lets the edits go too; the store exists once this runs.)
    queueMicrotask(() => store.subscribe(resume));
    return () => window.removeEventListener('online', resume);
  },
  // A refused save shows on its post (useRowStatus); anything else the outbox reports is logged.
  onError: error => {
    if (!isNetworkError(error)) console.error(error);
  },
});
const cache = createLeanCache({
  features: [
    garbageCollection,
    liveData,
    optimisticUpdates,
    retries,
    pagination,
    crossTab(),
    offline,
    bursts({ window: 16 }),
  ],
  ...requestOptions,
  // A 401 that stands (the refresh was refused, or did not help) empties the store and ends the
  // session: the page shows the login form, which reads nothing protected.
  onUnauthorized: () => store.dispatch(session.actions.loggedOut()),
});
export const store = configureStore({
  reducer: {
    [cache.reducerPath]: cache.reducer,
    session: session.reducer,
    requests: requests.reducer,
    answerWrites: answerWrites.reducer,
  },
  middleware: getDefault => getDefault().concat(cache.middleware),
  // Redux DevTools: on by default with configureStore; every cache write shows as one action.
  devTools: { name: 'lenscache example' },
});
export type RootState = ReturnType<typeof store.getState>;
export type AppDispatch = typeof store.dispatch;
// Coming back to the tab, or back online: refetch what the page shows that is stale or invalid.
setupListeners(store.dispatch);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={store}>
      <CacheProvider cache={cache}>
        <App />
      </CacheProvider>
    </Provider>
  </StrictMode>,
);
