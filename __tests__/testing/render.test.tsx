/**
 * @jest-environment jsdom
 */
/**
 * lenscache/test's render helpers in Jest's plain jsdom environment, which has no `fetch` and no
 * `Response` (the stand-in answers with its own): a component and a hook rendered under a test
 * store, answers from fixtures, initial fixtures read with no request, errors to the boundary,
 * a mutation through an interceptor.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Suspense, type ReactNode } from 'react';
import { createCache, Entity, RestEndpoint } from '../../src/index';
import { useMutation, useSuspense } from '../../src/react/index';
import { renderCacheHook, renderWithCache, type FixtureLike } from '../../src/test/index';
import { Boundary, quietErrors } from '../fixtures/render';

class Post extends Entity {
  id = '';
  title = '';
  static override key = 'Post';
}
const getPost = new RestEndpoint({ urlPrefix: 'https://api.example.com', path: '/posts/:id', schema: Post });
const updatePost = getPost.extend({ method: 'PATCH' });

function Title({ id }: { id: string }) {
  return <h1>{useSuspense(getPost, { id }).title}</h1>;
}

const inBoundary = (node: ReactNode) => (
  <Boundary>
    <Suspense fallback={<p>loading</p>}>{node}</Suspense>
  </Boundary>
);

test('jsdom has no Response: the stand-in answers without one', () => {
  expect(typeof Response).toBe('undefined');
});

test('renderWithCache: a component suspends, then renders the fixture; the store and controller come back', async () => {
  const cache = createCache();
  const result = renderWithCache(inBoundary(<Title id="1" />), {
    cache,
    fixtures: [{ endpoint: getPost, args: [{ id: '1' }], response: { id: '1', title: 'Hello' } }],
  });
  expect(screen.getByText('loading')).toBeTruthy();
  expect(await screen.findByText('Hello')).toBeTruthy();
  expect(result.cache).toBe(cache);
  expect(result.controller).toBe(cache.controller(result.store));
  expect(cache.selectResponse(result.store.getState(), getPost, { id: '1' }).expiryStatus).toBe('valid');
  // The controller writes to the rendered store.
  act(() => result.controller.set(Post, { id: '1', title: 'Set' }));
  expect(screen.getByText('Set')).toBeTruthy();
});

test('initialFixtures: the first render shows the data, with no request made', () => {
  let requests = 0;
  const fixtures: FixtureLike[] = [{ endpoint: getPost, response: () => ({ id: '1', title: `#${++requests}` }) }];
  renderWithCache(inBoundary(<Title id="1" />), {
    fixtures,
    initialFixtures: [{ endpoint: getPost, args: [{ id: '1' }], response: { id: '1', title: 'Ready' } }],
  });
  expect(screen.getByText('Ready')).toBeTruthy();
  expect(requests).toBe(0);
});

test("an error fixture reaches the boundary and is stored as the key's error with its status", async () => {
  const quiet = quietErrors();
  try {
    const { cache, store } = renderWithCache(inBoundary(<Title id="9" />), {
      fixtures: [{ endpoint: getPost, args: [{ id: '9' }], error: { status: 404, body: { message: 'No such post' } } }],
    });
    expect((await screen.findByRole('alert')).textContent).toContain('No such post');
    expect(cache.selectResponse(store.getState(), getPost, { id: '9' }).error).toMatchObject({
      status: 404,
      code: 'NETWORK_ERROR',
    });
  } finally {
    quiet.mockRestore();
  }
});

test('an unmatched request shows FIXTURE_MISSING, naming the request and the fixtures', async () => {
  const quiet = quietErrors();
  try {
    renderWithCache(inBoundary(<Title id="2" />), {
      fixtures: [{ endpoint: getPost, args: [{ id: '1' }], response: { id: '1', title: 'Hello' } }],
    });
    const shown = (await screen.findByRole('alert')).textContent;
    expect(shown).toContain('No fixture answers the request GET https://api.example.com/posts/2');
    expect(shown).toContain('- GET https://api.example.com/posts/1');
  } finally {
    quiet.mockRestore();
  }
});

test('renderCacheHook: null while the hook suspends, then its data; initialProps and rerender', async () => {
  const { result, rerender } = renderCacheHook(({ id }: { id: string }) => useSuspense(getPost, { id }), {
    initialProps: { id: '1' },
    fixtures: [{ endpoint: getPost, response: ({ id }: { id: string }) => ({ id, title: `post ${id}` }) }],
  });
  expect(result.current).toBeNull();
  await waitFor(() => expect(result.current?.title).toBe('post 1'));
  rerender({ id: '2' });
  await waitFor(() => expect(result.current?.title).toBe('post 2'));
});

test('renderCacheHook with initialFixtures: the data on the first render', () => {
  const { result } = renderCacheHook(() => useSuspense(getPost, { id: '1' }), {
    initialFixtures: [{ endpoint: getPost, args: [{ id: '1' }], response: { id: '1', title: 'Ready' } }],
  });
  expect(result.current?.title).toBe('Ready');
});

test('a mutation: the interceptor answers from the body sent, and the shown title follows', async () => {
  const sent: unknown[] = [];
  function Rename() {
    const [rename, { pending }] = useMutation(updatePost);
    return (
      <button disabled={pending} onClick={() => void rename({ id: '1' }, { title: 'Renamed' })}>
        rename
      </button>
    );
  }
  renderWithCache(
    inBoundary(
      <>
        <Title id="1" />
        <Rename />
      </>,
    ),
    {
      initialFixtures: [{ endpoint: getPost, args: [{ id: '1' }], response: { id: '1', title: 'Hello' } }],
      fixtures: [
        {
          endpoint: updatePost,
          response: ({ id }: { id: string }, body: { title: string }) => (sent.push(body), { id, ...body }),
        },
      ],
    },
  );
  expect(screen.getByText('Hello')).toBeTruthy();
  fireEvent.click(screen.getByText('rename'));
  expect(await screen.findByText('Renamed')).toBeTruthy();
  expect(sent).toEqual([{ title: 'Renamed' }]);
});
