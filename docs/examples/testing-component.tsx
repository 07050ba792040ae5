import { screen } from '@testing-library/react';
import { createCache, Entity, RestEndpoint } from 'lenscache';
import { useSuspense } from 'lenscache/react';
import { renderWithCache, type Fixture } from 'lenscache/test';
import { Suspense } from 'react';

// The app's code: an entity, an endpoint, the cache and a component.
class Post extends Entity {
  id = '';
  title = '';
  static override key = 'Post';
}
const getPost = new RestEndpoint({ urlPrefix: 'https://api.example.com', path: '/posts/:id', schema: Post });
const cache = createCache();

function PostTitle({ id }: { id: string }) {
  const post = useSuspense(getPost, { id });
  return <h1>{post.title}</h1>;
}

// The test: what the server would answer, by endpoint and args.
const fixtures: Fixture[] = [{ endpoint: getPost, args: [{ id: '1' }], response: { id: '1', title: 'Hello' } }];

test('shows the post once it arrives', async () => {
  renderWithCache(
    <Suspense fallback={<p>Loading…</p>}>
      <PostTitle id="1" />
    </Suspense>,
    { cache, fixtures },
  );
  expect(screen.getByText('Loading…')).toBeTruthy();
  expect(await screen.findByText('Hello')).toBeTruthy();
});

test('renders at once when the post is in the store from the start', () => {
  const { controller } = renderWithCache(<PostTitle id="1" />, { cache, initialFixtures: fixtures });
  expect(screen.getByText('Hello')).toBeTruthy();
  // The controller reads and writes the rendered store.
  expect(controller.get(Post, { id: '1' })?.title).toBe('Hello');
});
