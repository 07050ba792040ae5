import { Collection, Entity, RestEndpoint } from 'lenscache';
import { useCancelling, useDebounce, useSuspense } from 'lenscache/react';
import { Suspense, useState } from 'react';

export class Post extends Entity {
  id = '';
  title = '';
  static override key = 'Post';
}

export const searchPosts = new RestEndpoint({
  urlPrefix: 'https://api.example.com',
  path: '/posts/search',
  searchParams: {} as { q: string },
  schema: new Collection([Post]),
});

function Results({ q }: { q: string }) {
  // A request still in flight for an older query is aborted when q changes.
  const posts = useSuspense(useCancelling(searchPosts, { q }), { q });
  return (
    <ul>
      {posts.map(post => (
        <li key={post.id}>{post.title}</li>
      ))}
    </ul>
  );
}

export function Search() {
  const [text, setText] = useState('');
  // The query follows the text once it has not changed for 300 ms.
  const [q, typing] = useDebounce(text, 300);
  return (
    <>
      <input value={text} onChange={event => setText(event.target.value)} />
      {typing && <span>…</span>}
      <Suspense fallback={<p>Searching…</p>}>{q && <Results q={q} />}</Suspense>
    </>
  );
}
