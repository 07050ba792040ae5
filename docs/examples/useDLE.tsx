import { Entity, RestEndpoint } from 'lenscache';
import { useDLE } from 'lenscache/react';

export class Post extends Entity {
  id = '';
  title = '';
  body = '';
  static override key = 'Post';
}

export const getPost = new RestEndpoint({
  urlPrefix: 'https://api.example.com',
  path: '/posts/:id',
  schema: Post,
});

/** No `<Suspense>` or error boundary needed: each state is a value. */
export function PostPreview({ id }: { id: string | undefined }) {
  const { data, loading, error } = useDLE(getPost, id ? { id } : null);
  if (id === undefined) return <p>Pick a post.</p>;
  if (error) return <p role="alert">Could not load the post: {error.message.split('\n')[0]}</p>;
  if (loading || !data) return <p>Loading…</p>;
  return (
    <article>
      <h2>{data.title}</h2>
      <p>{data.body}</p>
    </article>
  );
}
