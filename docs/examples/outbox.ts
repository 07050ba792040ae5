import { configureStore } from '@reduxjs/toolkit';
import {
  createLeanCache,
  Entity,
  garbageCollection,
  liveData,
  optimisticUpdates,
  outbox,
  pagination,
  resource,
  retries,
} from 'lenscache';

export class Post extends Entity {
  id = '';
  title = '';
  static override key = 'Post';
}

export const PostResource = resource({
  urlPrefix: 'https://api.example.com',
  path: '/posts/:id',
  schema: Post,
  optimistic: true,
});

// Every feature createCache has, and the outbox: edits of posts made offline wait, stored in
// localStorage, and are sent in order once the browser is back online.
export const offline = outbox({ endpoints: { updatePost: PostResource.partialUpdate } });
export const cache = createLeanCache({
  features: [garbageCollection, liveData, optimisticUpdates, retries, pagination, offline],
});

export const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

/** Shown beside the save button: how many edits wait to be sent. */
export const waiting = () => offline.waiting(store);
