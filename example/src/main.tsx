/** The example app's entry: the store (the cache beside an ordinary slice), the providers, the page. */
import { configureStore, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { createLeanCache, garbageCollection, liveData, optimisticUpdates, retries, setupListeners } from 'lenscache';
import { CacheProvider } from 'lenscache/react';
import { App } from './App';

export interface LoggedRequest {
  n: number;
  method: string;
  url: string;
  status: number | 'failed' | 'pending';
}

/** An ordinary slice beside the cache: the requests this page sent, for the request log. */
const requests = createSlice({
  name: 'requests',
  initialState: [] as LoggedRequest[],
  reducers: {
    sent: (state, action: PayloadAction<LoggedRequest>) => void state.push(action.payload),
    answered: (state, action: PayloadAction<{ n: number; status: LoggedRequest['status'] }>) => {
      const entry = state.find(request => request.n === action.payload.n);
      if (entry) entry.status = action.payload.status;
    },
  },
});

// The features this page uses, listed (docs/features.md): createCache() is the same with all of
// them. A feature left out that an endpoint needs (the polled stats retry) is a set-up error.
const cache = createLeanCache({ features: [garbageCollection, liveData, optimisticUpdates, retries] });
export const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer, requests: requests.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
  // Redux DevTools: on by default with configureStore; every cache write shows as one action.
  devTools: { name: 'lenscache example' },
});
export type RootState = ReturnType<typeof store.getState>;
// Coming back to the tab, or back online: refetch what the page shows that is stale or invalid.
setupListeners(store.dispatch);

// Every request the page sends goes through fetch: log it in the store.
const realFetch = window.fetch.bind(window);
let counter = 0;
window.fetch = async (input, init) => {
  const n = ++counter;
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  store.dispatch(requests.actions.sent({ n, method: init?.method ?? 'GET', url, status: 'pending' }));
  try {
    const response = await realFetch(input, init);
    store.dispatch(requests.actions.answered({ n, status: response.status }));
    return response;
  } catch (error) {
    store.dispatch(requests.actions.answered({ n, status: 'failed' }));
    throw error;
  }
};

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={store}>
      <CacheProvider cache={cache}>
        <App />
      </CacheProvider>
    </Provider>
  </StrictMode>,
);
