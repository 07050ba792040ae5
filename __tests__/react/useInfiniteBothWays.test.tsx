/**
 * @jest-environment ./__tests__/fixtures/jsdomWithFetch.js
 */
/**
 * useInfinite both ways (docs/useInfinite.md) against a real local server whose list of ten items
 * starts at item 5, two a page: `loadPrevious` puts the page before the first one held first,
 * `hasPrevious` and `loadingPrevious` follow it, one page loads at a time whichever the way,
 * `maxPages` drops pages at the other end, and `refetch` fetches every page held, or the first
 * page alone when asked.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Suspense } from 'react';
import { Collection, Entity, RestEndpoint } from '../../src/index';
import { useInfinite } from '../../src/react/index';
import { renderWithCache } from '../fixtures/render';
import { gate, startServer, type TestServer } from '../fixtures/server';

class Item extends Entity {
  id = '';
  static override key = 'BothWaysItem';
}

let server: TestServer;
let requests: string[] = [];
const holds = new Map<string, Promise<void>>();

beforeAll(async () => {
  server = await startServer();
  server.on('GET /both', (_request, url) => {
    const cursor = url.searchParams.get('cursor');
    requests.push(cursor ?? 'first');
    const start = cursor === null ? 4 : Number(cursor);
    const results = [start + 1, start + 2].filter(id => id <= 10).map(id => ({ id: String(id) }));
    const nextCursor = start + 2 < 10 ? String(start + 2) : null;
    const previousCursor = start > 0 ? String(start - 2) : null;
    return { json: { results, nextCursor, previousCursor }, hold: holds.get(cursor ?? 'first') };
  });
});
afterAll(() => server.close());
beforeEach(() => {
  requests = [];
  holds.clear();
});

function endpoint(maxPages?: number) {
  return new RestEndpoint({
    urlPrefix: server.origin,
    path: '/both',
    searchParams: {} as { cursor?: string },
    schema: {
      results: new Collection([Item]),
      nextCursor: null as string | null,
      previousCursor: null as string | null,
    },
    paginationField: 'cursor',
    ...(maxPages ? { maxPages } : {}),
  });
}

function List({ getItems }: { getItems: ReturnType<typeof endpoint> }) {
  const { data, loadMore, hasMore, loadingMore, loadPrevious, hasPrevious, loadingPrevious, refetch } =
    useInfinite(getItems);
  return (
    <>
      {hasPrevious ? <button onClick={() => void loadPrevious()}>newer</button> : <p>newest</p>}
      {loadingPrevious && <p>loading newer</p>}
      <p data-testid="ids">{data.results.map(item => item.id).join(',')}</p>
      {hasMore ? <button onClick={() => void loadMore()}>older</button> : <p>oldest</p>}
      {loadingMore && <p>loading older</p>}
      <button onClick={() => void refetch({ firstPageOnly: true })}>top</button>
      <button onClick={() => void refetch()}>refresh</button>
    </>
  );
}

const ids = () => screen.getByTestId('ids').textContent;

function mount(getItems: ReturnType<typeof endpoint>) {
  return renderWithCache(
    <Suspense fallback={<p>loading</p>}>
      <List getItems={getItems} />
    </Suspense>,
  );
}

test('loadPrevious puts the page before first, one page at a time whichever the way', async () => {
  mount(endpoint());
  await screen.findByText('5,6');
  const held = gate();
  holds.set('2', held.promise);
  fireEvent.click(screen.getByText('newer'));
  await screen.findByText('loading newer');
  // A page is in flight: neither way sends another.
  fireEvent.click(screen.getByText('older'));
  fireEvent.click(screen.getByText('newer'));
  expect(screen.queryByText('loading older')).toBeNull();
  held.open();
  await screen.findByText('3,4,5,6');
  expect(requests).toEqual(['first', '2']);
  fireEvent.click(screen.getByText('newer'));
  await screen.findByText('1,2,3,4,5,6');
  expect(screen.getByText('newest')).toBeTruthy();
  fireEvent.click(screen.getByText('older'));
  await screen.findByText('1,2,3,4,5,6,7,8');
  expect(requests).toEqual(['first', '2', '0', '6']);
});

test('maxPages: the pages at the other end go, and the way back is offered', async () => {
  mount(endpoint(2));
  await screen.findByText('5,6');
  fireEvent.click(screen.getByText('older'));
  await screen.findByText('5,6,7,8');
  fireEvent.click(screen.getByText('older'));
  await screen.findByText('7,8,9,10');
  expect(screen.getByText('oldest')).toBeTruthy();
  // The page dropped is the one before the first held.
  fireEvent.click(screen.getByText('newer'));
  await screen.findByText('5,6,7,8');
  expect(requests).toEqual(['first', '6', '8', '4']);
  fireEvent.click(screen.getByText('newer'));
  await screen.findByText('3,4,5,6');
});

test('refetch fetches every page held, or the first page alone when asked', async () => {
  mount(endpoint());
  await screen.findByText('5,6');
  fireEvent.click(screen.getByText('older'));
  await screen.findByText('5,6,7,8');
  fireEvent.click(screen.getByText('newer'));
  await screen.findByText('3,4,5,6,7,8');
  requests = [];
  fireEvent.click(screen.getByText('refresh'));
  // In the list's order: the page before its own answer first.
  await waitFor(() => expect(requests).toEqual(['2', 'first', '6']));
  expect(ids()).toBe('3,4,5,6,7,8');
  requests = [];
  fireEvent.click(screen.getByText('top'));
  await screen.findByText('5,6');
  expect(requests).toEqual(['first']);
  // The list holds its first page alone: the next page after it is asked again.
  fireEvent.click(screen.getByText('older'));
  await screen.findByText('5,6,7,8');
  expect(requests).toEqual(['first', '6']);
});
