import { configureStore } from '@reduxjs/toolkit';
import { Collection, createCache, Entity, Invalidate, RestEndpoint } from 'lenscache';

export class Post extends Entity {
  id = '';
  title = '';
  body = '';
  static override key = 'Post';
}

const urlPrefix = 'https://api.example.com';
export const getPosts = new RestEndpoint({ urlPrefix, path: '/posts', schema: new Collection([Post]) });

/** A create: the guess gets a temporary id; the answer's real id takes its place in the list. */
export const createPost = getPosts.push.extend({
  body: {} as { title: string; body: string },
  getOptimisticResponse: (snap, _params: object, body: { title: string; body: string }) => ({
    id: `optimistic:${snap.fetchedAt}`,
    ...body,
  }),
});

/** An edit: the guess is the cached post with the new fields. */
export const updatePost = new RestEndpoint({
  urlPrefix,
  path: '/posts/:id',
  method: 'PATCH',
  body: {} as Partial<{ title: string; body: string }>,
  schema: Post,
  getOptimisticResponse: (snap, params: { id: string }, body: Partial<{ title: string; body: string }>) => {
    const current = snap.get(Post, params);
    // Nothing cached to edit: no guess (undefined), only the answer is written.
    return current && { ...current, ...body };
  },
});

/** A delete: the guess is the answer's shape, `{ id }`, which `Invalidate` turns into a deletion. */
export const deletePost = new RestEndpoint({
  urlPrefix,
  path: '/posts/:id',
  method: 'DELETE',
  schema: new Invalidate(Post),
  getOptimisticResponse: (_snap, params: { id: string }) => params,
});

const cache = createCache();
export const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

export async function rename(id: string, title: string): Promise<void> {
  const saving = store.dispatch(cache.fetch(updatePost, { id }, { title }));
  // Already in the store, before the server has answered:
  console.log(cache.selectQuery(store.getState(), Post, { id })?.title); // title
  try {
    await saving; // the answer has replaced the guess
  } catch {
    // The guess is gone; every write that landed meanwhile (a refetch, another edit) is kept.
  }
}
