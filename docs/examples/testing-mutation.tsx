import { fireEvent, screen } from '@testing-library/react';
import { Entity, RestEndpoint } from 'lenscache';
import { useMutation, useSuspense } from 'lenscache/react';
import { renderWithCache } from 'lenscache/test';

class Post extends Entity {
  id = '';
  title = '';
  static override key = 'Post';
}
const getPost = new RestEndpoint({ urlPrefix: 'https://api.example.com', path: '/posts/:id', schema: Post });
const renamePost = getPost.extend({ method: 'PATCH', body: {} as { title: string } });

function Editor({ id }: { id: string }) {
  const post = useSuspense(getPost, { id });
  const [rename, { pending }] = useMutation(renamePost);
  return (
    <>
      <h1>{post.title}</h1>
      <button disabled={pending} onClick={() => void rename({ id }, { title: 'Renamed' })}>
        Rename
      </button>
    </>
  );
}

test('a rename updates the title shown, from what the server answers', async () => {
  const sent: unknown[] = [];
  renderWithCache(<Editor id="1" />, {
    initialFixtures: [{ endpoint: getPost, args: [{ id: '1' }], response: { id: '1', title: 'Hello' } }],
    fixtures: [
      {
        // The server's answer, computed from what was sent.
        endpoint: renamePost,
        response: ({ id }: { id: string }, body: { title: string }) => {
          sent.push(body);
          return { id, ...body };
        },
      },
    ],
  });
  fireEvent.click(screen.getByText('Rename'));
  expect(await screen.findByText('Renamed')).toBeTruthy();
  expect(sent).toEqual([{ title: 'Renamed' }]);
});
