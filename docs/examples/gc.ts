import { configureStore } from '@reduxjs/toolkit';
import { createCache, Entity } from 'lenscache';

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
const getPost = { key: (id: string) => `GET /posts/${id}`, schema: Post };

// Responses nobody retains go one minute after their last use.
const cache = createCache({ gcTime: 60_000 });
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

let release = () => {};

export function run() {
  store.dispatch(cache.setResponse(getPost, '1', { id: '1', title: 'Kept', author: { id: 'ann', name: 'Ann' } }));
  store.dispatch(cache.setResponse(getPost, '2', { id: '2', title: 'Dropped', author: { id: 'bob', name: 'Bob' } }));
  // What a mounted useSuspense(getPost, '1') does, outside React.
  release = cache.retain(store, getPost, '1');
  // A sweep now removes nothing: post 2 was used less than a minute ago.
  return cache.gc(store);
}

/** A minute later (the timer has swept by then). */
export function aMinuteLater() {
  const { cache: slice } = store.getState();
  const kept = {
    requests: Object.keys(slice.endpoints),
    users: Object.keys(slice.entities.User ?? {}),
  };
  release();
  return kept;
}
