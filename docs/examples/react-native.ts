import { configureStore } from '@reduxjs/toolkit';
import { createCache, type ListenerSource } from 'lenscache';

// In the app: import { AppState } from 'react-native'; import NetInfo from '@react-native-community/netinfo';
// Here, only the parts of them this file uses.
declare const AppState: {
  addEventListener(type: 'change', listener: (state: string) => void): { remove(): void };
};
declare const NetInfo: {
  addEventListener(listener: (state: { isConnected: boolean | null }) => void): () => void;
};

/** Focus: the app comes back to the foreground. */
export const appFocus: ListenerSource = refetch => {
  const subscription = AppState.addEventListener('change', state => {
    if (state === 'active') refetch();
  });
  return () => subscription.remove();
};

/** Reconnect: a connection after none (`isConnected: null` is "not known yet", not offline). */
export const reconnect: ListenerSource = refetch => {
  let connected = true;
  return NetInfo.addEventListener(state => {
    const now = state.isConnected !== false;
    if (now && !connected) refetch();
    connected = now;
  });
};

const cache = createCache();
export const store = configureStore({
  reducer: { cache: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

/** Call once as the app starts; the function it returns removes both listeners. */
export function listen(): () => void {
  return cache.setupListeners(store, { onFocus: appFocus, onOnline: reconnect });
}
