import { Collection, Entity, isNetworkError, RestEndpoint } from 'lenscache';
import { useMutation } from 'lenscache/react';
import { useState, type FormEvent } from 'react';

export class Post extends Entity {
  id = '';
  title = '';
  static override key = 'Post';
}

export const getPosts = new RestEndpoint({
  urlPrefix: 'https://api.example.com',
  path: '/:group/posts',
  schema: new Collection([Post]),
});

/** Shown at once in every cached list of the group; the answer takes its place. */
export const createPost = getPosts.push.extend({
  body: {} as { title: string },
  getOptimisticResponse: (snap, { group }: { group: string }, body: { title: string }) => ({
    id: `optimistic:${snap.fetchedAt}`,
    group,
    ...body,
  }),
});

export function NewPost({ group }: { group: string }) {
  const [create, { pending, error, reset }] = useMutation(createPost);
  const [title, setTitle] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The promise resolves to the created post, or rejects; `error` shows the failure either way.
    create({ group }, { title }).then(
      () => setTitle(''),
      () => undefined,
    );
  };
  return (
    <form onSubmit={submit}>
      <input value={title} onChange={event => setTitle(event.target.value)} onFocus={reset} />
      <button disabled={pending}>{pending ? 'Saving…' : 'Create'}</button>
      {error && <p role="alert">{messageOf(error)}</p>}
    </form>
  );
}

/** A refusal's `{ "message": … }` body, else the error's first line. */
function messageOf(error: Error): string {
  return isNetworkError(error, isRefusal) ? error.body.message : error.message.split('\n')[0]!;
}

/** The body this API sends with a refusal: checked, so `error.body` is typed by what was checked. */
function isRefusal(body: unknown): body is { message: string } {
  return typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string';
}
