import { configureStore } from '@reduxjs/toolkit';
import { createCache, Entity } from 'lenscache';

// 1. Mount the cache: its reducer at `cache.reducerPath` ('cache'), its middleware after RTK's.
export const cache = createCache();
export const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer /*, ...your reducers */ },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

// 2. Describe the data.
export class User extends Entity {
  id = '';
  name = '';
  static override key = 'User';
}
export class Post extends Entity {
  id = '';
  title = '';
  author = User.fromJS(); // a truthy initialiser makes the field required (see Entity.md)
  static override key = 'Post'; // set it: class names do not survive minification
  static override schema = { author: User };
}

// An endpoint is any object with `key(...args)` and a schema (RestEndpoint builds one from a path).
export const getPost = { key: (params: { id: string }) => `GET /posts/${params.id}`, schema: Post };

export function run() {
  // 3. Write. Each write normalizes, then dispatches one action of Immer patches.
  store.dispatch(cache.set(Post, { id: '1', title: 'Hello', author: { id: 'u1', name: 'Ann' } }));
  store.dispatch(cache.set(Post, '1', (post?: Post) => post && { ...post, title: 'Hi' })); // an updater
  store.dispatch(cache.setResponse(getPost, { id: '2' }, { id: '2', title: 'Again', author: { id: 'u1', name: 'Ann B.' } }));
  // A response to a request that started a minute ago is older than the stored rows: it loses.
  const startedAt = Date.now() - 60_000;
  const oldResponse = { id: '2', title: 'Old', author: 'u1' };
  store.dispatch(cache.resolve(getPost, { args: [{ id: '2' }], response: oldResponse, fetchedAt: startedAt }));
  store.dispatch(cache.setError(getPost, { id: '3' }, new Error('offline')));

  // 4. Read. Reads are memoized, and give undefined (never a throw) for what is not cached.
  const post = cache.selectQuery(store.getState(), Post, '1'); // Post | undefined
  const second = cache.selectResponse(store.getState(), getPost, { id: '2' });
  const failed = cache.selectResponse(store.getState(), getPost, { id: '3' });
  store.dispatch(cache.set(Post, { id: '9', title: 'Elsewhere', author: 'u1' }));
  return {
    title: post?.title, // 'Hi'
    author: post?.author.name, // 'Ann B.': one User row, updated by the later write
    secondTitle: second.data?.title, // 'Again'
    secondStatus: second.expiryStatus, // 'valid'
    error: failed.error?.message, // 'offline'
    missing: cache.selectQuery(store.getState(), Post, '404'), // undefined
    sameAfterOtherWrite: cache.selectQuery(store.getState(), Post, '1') === post, // true
  };
}
