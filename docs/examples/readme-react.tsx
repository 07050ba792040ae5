import { configureStore } from '@reduxjs/toolkit';
import { Collection, createCache, Entity, Query, RestEndpoint } from 'lenscache';
import { CacheProvider, useQuery, useSuspense } from 'lenscache/react';
import { Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';

class Post extends Entity {
  id = '';
  title = '';
  static override key = 'Post';
}

const getGroupPosts = new RestEndpoint({
  urlPrefix: 'https://api.example.com',
  path: '/:group/posts',
  searchParams: {} as { orderBy?: 'title' },
  schema: new Collection([Post]),
});

// The group's cached posts, sorted when asked: a Query recomputes when its rows change.
const sortedPosts = new Query(getGroupPosts.schema, (posts, { orderBy }: { orderBy?: 'title' } = {}) =>
  orderBy ? [...posts].sort((a, b) => a[orderBy].localeCompare(b[orderBy])) : posts,
);

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

export function Posts({ group }: { group: string }) {
  useSuspense(getGroupPosts, { group, orderBy: 'title' }); // fetches once, suspends until it lands
  const posts = useQuery(sortedPosts, { group, orderBy: 'title' }); // stays sorted after creates
  return <ul>{posts?.map(post => <li key={post.id}>{post.title}</li>)}</ul>;
}

export function App() {
  return (
    <Provider store={store}>
      <CacheProvider cache={cache}>
        <Suspense fallback="Loading…">
          <Posts group="react" />
        </Suspense>
      </CacheProvider>
    </Provider>
  );
}

export function mount(element: HTMLElement) {
  const root = createRoot(element); // e.g. mount(document.getElementById('root')!)
  root.render(<App />);
  return root;
}
