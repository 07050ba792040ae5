import { configureStore } from '@reduxjs/toolkit';
import {
  createLeanCache,
  crossTab,
  garbageCollection,
  liveData,
  optimisticUpdates,
  pagination,
  retries,
} from 'lenscache';

// Every feature createCache has, and crossTab: the tabs of this origin share confirmed writes.
const tabs = crossTab();
export const cache = createLeanCache({
  features: [garbageCollection, liveData, optimisticUpdates, retries, pagination, tabs],
});

export const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

/** When the store is thrown away (a test, a micro-frontend unmounting): its channel closes. */
export function dispose() {
  tabs.close(store);
}
