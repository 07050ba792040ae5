import { configureStore } from '@reduxjs/toolkit';
import { Collection, createCache, Entity, RestEndpoint } from 'lenscache';
import { CacheProvider, useController, useQuery } from 'lenscache/react';
import { useEffect, useState } from 'react';
import { Provider } from 'react-redux';

export class Post extends Entity {
  id = '';
  title = '';
  static override key = 'Post';
}
export class Ticker extends Entity {
  product_id = '';
  price = 0;
  override pk() {
    return this.product_id;
  }
  static override key = 'Ticker';
}

export const getPosts = new RestEndpoint({ path: '/:group/posts', schema: new Collection([Post]) });

export function NewPost({ group }: { group: string }) {
  const controller = useController();
  const [title, setTitle] = useState('');
  const create = async () => {
    // POSTs, then appends the answer to every cached list of the group: no list refetch.
    await controller.fetch(getPosts.push, { group }, { title });
    setTitle('');
  };
  return (
    <form onSubmit={event => (event.preventDefault(), void create())}>
      <input value={title} onChange={event => setTitle(event.target.value)} />
      <button>Create</button>
    </form>
  );
}

/** A stream's updates, written straight into the cache. */
export function LivePrice({ productId }: { productId: string }) {
  const controller = useController();
  useEffect(() => {
    const source = new EventSource(`/tickers/${productId}/stream`);
    source.onmessage = event => controller.set(Ticker, JSON.parse(event.data));
    return () => source.close();
  }, [controller, productId]);
  const ticker = useQuery(Ticker, productId);
  return <p>{ticker ? ticker.price : '…'}</p>;
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
        <NewPost group="react" />
        <LivePrice productId="BTC" />
      </CacheProvider>
    </Provider>
  );
}
