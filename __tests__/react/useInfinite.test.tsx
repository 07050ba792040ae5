/**
 * @jest-environment ./__tests__/fixtures/jsdomWithFetch.js
 */
/**
 * useInfinite (docs/useInfinite.md) against a real local server: it suspends for the first page
 * only, `loadMore` appends the next page (one at a time), `hasMore` follows the last page's next
 * cursor, a failed page is returned as `error` with the list kept, a refetch keeps every page,
 * and a remount continues from the last page the list holds.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Suspense } from 'react';
import { Collection, Entity, RestEndpoint } from '../../src/index';
import { useInfinite } from '../../src/react/index';
import { renderWithCache } from '../fixtures/render';
import { startServer, type TestServer } from '../fixtures/server';
import { makeStore } from '../fixtures/store';

class Item extends Entity {
  id = '';
  name = '';
  static override key = 'InfiniteItem';
}

const items = Array.from({ length: 5 }, (_, i) => ({ id: String(i + 1), name: `Item ${i + 1}` }));
let server: TestServer;
let requests: string[] = [];
let failCursor: string | undefined;

function endpoint(options: { nextPageParam?: (page: any) => unknown; plain?: boolean } = {}) {
  return new RestEndpoint({
    urlPrefix: server.origin,
    path: '/items',
    searchParams: {} as { cursor?: string },
    schema: { results: new Collection([Item]), nextCursor: null as string | null },
    paginationField: 'cursor',
    ...(options.nextPageParam ? { nextPageParam: options.nextPageParam } : {}),
  });
}

beforeAll(async () => {
  server = await startServer();
  server.on('GET /items', (_request, url) => {
    const cursor = url.searchParams.get('cursor');
    requests.push(cursor ?? 'first');
    if (cursor !== null && cursor === failCursor) return { status: 500, json: { message: 'down' } };
    const start = Number(cursor ?? 0);
    const next = start + 2 < items.length ? String(start + 2) : null;
    return { json: { results: items.slice(start, start + 2), nextCursor: next } };
  });
});
afterAll(() => server.close());
beforeEach(() => {
  requests = [];
  failCursor = undefined;
});

function List({ getItems }: { getItems: ReturnType<typeof endpoint> }) {
  const { data, loadMore, hasMore, loadingMore, error } = useInfinite(getItems);
  return (
    <>
      <ul>
        {data.results.map(item => (
          <li key={item.id}>{item.name}</li>
        ))}
      </ul>
      {hasMore ? <button onClick={() => void loadMore()}>more</button> : <p>all loaded</p>}
      {loadingMore && <p>loading more</p>}
      {error && <p role="alert">{error.message}</p>}
    </>
  );
}

const names = () => screen.queryAllByRole('listitem').map(item => item.textContent);

test('loadMore appends each page, one at a time, until the last page names no next one', async () => {
  const getItems = endpoint();
  let fallbacks = 0;
  function Fallback() {
    fallbacks++;
    return <p>loading</p>;
  }
  renderWithCache(
    <Suspense fallback={<Fallback />}>
      <List getItems={getItems} />
    </Suspense>,
  );
  await screen.findByText('Item 2');
  expect(names()).toEqual(['Item 1', 'Item 2']);
  // Two clicks before the page answers send one request.
  fireEvent.click(screen.getByText('more'));
  fireEvent.click(screen.getByText('more'));
  await screen.findByText('loading more');
  await screen.findByText('Item 4');
  expect(requests).toEqual(['first', '2']);
  fireEvent.click(screen.getByText('more'));
  await screen.findByText('all loaded');
  expect(names()).toEqual(['Item 1', 'Item 2', 'Item 3', 'Item 4', 'Item 5']);
  expect(requests).toEqual(['first', '2', '4']);
  // Only the first page suspended.
  expect(fallbacks).toBe(1);
});

test('a failed page is the error, the list stays, and the next loadMore tries it again', async () => {
  const getItems = endpoint();
  renderWithCache(
    <Suspense fallback={<p>loading</p>}>
      <List getItems={getItems} />
    </Suspense>,
  );
  await screen.findByText('Item 2');
  failCursor = '2';
  fireEvent.click(screen.getByText('more'));
  await screen.findByRole('alert');
  expect(names()).toEqual(['Item 1', 'Item 2']);
  failCursor = undefined;
  fireEvent.click(screen.getByText('more'));
  await screen.findByText('Item 4');
  expect(screen.queryByRole('alert')).toBeNull();
});

test('a refetch keeps every page, and a remount continues from the last page the list holds', async () => {
  const getItems = endpoint();
  const setup = makeStore();
  const first = renderWithCache(
    <Suspense fallback={<p>loading</p>}>
      <List getItems={getItems} />
    </Suspense>,
    { setup },
  );
  await screen.findByText('Item 2');
  fireEvent.click(screen.getByText('more'));
  await screen.findByText('Item 4');
  requests = [];
  // A refetch of the list (focus, invalidation): both pages again, in one write.
  await act(async () => {
    await setup.store.dispatch(setup.cache.fetch(getItems));
  });
  expect(requests).toEqual(['first', '2']);
  expect(names()).toEqual(['Item 1', 'Item 2', 'Item 3', 'Item 4']);
  first.unmount();
  requests = [];
  renderWithCache(
    <Suspense fallback={<p>loading</p>}>
      <List getItems={getItems} />
    </Suspense>,
    { setup },
  );
  await screen.findByText('Item 4');
  fireEvent.click(screen.getByText('more'));
  await screen.findByText('all loaded');
  // The next page after the held ones, not the second page again.
  expect(requests).toEqual(['4']);
});

test('nextPageParam tells the next page when the page has no next member', async () => {
  const getItems = endpoint({
    nextPageParam: page => (page.results.length === 2 ? String(Number(page.results[1].id)) : null),
  });
  renderWithCache(
    <Suspense fallback={<p>loading</p>}>
      <List getItems={getItems} />
    </Suspense>,
  );
  await screen.findByText('Item 2');
  fireEvent.click(screen.getByText('more'));
  await waitFor(() => expect(names()).toHaveLength(4));
  expect(requests).toEqual(['first', '2']);
});
