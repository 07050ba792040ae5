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
import { gate, startServer, type TestServer } from '../fixtures/server';
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
/** Every request by `group:cursor` (group '' without one); answers held back by the same key. */
let seen: string[] = [];
const holds = new Map<string, Promise<void>>();

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
    const group = url.searchParams.get('group') ?? '';
    requests.push(cursor ?? 'first');
    seen.push(`${group}:${cursor ?? 'first'}`);
    const hold = holds.get(`${group}:${cursor ?? 'first'}`);
    if (cursor !== null && cursor === failCursor) return { status: 500, json: { message: 'down' }, hold };
    const start = Number(cursor ?? 0);
    const next = start + 2 < items.length ? String(start + 2) : null;
    const results = items.slice(start, start + 2).map(item => ({ ...item, name: `${group}${item.name}` }));
    return { json: { results, nextCursor: next }, hold };
  });
});
afterAll(() => server.close());
beforeEach(() => {
  requests = [];
  seen = [];
  holds.clear();
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

/** The list under a Suspense boundary, in `setup`'s store (a new one by default). */
function mountList(getItems: ReturnType<typeof endpoint>, setup: ReturnType<typeof makeStore> = makeStore()) {
  return renderWithCache(
    <Suspense fallback={<p>loading</p>}>
      <List getItems={getItems} />
    </Suspense>,
    { setup },
  );
}

/** Waits for the first page, loads the second, and waits for it. */
async function showTwoPages() {
  await screen.findByText('Item 2');
  fireEvent.click(screen.getByText('more'));
  await screen.findByText('Item 4');
}

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
  mountList(getItems);
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
  const first = mountList(getItems, setup);
  await showTwoPages();
  requests = [];
  // A refetch of the list (focus, invalidation): both pages again, in one write.
  await act(async () => {
    await setup.store.dispatch(setup.cache.fetch(getItems));
  });
  expect(requests).toEqual(['first', '2']);
  expect(names()).toEqual(['Item 1', 'Item 2', 'Item 3', 'Item 4']);
  first.unmount();
  requests = [];
  mountList(getItems, setup);
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
  mountList(getItems);
  await screen.findByText('Item 2');
  fireEvent.click(screen.getByText('more'));
  await waitFor(() => expect(names()).toHaveLength(4));
  expect(requests).toEqual(['first', '2']);
});

test('a sweep while the list is mounted never takes "load more" away', async () => {
  const getItems = endpoint();
  const setup = makeStore({ gcTime: 0 });
  mountList(getItems, setup);
  await showTwoPages();
  // Past the grace of a fresh write: the page's own response is unused, and goes.
  const now = Date.now();
  const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 2_000);
  try {
    act(() => {
      setup.cache.gc(setup.store);
    });
  } finally {
    clock.mockRestore();
  }
  expect(names()).toEqual(['Item 1', 'Item 2', 'Item 3', 'Item 4']);
  fireEvent.click(screen.getByText('more'));
  await screen.findByText('all loaded');
  expect(requests).toEqual(['first', '2', '4']);
});

describe('its state belongs to its args', () => {
  const grouped = () =>
    new RestEndpoint({
      urlPrefix: server.origin,
      path: '/items',
      searchParams: {} as { group: string; cursor?: string },
      schema: { results: new Collection([Item]), nextCursor: null as string | null },
      paginationField: 'cursor',
    });
  function Group({ getItems, group }: { getItems: ReturnType<typeof grouped>; group: string }) {
    const { data, loadMore, hasMore, loadingMore, error } = useInfinite(getItems, { group });
    return (
      <>
        <ul>
          {data.results.map(item => (
            <li key={item.id}>{item.name}</li>
          ))}
        </ul>
        {hasMore && <button onClick={() => void loadMore()}>more</button>}
        {loadingMore && <p>loading more</p>}
        {error && <p role="alert">{error.message}</p>}
      </>
    );
  }
  const view = (getItems: ReturnType<typeof grouped>, group: string) => (
    <Suspense fallback={<p>loading</p>}>
      <Group getItems={getItems} group={group} />
    </Suspense>
  );

  test("list A's failed page is not list B's error", async () => {
    const getItems = grouped();
    const { rerender } = renderWithCache(view(getItems, 'a'));
    await screen.findByText('aItem 2');
    failCursor = '2';
    fireEvent.click(screen.getByText('more'));
    await screen.findByRole('alert');
    failCursor = undefined;
    rerender(view(getItems, 'b'));
    await screen.findByText('bItem 2');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  test("list A's page in flight neither blocks list B's loadMore nor shows as B's", async () => {
    const getItems = grouped();
    const { rerender } = renderWithCache(view(getItems, 'a'));
    await screen.findByText('aItem 2');
    const pageA = gate();
    holds.set('a:2', pageA.promise);
    fireEvent.click(screen.getByText('more'));
    await screen.findByText('loading more');
    rerender(view(getItems, 'b'));
    await screen.findByText('bItem 2');
    expect(screen.queryByText('loading more')).toBeNull();
    fireEvent.click(screen.getByText('more'));
    await screen.findByText('bItem 4');
    expect(seen).toContain('b:2');
    pageA.open();
  });
});

test('a list read at two lenses is one list: lens B shows every page lens A loaded, and offers the next', async () => {
  // The lens (`group` here) is a request param, kept out of the Collection's argsKey.
  const getItems = new RestEndpoint({
    urlPrefix: server.origin,
    path: '/items',
    searchParams: {} as { group: string; cursor?: string },
    schema: { results: new Collection([Item], { argsKey: () => ({}) }), nextCursor: null as string | null },
    paginationField: 'cursor',
  });
  function Lens({ group }: { group: string }) {
    const { data, loadMore, hasMore } = useInfinite(getItems, { group });
    return (
      <>
        <p>{`${data.results.length} shown`}</p>
        {hasMore ? <button onClick={() => void loadMore()}>more</button> : <p>all loaded</p>}
      </>
    );
  }
  const view = (group: string) => (
    <Suspense fallback={<p>loading</p>}>
      <Lens group={group} />
    </Suspense>
  );
  const { rerender } = renderWithCache(view('a'));
  await screen.findByText('2 shown');
  fireEvent.click(screen.getByText('more'));
  await screen.findByText('4 shown');
  rerender(view('b'));
  await waitFor(() => expect(seen).toEqual(['a:first', 'a:2', 'b:first', 'b:2']));
  await screen.findByText('4 shown');
  fireEvent.click(screen.getByText('more'));
  await screen.findByText('all loaded');
  expect(screen.getByText('5 shown')).toBeTruthy();
  expect(seen).toEqual(['a:first', 'a:2', 'b:first', 'b:2', 'b:4']);
});
