import { configureStore } from '@reduxjs/toolkit';
import { createCache, Entity, RestEndpoint } from 'lenscache';
import { CacheProvider, useCache, useSuspense } from 'lenscache/react';
import { Suspense } from 'react';
import { Provider } from 'react-redux';

export class User extends Entity {
  id = '';
  name = '';
  static override key = 'User';
}

export const getCurrentUser = new RestEndpoint({ path: '/me', schema: User });

export function Greeting() {
  // Shown once some other part of the app fetched the current user; never fetches itself.
  const me = useCache(getCurrentUser); // User | undefined
  return me ? <p>Hello, {me.name}</p> : null;
}

function Profile() {
  const me = useSuspense(getCurrentUser); // fetches, and suspends until the user lands
  return <h1>{me.name}</h1>;
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
        <Greeting />
        <Suspense fallback={<p>Loading…</p>}>
          <Profile />
        </Suspense>
      </CacheProvider>
    </Provider>
  );
}
