import { Collection, Entity, RestEndpoint } from 'lenscache';
import { AsyncBoundary, useInfinite } from 'lenscache/react';

export class Post extends Entity {
  id = '';
  title = '';
  static override key = 'Post';
}

// GET /:group/posts?cursor=… answers { results: [...], nextCursor: '…' | null }.
export const getPosts = new RestEndpoint({
  urlPrefix: 'https://api.example.com',
  path: '/:group/posts',
  searchParams: {} as { cursor?: string },
  schema: { results: new Collection([Post]), nextCursor: null as string | null },
  paginationField: 'cursor',
});

export function Posts({ group }: { group: string }) {
  // Suspends for the first page only; each loadMore appends the next page to the list.
  const { data, loadMore, hasMore, loadingMore, error } = useInfinite(getPosts, { group });
  return (
    <>
      <ul>
        {data.results.map(post => (
          <li key={post.id}>{post.title}</li>
        ))}
      </ul>
      {hasMore && (
        <button onClick={() => void loadMore()} disabled={loadingMore}>
          {loadingMore ? 'Loading…' : 'Load more'}
        </button>
      )}
      {error && <p role="alert">{error.message.split('\n')[0]}</p>}
    </>
  );
}

export function PostsPage() {
  return (
    <AsyncBoundary fallback={<p>Loading…</p>}>
      <Posts group="react" />
    </AsyncBoundary>
  );
}
