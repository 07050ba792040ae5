import { configureStore } from '@reduxjs/toolkit';
import { All, Collection, createCache, Entity, Query, RestEndpoint } from 'lenscache';
import { CacheProvider, useQuery } from 'lenscache/react';
import { Provider } from 'react-redux';

export class User extends Entity {
  id = '';
  name = '';
  static override key = 'User';
}
export class Post extends Entity {
  id = '';
  title = '';
  author = User.fromJS();
  static override key = 'Post';
  static override schema = { author: User };
}
export class Ticker extends Entity {
  product_id = '';
  price = 0;
  override pk() {
    return this.product_id;
  }
  static override key = 'Ticker';
}
export class Stats extends Entity {
  product_id = '';
  last = 0;
  override pk() {
    return this.product_id;
  }
  static override key = 'Stats';
}

export const getPosts = new RestEndpoint({
  path: '/:group/posts',
  searchParams: {} as { orderBy?: 'title' },
  schema: new Collection([Post]),
});
export const sortedPosts = new Query(getPosts.schema, (posts, { orderBy }: { orderBy?: 'title' } = {}) =>
  orderBy ? [...posts].sort((a, b) => a[orderBy].localeCompare(b[orderBy])) : posts,
);
export const userCount = new Query(new All(User), users => users.length);
export const currentPrice = new Query({ ticker: Ticker, stats: Stats }, ({ ticker, stats }) => ticker?.price ?? stats?.last);

export function Sidebar({ group }: { group: string }) {
  const posts = useQuery(sortedPosts, { group, orderBy: 'title' }); // Post[] | undefined
  const users = useQuery(userCount); // number | undefined: undefined until a User is cached
  const price = useQuery(currentPrice, { product_id: 'BTC' }); // number | undefined
  return (
    <aside>
      <p>{users === undefined ? 'no users loaded' : `${users} users`}</p>
      <p>BTC {price ?? '…'}</p>
      <ol>
        {posts?.map(post => (
          <li key={post.id}>{post.title}</li>
        ))}
      </ol>
    </aside>
  );
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
        <Sidebar group="react" />
      </CacheProvider>
    </Provider>
  );
}
