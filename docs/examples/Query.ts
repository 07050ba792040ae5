import { configureStore } from '@reduxjs/toolkit';
import { All, Collection, createCache, Entity, Query } from 'lenscache';

export class User extends Entity {
  id = '';
  name = '';
  isAdmin = false;
  static override key = 'User';
}
export class Post extends Entity {
  id = '';
  title = '';
  createdAt = '';
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

// One list per group: `orderBy` only sorts, so it is left out of the list's key.
export const posts = new Collection([Post], { argsKey: ({ group }) => ({ group }) });

// Sorted by an `orderBy` arg when there is one; a create through posts.push keeps it sorted.
export const sortedPosts = new Query(posts, (entries, { orderBy }: { orderBy?: 'title' | 'createdAt' } = {}) =>
  orderBy ? [...entries].sort((a, b) => a[orderBy].localeCompare(b[orderBy])) : entries,
);

// A count: undefined until a User table exists, so "nothing cached yet" is not 0.
export const userCount = new Query(new All(User), (users, { isAdmin }: { isAdmin?: boolean } = {}) =>
  isAdmin === undefined ? users.length : users.filter(user => user.isAdmin === isAdmin).length,
);

// Group-by: posts by author id, in table order.
export const postsByUser = new Query(new All(Post), entries => {
  const groups: Record<string, Post[]> = {};
  for (const post of entries) (groups[post.author.id] ??= []).push(post);
  return groups;
});

// A join across entity types, with a fallback from one to the other.
export const price = new Query({ ticker: Ticker, stats: Stats }, ({ ticker, stats }) => ticker?.price ?? stats?.last);

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

export function run() {
  const noUsers = cache.selectQuery(store.getState(), userCount); // undefined
  const ann = { id: 'u1', name: 'Ann', isAdmin: true };
  const bob = { id: 'u2', name: 'Bob', isAdmin: false };
  store.dispatch(
    cache.set(posts, { group: 'react' }, [
      { id: '1', title: 'Reducers', createdAt: '2024-03-01', author: ann },
      { id: '2', title: 'Hooks', createdAt: '2024-01-01', author: bob },
    ]),
  );
  store.dispatch(cache.set(posts.push, { group: 'react' }, { id: '3', title: 'Context', createdAt: '2024-02-01', author: ann }));
  store.dispatch(cache.set(Stats, { product_id: 'BTC', last: 64000 }));
  const fromStats = cache.selectQuery(store.getState(), price, { product_id: 'BTC' }); // 64000

  const byTitle = cache.selectQuery(store.getState(), sortedPosts, { group: 'react', orderBy: 'title' });
  store.dispatch(cache.set(Ticker, { product_id: 'BTC', price: 65000 })); // a write the sort does not read
  const state = store.getState();
  const byDate = cache.selectQuery(state, sortedPosts, { group: 'react', orderBy: 'createdAt' });
  return {
    noUsers,
    byTitle: byTitle?.map(post => post.title), // ['Context', 'Hooks', 'Reducers']
    byDate: byDate?.map(post => post.id), // ['2', '3', '1']
    sameResult: cache.selectQuery(state, sortedPosts, { orderBy: 'title', group: 'react' }) === byTitle, // true
    users: cache.selectQuery(state, userCount), // 2
    admins: cache.selectQuery(state, userCount, { isAdmin: true }), // 1
    postIdsByUser: Object.fromEntries(
      Object.entries(cache.selectQuery(state, postsByUser) ?? {}).map(([id, list]) => [id, list.map(post => post.id)]),
    ), // { u1: ['1', '3'], u2: ['2'] }
    fromStats,
    fromTicker: cache.selectQuery(state, price, { product_id: 'BTC' }), // 65000
  };
}
