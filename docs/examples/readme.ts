import { configureStore } from '@reduxjs/toolkit';
import { Collection, createCache, Entity, RestEndpoint } from 'lenscache';

export class User extends Entity {
  id = '';
  name = '';
  static override key = 'User'; // the table name: set it, class names do not survive minification
}

export class Post extends Entity {
  id = '';
  title = '';
  author = User.fromJS();
  static override key = 'Post';
  static override schema = { author: User };
}

export const cache = createCache(); // the slice lives at state.cache
export const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

// A write: normalized into entities.Post['1'] and entities.User['u1'], one action, plain JSON.
store.dispatch(cache.set(Post, { id: '1', title: 'Hello', author: { id: 'u1', name: 'Ann' } }));

// A read: a Post instance with its author resolved; the same object until its rows change.
export const post = cache.selectQuery(store.getState(), Post, '1');
post?.author.name; // 'Ann'
cache.selectQuery(store.getState(), Post, '1') === post; // true

// Responses of endpoints (any object with key(...args) and schema) are stored per request key.
export const getPosts = { key: () => 'GET /posts', schema: [Post] };
store.dispatch(cache.setResponse(getPosts, [{ id: '2', title: 'Again', author: 'u1' }]));
cache.selectResponse(store.getState(), getPosts).data; // [Post { id: '2', … }]

// Fetching, with a RestEndpoint: GET https://api.example.com/react/posts?orderBy=title
export const getGroupPosts = new RestEndpoint({
  urlPrefix: 'https://api.example.com',
  path: '/:group/posts',
  searchParams: {} as { orderBy?: 'title' },
  schema: new Collection([Post]),
});

export async function fetchReactPosts() {
  const posts = await store.dispatch(cache.fetch(getGroupPosts, { group: 'react', orderBy: 'title' })); // Post[]
  await store.dispatch(cache.fetch(getGroupPosts.push, { group: 'react' }, { title: 'New' })); // in every matching list
  return posts;
}
