import { configureStore } from '@reduxjs/toolkit';
import { createCache, Entity, Invalidate, RestEndpoint } from 'lenscache';

export class Post extends Entity {
  id = '';
  title = '';
  body = '';
  static override key = 'Post';
}

export const getPosts = new RestEndpoint({ path: '/posts', schema: [Post] });
// DELETE /posts/:id answers with the deleted item (or its id).
export const deletePost = new RestEndpoint({ path: '/posts/:id', method: 'DELETE', schema: new Invalidate(Post) });

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

export function run() {
  store.dispatch(
    cache.setResponse(getPosts, [
      { id: '4', title: 'Keep', body: '…' },
      { id: '5', title: 'Drop', body: '…' },
    ]),
  );
  store.dispatch(cache.setResponse(deletePost, { id: '5' }, { id: '5' }));

  const afterDelete = store.getState();
  const deleted = {
    post: cache.selectQuery(afterDelete, Post, '5'), // undefined
    list: cache.selectResponse(afterDelete, getPosts).data?.map(post => post.id), // ['4']
    row: afterDelete.cache.entities.Post?.['5'], // null: a tombstone
  };
  // A later write of the same pk stores exactly its own fields: nothing survives the deletion.
  store.dispatch(cache.set(Post, { id: '5', title: 'Back' }));
  const back = cache.selectQuery(store.getState(), Post, '5');
  return { ...deleted, backTitle: back?.title, backBody: back?.body }; // 'Back', '' (the default)
}
