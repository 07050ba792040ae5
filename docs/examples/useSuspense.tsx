import { configureStore } from '@reduxjs/toolkit';
import { Collection, createCache, Entity, RestEndpoint } from 'lenscache';
import { CacheProvider, useSuspense } from 'lenscache/react';
import { Component, Suspense, type ReactNode } from 'react';
import { Provider } from 'react-redux';

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

export const getPosts = new RestEndpoint({
  urlPrefix: 'https://api.example.com',
  path: '/:group/posts',
  schema: new Collection([Post]),
});

function PostList({ group }: { group: string }) {
  const posts = useSuspense(getPosts, { group }); // Post[]
  return (
    <ul>
      {posts.map(post => (
        <li key={post.id}>
          {post.title} by {post.author.name}
        </li>
      ))}
    </ul>
  );
}

/** Shows `fallback` once a child throws: here, the stored error of a failed request. */
class ErrorBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

export function Page() {
  return (
    <ErrorBoundary fallback={<p>Could not load the posts.</p>}>
      <Suspense fallback={<p>Loading…</p>}>
        <PostList group="react" />
      </Suspense>
    </ErrorBoundary>
  );
}

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

export function App() {
  return (
    <Provider store={store}>
      <CacheProvider cache={cache}>
        <Page />
      </CacheProvider>
    </Provider>
  );
}
