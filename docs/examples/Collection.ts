import { configureStore } from '@reduxjs/toolkit';
import { Collection, createCache, Entity, RestEndpoint } from 'lenscache';

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

// GET /:group/posts?orderBy=… — one list per { group, orderBy }.
export const posts = new Collection([Post]);
export const getPosts = new RestEndpoint({
  path: '/:group/posts',
  searchParams: {} as { orderBy?: 'title' },
  schema: posts,
});

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});
const ids = (list: Post[] | undefined) => list?.map(post => post.id);

export function run() {
  const ann = { id: 'u1', name: 'Ann' };
  store.dispatch(cache.setResponse(getPosts, { group: 'react', orderBy: 'title' }, [{ id: '1', title: 'A', author: ann }]));
  store.dispatch(cache.setResponse(getPosts, { group: 'react' }, [{ id: '2', title: 'B', author: ann }]));
  store.dispatch(cache.setResponse(getPosts, { group: 'vue' }, [{ id: '3', title: 'C', author: ann }]));
  const vue = cache.selectQuery(store.getState(), posts, { group: 'vue' });

  // A create reaches every stored list whose args it matches: both react lists (`orderBy`
  // sorts rather than filters), but not { group: 'vue' }.
  store.dispatch(cache.set(posts.push, { group: 'react' }, { id: '9', title: 'New', author: 'u1' }));
  // A removal with no filter reaches every list; the entity itself stays.
  store.dispatch(cache.set(posts.remove, {}, '2'));

  const state = store.getState();
  return {
    reactByTitle: ids(cache.selectQuery(state, posts, { group: 'react', orderBy: 'title' })), // ['1', '9']
    react: ids(cache.selectQuery(state, posts, { group: 'react' })), // ['9']
    vue: ids(cache.selectQuery(state, posts, { group: 'vue' })), // ['3']
    vueUnchanged: cache.selectQuery(state, posts, { group: 'vue' }) === vue, // true: the same array
    removedPost: cache.selectQuery(state, Post, '2')?.title, // 'B'
    angular: cache.selectQuery(state, posts, { group: 'angular' }), // undefined: never stored
    pk: posts.pk({ page: 1, group: 'react' }), // '{"group":"react","page":"1"}'
  };
}
