import { configureStore } from '@reduxjs/toolkit';
import { Collection, createCache, Entity, RestEndpoint } from 'lenscache';

export class Post extends Entity {
  id = '';
  title = '';
  static override key = 'Post';
}

// GET /:group/posts?cursor=… answers { results: [...], nextCursor: '…' | null }.
export const getPosts = new RestEndpoint({
  path: '/:group/posts',
  searchParams: {} as { cursor?: string },
  schema: { results: new Collection([Post]), nextCursor: null as string | null },
  paginationField: 'cursor',
});

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});
const titles = () =>
  cache.selectResponse(store.getState(), getPosts, { group: 'react' }).data?.results.map(post => post.title);

export function run() {
  // The first page is the list itself: getPosts without a cursor.
  store.dispatch(
    cache.setResponse(getPosts, { group: 'react' }, {
      results: [{ id: '1', title: 'One' }, { id: '2', title: 'Two' }],
      nextCursor: 'c2',
    }),
  );
  const firstPage = titles(); // ['One', 'Two']

  // getPosts.getPage takes the list's args plus the cursor. Its posts are appended to the list
  // of { group: 'react' }; 'Two' is already there (the list shifted on the server): it stays once.
  store.dispatch(
    cache.setResponse(getPosts.getPage, { group: 'react', cursor: 'c2' }, {
      results: [{ id: '2', title: 'Two' }, { id: '3', title: 'Three' }],
      nextCursor: 'c3',
    }),
  );
  const afterPage = titles(); // ['One', 'Two', 'Three']
  // The page's own response keeps its next cursor.
  const next = cache.selectResponse(store.getState(), getPosts.getPage, { group: 'react', cursor: 'c2' }).data
    ?.nextCursor; // 'c3'

  // A first page written by hand replaces the list: it then holds that page alone. (A fetch of
  // getPosts would fetch every page the list holds again: see "Refetching" below.)
  store.dispatch(
    cache.setResponse(getPosts, { group: 'react' }, { results: [{ id: '0', title: 'Zero' }, { id: '1', title: 'One' }], nextCursor: 'c1' }),
  );
  return { firstPage, afterPage, next, replaced: titles() /* ['Zero', 'One'] */ };
}
