import { configureStore } from '@reduxjs/toolkit';
import { createCache, Entity, resource } from 'lenscache';

export class Post extends Entity {
  id = '';
  title = '';
  group = '';
  static override key = 'Post';
}

// The item's path; the list's path is the same without its last segment: '/:group/posts'.
export const PostResource = resource({
  urlPrefix: 'https://api.example.com',
  path: '/:group/posts/:id',
  schema: Post,
  searchParams: {} as { orderBy?: 'title' },
});

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

export function run() {
  const { get, getList, update, partialUpdate } = PostResource;
  const urls = [
    get.url({ group: 'react', id: '1' }), // 'https://api.example.com/react/posts/1'
    getList.url({ group: 'react', orderBy: 'title' }), // 'https://api.example.com/react/posts?orderBy=title'
    `${update.method} ${partialUpdate.method} ${PostResource.delete.method} ${getList.push.method}`, // 'PUT PATCH DELETE POST'
  ];

  // What each answer does to the cache (as cache.fetch would store the server's answer):
  store.dispatch(
    cache.setResponse(getList, { group: 'react' }, [
      { id: '1', title: 'One', group: 'react' },
      { id: '2', title: 'Two', group: 'react' },
    ]),
  );
  // getList.push: the created post joins every cached list of its group.
  store.dispatch(cache.setResponse(getList.push, { group: 'react' }, { title: 'Three' }, { id: '3', title: 'Three' }));
  // partialUpdate: the answer updates the one Post row that every list shows.
  store.dispatch(cache.setResponse(partialUpdate, { group: 'react', id: '1' }, { title: 'Uno' }, { id: '1', title: 'Uno' }));
  // delete: the deleted post leaves every list (when the server answers with no body, the
  // params name it).
  store.dispatch(cache.setResponse(PostResource.delete, { group: 'react', id: '2' }, { id: '2' }));

  const list = cache.selectQuery(store.getState(), getList.schema, { group: 'react' });
  return { urls, titles: list?.map(post => post.title) /* ['Uno', 'Three'] */ };
}
