import { waitFor } from '@testing-library/react';
import { Entity, RestEndpoint } from 'lenscache';
import { useDLE, useSuspense } from 'lenscache/react';
import { renderCacheHook } from 'lenscache/test';

class Post extends Entity {
  id = '';
  title = '';
  static override key = 'Post';
}
const getPost = new RestEndpoint({ urlPrefix: 'https://api.example.com', path: '/posts/:id', schema: Post });

test('useSuspense gives the post: null while it suspends, then the post', async () => {
  const { result } = renderCacheHook(() => useSuspense(getPost, { id: '1' }), {
    fixtures: [{ endpoint: getPost, args: [{ id: '1' }], response: { id: '1', title: 'Hello' } }],
  });
  expect(result.current).toBeNull();
  await waitFor(() => expect(result.current?.title).toBe('Hello'));
});

test('an interceptor answers any args, computed per request; a refusal keeps its status', async () => {
  const { result, rerender } = renderCacheHook(({ id }: { id: string }) => useDLE(getPost, { id }), {
    initialProps: { id: '1' },
    fixtures: [
      { endpoint: getPost, args: [{ id: '404' }], error: { status: 404, body: { message: 'Not found' } } },
      { endpoint: getPost, response: ({ id }: { id: string }) => ({ id, title: `Post ${id}` }) },
    ],
  });
  await waitFor(() => expect(result.current?.data?.title).toBe('Post 1'));
  rerender({ id: '404' });
  await waitFor(() => expect(result.current?.error).toMatchObject({ status: 404 }));
});
