import { Collection, Entity, RestEndpoint } from 'lenscache';
import { useInfinite } from 'lenscache/react';

export class Message extends Entity {
  id = '';
  text = '';
  static override key = 'Message';
}

// GET /rooms/:room/messages?cursor=… answers { results, nextCursor, previousCursor }.
export const getMessages = new RestEndpoint({
  urlPrefix: 'https://api.example.com',
  path: '/rooms/:room/messages',
  searchParams: {} as { cursor?: string },
  schema: {
    results: new Collection([Message]),
    nextCursor: null as string | null,
    previousCursor: null as string | null,
  },
  paginationField: 'cursor',
  maxPages: 3,
});

export function Messages({ room }: { room: string }) {
  const { data, loadPrevious, hasPrevious, loadingPrevious, loadMore, hasMore, loadingMore, refetch } = useInfinite(
    getMessages,
    { room },
  );
  return (
    <>
      {hasPrevious && (
        <button onClick={() => void loadPrevious()} disabled={loadingPrevious}>
          Newer
        </button>
      )}
      <ul>
        {data.results.map(message => (
          <li key={message.id}>{message.text}</li>
        ))}
      </ul>
      {hasMore && (
        <button onClick={() => void loadMore()} disabled={loadingMore}>
          Older
        </button>
      )}
      {/* Back to the list's own first page: the pages held go, and one request is sent. */}
      <button onClick={() => void refetch({ firstPageOnly: true })}>Back to the latest</button>
    </>
  );
}
