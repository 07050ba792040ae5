import { Entity, RestEndpoint } from 'lenscache';
import { AsyncBoundary, useSuspense, type ErrorViewProps } from 'lenscache/react';

export class Post extends Entity {
  id = '';
  title = '';
  static override key = 'Post';
}

export const getPost = new RestEndpoint({ urlPrefix: 'https://api.example.com', path: '/posts/:id', schema: Post });

function PostTitle({ id }: { id: string }) {
  return <h2>{useSuspense(getPost, { id }).title}</h2>;
}

/** Shown when the post cannot load; Retry fetches it again. */
function CouldNotLoad({ error, resetErrorBoundary }: ErrorViewProps) {
  return (
    <div role="alert">
      <p>Could not load: {error.message.split('\n')[0]}</p>
      <button onClick={resetErrorBoundary}>Retry</button>
    </div>
  );
}

export function PostPage({ id }: { id: string }) {
  return (
    <AsyncBoundary fallback={<p>Loading…</p>} errorComponent={CouldNotLoad}>
      <PostTitle id={id} />
    </AsyncBoundary>
  );
}
