/**
 * @jest-environment ./__tests__/fixtures/jsdomWithFetch.js
 */
/**
 * The hooks of lenscache/react (see docs/hooks.md) under a real configureStore store and a real local
 * server: what each returns, when it fetches, suspends or throws, and that it renders only when
 * its own result changes (render counts).
 */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Suspense, useState } from 'react';
import { Provider, useSelector } from 'react-redux';
import { All, ErrorCode, LensCacheError, NetworkError, Query, type CacheState } from '../../src/index';
import { internalsOf } from '../../src/store/createCache';
import { useCache, useController, useFetch, useQuery, useSuspense, type UsablePromise } from '../../src/react/index';
import { Article, Author, exampleEndpoints } from '../fixtures/endpoints';
import { Stats, Ticker } from '../fixtures/readSchemas';
import { Boundary, fetchCalls, flushStarts, quietErrors, renderWithCache, settle } from '../fixtures/render';
import { startServer, type TestServer } from '../fixtures/server';
import { makeStore } from '../fixtures/store';

let server: TestServer;
let api: ReturnType<typeof exampleEndpoints>;

const users = [
  { id: 'u1', name: 'Ann', isAdmin: true },
  { id: 'u2', name: 'Bo', isAdmin: false },
  { id: 'u3', name: 'Cy', isAdmin: false },
];
const seedPosts = [
  { id: '1', title: 'Banana', group: 'react', author: users[0] },
  { id: '2', title: 'Apple', group: 'react', author: users[1] },
];
let created = 0;

beforeAll(async () => {
  server = await startServer();
  api = exampleEndpoints(server.origin);
  defaultRoutes();
});
afterAll(() => server.close());
// A test that changes a route (even one that fails) does not leak it into the next test.
afterEach(defaultRoutes);

function defaultRoutes() {
  server.on('GET /:group/posts', (_request, url) => {
    const orderBy = url.searchParams.get('orderBy') as 'title' | null;
    return { json: orderBy ? [...seedPosts].sort((a, b) => a[orderBy].localeCompare(b[orderBy])) : seedPosts };
  });
  server.on('POST /:group/posts', request => {
    const { title } = request.body as { title: string };
    return { status: 201, json: { id: `new${++created}`, title, group: 'react', author: users[2] } };
  });
  server.on('GET /users', () => ({ json: users }));
  server.on('GET /tickers/:id', request => ({ json: { product_id: request.url.split('/').pop(), price: 101 } }));
  server.on('GET /stats/:id', request => ({ json: { product_id: request.url.split('/').pop(), last: 99 } }));
}

/** Counts renders per name: a component calls `renders.hit(name)` in its body. */
function renderCounter() {
  const counts: Record<string, number> = {};
  return {
    counts,
    hit(name: string) {
      counts[name] = (counts[name] ?? 0) + 1;
    },
  };
}

const sortedPosts = new Query(
  // The list schema of getPosts: the Collection, read with the same args as its endpoint.
  exampleEndpoints('').getPosts.schema,
  (posts: Article[], { orderBy }: { orderBy?: 'title' | 'id' } = {}) =>
    orderBy ? [...posts].sort((a, b) => a[orderBy].localeCompare(b[orderBy])) : posts,
);
const userCount = new Query(new All(Author), (all: Author[]) => all.length);
const adminCount = new Query(new All(Author), (all: Author[]) => all.filter(user => user.isAdmin).length);
const currentPrice = new Query({ ticker: Ticker, stats: Stats }, ({ ticker, stats }) => ({
  price: ticker?.price ?? stats?.last,
  source: ticker ? 'ticker' : stats ? 'stats' : 'none',
}));

describe('useQuery', () => {
  test('sorted posts stay sorted after a create through getPosts.push, with no list refetch', async () => {
    const renders = renderCounter();
    function SortedTitles() {
      renders.hit('sorted');
      const posts = useQuery(sortedPosts, { group: 'react', orderBy: 'title' });
      return (
        <ol data-testid="sorted">
          {posts?.map(post => (
            <li key={post.id}>{post.title}</li>
          ))}
        </ol>
      );
    }
    function Create() {
      const controller = useController();
      return (
        <button onClick={() => void controller.fetch(api.getPosts.push, { group: 'react' }, { title: 'Aardvark' })}>
          create
        </button>
      );
    }
    const { store, cache } = renderWithCache(
      <>
        <SortedTitles />
        <Create />
      </>,
    );
    // Nothing cached: useQuery neither fetches nor suspends; it gives undefined.
    expect(screen.getByTestId('sorted').children).toHaveLength(0);
    await act(() => store.dispatch(cache.fetch(api.getPosts, { group: 'react', orderBy: 'title' })));
    expect(titles('sorted')).toEqual(['Apple', 'Banana']);

    const calls = fetchCalls();
    fireEvent.click(screen.getByText('create'));
    await waitFor(() => expect(titles('sorted')).toEqual(['Aardvark', 'Apple', 'Banana']));
    // Anything the create's arrival started would have been sent by now: only the POST went out.
    await flushStarts();
    expect(calls.count()).toBe(1);
    calls.restore();
    // The raw list has the create appended; the query sorts it.
    expect(
      cache.selectQuery(store.getState(), api.getPosts.schema, { group: 'react', orderBy: 'title' })!.map(p => p.title),
    ).toEqual(['Apple', 'Banana', 'Aardvark']);
    expect(renders.counts.sorted).toBe(3); // empty, fetched, created
  });

  test('user and admin counts are undefined before anything is cached, then counted', async () => {
    function Counts() {
      const count = useQuery(userCount);
      const admins = useQuery(adminCount);
      return <p data-testid="counts">{`${String(count)} users, ${String(admins)} admins`}</p>;
    }
    const { store, cache } = renderWithCache(<Counts />);
    expect(screen.getByTestId('counts').textContent).toBe('undefined users, undefined admins');
    await act(() => store.dispatch(cache.fetch(api.getUsers)));
    expect(screen.getByTestId('counts').textContent).toBe('3 users, 1 admins');
  });

  test('the ticker/stats join falls back to stats, then follows ticker updates pushed into the cache', async () => {
    function Price({ product }: { product: string }) {
      const price = useQuery(currentPrice, { product_id: product });
      return <p data-testid="price">{price ? `${price.price} from ${price.source}` : 'no price'}</p>;
    }
    const { store, cache } = renderWithCache(<Price product="BTC" />);
    expect(screen.getByTestId('price').textContent).toBe('undefined from none');
    await act(() => store.dispatch(cache.fetch(api.getStats, { product_id: 'BTC' })));
    expect(screen.getByTestId('price').textContent).toBe('99 from stats');
    await act(() => store.dispatch(cache.fetch(api.getTicker, { product_id: 'BTC' })));
    expect(screen.getByTestId('price').textContent).toBe('101 from ticker');
    // A stream's update, written straight into the cache.
    act(() => store.dispatch(cache.set(Ticker, { product_id: 'BTC', price: 105 })));
    expect(screen.getByTestId('price').textContent).toBe('105 from ticker');
  });

  test('renders nothing on unrelated dispatches, writes to other entities, or identical refetches', async () => {
    const renders = renderCounter();
    function Sorted() {
      renders.hit('sorted');
      const posts = useQuery(sortedPosts, { group: 'react', orderBy: 'title' });
      return <p>{posts?.length}</p>;
    }
    function Count() {
      renders.hit('count');
      return <p>{useQuery(userCount)}</p>;
    }
    function Price() {
      renders.hit('price');
      return <p>{useQuery(currentPrice, { product_id: 'BTC' })?.price}</p>;
    }
    function Post() {
      renders.hit('post');
      return <p>{useQuery(Article, '1')?.title}</p>;
    }
    const { store, cache } = renderWithCache(
      <>
        <Sorted />
        <Count />
        <Price />
        <Post />
      </>,
    );
    await act(async () => {
      await store.dispatch(cache.fetch(api.getPosts, { group: 'react', orderBy: 'title' }));
      await store.dispatch(cache.fetch(api.getUsers));
      await store.dispatch(cache.fetch(api.getTicker, { product_id: 'BTC' }));
    });
    const settled = { ...renders.counts };

    // An action of another slice.
    act(() => void store.dispatch({ type: 'other/bump' }));
    // A write to another entity of a read table, and to a table nobody reads.
    act(() => store.dispatch(cache.set(Ticker, { product_id: 'ETH', price: 3 })));
    act(() => store.dispatch(cache.set(Stats, { product_id: 'ETH', last: 3 })));
    // A post outside the list.
    act(() => store.dispatch(cache.set(Article, { id: '99', title: 'Elsewhere', group: 'vue', author: 'u1' })));
    // Identical refetches: only the meta (expiry) moves.
    await act(async () => {
      store.dispatch(cache.expireAll());
      await store.dispatch(cache.fetch(api.getUsers));
      await store.dispatch(cache.fetch(api.getPosts, { group: 'react', orderBy: 'title' }));
    });
    expect(renders.counts).toEqual(settled);

    // A real change to post 1 renders its readers only: the list and the post, not the counts or the price.
    act(() => store.dispatch(cache.set(Article, { id: '1', title: 'Blueberry' })));
    expect(renders.counts).toEqual({ ...settled, sorted: settled.sorted! + 1, post: settled.post! + 1 });
  });

  test('inline args are compared by value (no new read on a re-render); null args read nothing', () => {
    const seen: unknown[] = [];
    function Reader({ skip }: { skip: boolean }) {
      const posts = useQuery(sortedPosts, skip ? null : { orderBy: 'title', group: 'react' });
      seen.push(posts);
      return null;
    }
    const setup = makeStore();
    setup.store.dispatch(setup.cache.setResponse(api.getPosts, { group: 'react', orderBy: 'title' }, seedPosts));
    const reads = jest.spyOn(internalsOf(setup.cache), 'query');
    const { rerender } = renderWithCache(<Reader skip={false} />, { setup });
    const readsAfterMount = reads.mock.calls.length;
    // A new but equal args object: the same selector, so the store is not read again.
    rerender(<Reader skip={false} />);
    expect(reads.mock.calls.length).toBe(readsAfterMount);
    rerender(<Reader skip />);
    reads.mockRestore();
    expect(seen[0]).toHaveLength(2);
    expect(seen[1]).toBe(seen[0]);
    expect(seen[2]).toBeUndefined();
  });
});

describe('useSuspense', () => {
  test('suspends while missing, then returns the data; StrictMode still makes one request', async () => {
    const renders = renderCounter();
    function Posts() {
      const posts = useSuspense(api.getPosts, { group: 'react' });
      renders.hit('posts');
      return (
        <ul>
          {posts.map(post => (
            <li key={post.id}>{post.title}</li>
          ))}
        </ul>
      );
    }
    const before = server.count('GET /react/posts');
    renderWithCache(
      <Suspense fallback={<p>loading</p>}>
        <Posts />
      </Suspense>,
      { strict: true },
    );
    expect(screen.getByText('loading')).toBeTruthy();
    await screen.findByText('Banana');
    await settle();
    expect(server.count('GET /react/posts') - before).toBe(1);
  });

  test('no endpoint code runs inside the render that starts a fetch (an app fetch wrapper may dispatch)', async () => {
    // Like an app that logs every request in its own slice: the wrapper dispatches when called.
    const { store, cache } = makeStore();
    const counted = {
      key: (_params?: object) => 'GET /counted',
      schema: undefined,
      fetch: () => {
        store.dispatch({ type: 'other/bump' });
        return Promise.resolve({ ok: true });
      },
    };
    function Logged() {
      // Started by a later render, once the rest of the page (Bumps) is mounted and subscribed.
      const [on, setOn] = useState(false);
      const data = useSuspense(counted, on ? {} : null);
      renders.push(data);
      return data ? <p>done</p> : <button onClick={() => setOn(true)}>start</button>;
    }
    function Bumps() {
      return <p>{useSelector((state: { other: number }) => state.other)} bumps</p>;
    }
    const renders: unknown[] = [];
    const logged = jest.spyOn(console, 'error');
    try {
      renderWithCache(
        <>
          <Bumps />
          <Suspense fallback={<p>loading</p>}>
            <Logged />
          </Suspense>
        </>,
        { setup: { store, cache } },
      );
      fireEvent.click(screen.getByText('start'));
      await screen.findByText('done');
      // React reports a store update inside another component's render on console.error.
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
    expect(renders.at(-1)).toEqual({ ok: true });
    expect((store.getState() as { other: number }).other).toBe(1);
  });

  test('throws a stored error to the nearest error boundary; nothing but the error record is written', async () => {
    server.on('GET /posts/:id', () => ({ status: 404, json: { message: 'no such post' } }));
    const caught: Error[] = [];
    function Post() {
      const post = useSuspense(api.getPost, { id: 'missing' });
      return <p>{post.title}</p>;
    }
    // React reports errors caught by a boundary on console.error; keep the test output clean.
    const logged = quietErrors();
    const { store } = renderWithCache(
      <Boundary caught={caught}>
        <Suspense fallback={<p>loading</p>}>
          <Post />
        </Suspense>
      </Boundary>,
    );
    await screen.findByRole('alert').finally(() => logged.mockRestore());
    expect(caught[0]).toBeInstanceOf(NetworkError);
    expect((caught[0] as NetworkError).status).toBe(404);
    const slice = store.getState().cache as CacheState;
    expect(slice.entities).toEqual({});
    expect(slice.endpoints).toEqual({});
    expect(Object.values(slice.meta).map(meta => meta.error?.status)).toEqual([404]);
  });

  test('a server error while data is stored is soft: the data stays on screen and the error is readable', async () => {
    let failing = false;
    server.on('GET /users', () => (failing ? { status: 503, json: { message: 'down' } } : { json: users }));
    function Names() {
      const list = useSuspense(api.getUsers);
      return <p data-testid="names">{list.map(user => user.name).join(',')}</p>;
    }
    const { store, cache } = renderWithCache(
      <Boundary>
        <Suspense fallback={<p>loading</p>}>
          <Names />
        </Suspense>
      </Boundary>,
    );
    await screen.findByText('Ann,Bo,Cy');
    failing = true;
    await act(async () => {
      store.dispatch(cache.expireAll());
      await store.dispatch(cache.fetch(api.getUsers)).catch(() => undefined);
    });
    expect(screen.getByTestId('names').textContent).toBe('Ann,Bo,Cy');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(cache.selectResponse(store.getState(), api.getUsers).error).toMatchObject({ status: 503 });
  });

  test('stale data is shown at once and revalidated in the background, without suspense', async () => {
    const renders = renderCounter();
    let price = 101;
    server.on('GET /tickers/:id', () => ({ json: { product_id: 'STALE', price } }));
    function Fallback() {
      renders.hit('fallback');
      return <p>loading</p>;
    }
    function Price() {
      const ticker = useSuspense(api.getTicker, { product_id: 'STALE' });
      return <p data-testid="ticker">{ticker.price}</p>;
    }
    function App() {
      const [, setTick] = useState(0);
      return (
        <>
          <button onClick={() => setTick(tick => tick + 1)}>render</button>
          <Suspense fallback={<Fallback />}>
            <Price />
          </Suspense>
        </>
      );
    }
    const { store, cache } = renderWithCache(<App />);
    await waitFor(() => expect(screen.getByTestId('ticker').textContent).toBe('101'));
    const fallbacks = renders.counts.fallback;
    const before = server.count('GET /tickers/STALE');

    price = 102;
    // expireAll makes the data stale: the next render shows it and refetches behind it.
    act(() => store.dispatch(cache.expireAll()));
    expect(cache.selectResponse(store.getState(), api.getTicker, { product_id: 'STALE' }).expiryStatus).not.toBe(
      'valid',
    );
    expect(screen.getByTestId('ticker').textContent).toBe('101');
    await waitFor(() => expect(screen.getByTestId('ticker').textContent).toBe('102'));
    expect(server.count('GET /tickers/STALE') - before).toBe(1);
    expect(renders.counts.fallback).toBe(fallbacks);

    // Time alone can expire data: a render after expiresAt revalidates too, with no store change.
    price = 103;
    const expiresAt = cache.selectResponse(store.getState(), api.getTicker, { product_id: 'STALE' }).expiresAt;
    const clock = jest.spyOn(Date, 'now').mockReturnValue(expiresAt + 1);
    try {
      fireEvent.click(screen.getByText('render'));
      expect(screen.getByTestId('ticker').textContent).toBe('102');
    } finally {
      clock.mockRestore();
    }
    await waitFor(() => expect(screen.getByTestId('ticker').textContent).toBe('103'));
    expect(server.count('GET /tickers/STALE') - before).toBe(2);
    expect(renders.counts.fallback).toBe(fallbacks);
  });

  test('invalidate makes it suspend and fetch again', async () => {
    function Names() {
      const list = useSuspense(api.getUsers);
      return <p data-testid="names">{list.length}</p>;
    }
    const { store, cache } = renderWithCache(
      <Suspense fallback={<p>loading</p>}>
        <Names />
      </Suspense>,
    );
    await screen.findByText('3');
    const before = server.count('GET /users');
    // The next answer has a fourth user, so the new content proves the refetch arrived.
    server.on('GET /users', () => ({ json: [...users, { id: 'u4', name: 'Dee', isAdmin: false }] }));
    act(() => store.dispatch(cache.invalidate(api.getUsers)));
    expect(screen.getByText('loading')).toBeTruthy();
    // Suspense keeps the old content hidden in the DOM: wait for the fallback to go.
    await waitFor(() => expect(screen.queryByText('loading')).toBeNull());
    expect(screen.getByTestId('names').textContent).toBe('4');
    expect(server.count('GET /users') - before).toBe(1);
  });

  test('null args skip: undefined, no fetch, no suspense', async () => {
    let result: unknown = 'unset';
    function Skipped() {
      result = useSuspense(api.getPost, null);
      return <p>rendered</p>;
    }
    const calls = fetchCalls();
    renderWithCache(<Skipped />);
    expect(screen.getByText('rendered')).toBeTruthy();
    expect(result).toBeUndefined();
    await flushStarts();
    expect(calls.count()).toBe(0);
    calls.restore();
  });

  test('a mutation endpoint is refused with a clear error instead of a request per render', async () => {
    const caught: Error[] = [];
    function Misuse() {
      // Called the way untyped code (or a cast) would.
      (useSuspense as (...args: unknown[]) => unknown)(api.getPosts.push, { group: 'react' });
      return null;
    }
    const calls = fetchCalls();
    const error = quietErrors();
    try {
      renderWithCache(
        <Boundary caught={caught}>
          <Misuse />
        </Boundary>,
      );
      await flushStarts();
    } finally {
      error.mockRestore();
      calls.restore();
    }
    expect(caught[0]).toBeInstanceOf(LensCacheError);
    expect(caught[0]).toMatchObject({ code: ErrorCode.MUTATION_IN_HOOK });
    // useMutation is the fix it names first; the controller is the alternative.
    expect(caught[0]!.message).toMatch(/mutation.*\n.*useMutation\(endpoint\).*useController\(\)\.fetch/s);
    expect(calls.count()).toBe(0);
  });
});

describe('useFetch', () => {
  test('starts the needed fetch without suspending and returns its promise; settled with the data when valid; none when skipped', async () => {
    const promises: Array<UsablePromise<unknown> | undefined> = [];
    function Prefetch({ id }: { id: string | null }) {
      promises.push(useFetch(api.getTicker, id === null ? null : { product_id: id }));
      return <p>shown</p>;
    }
    const calls = fetchCalls();
    const { store, cache, rerender } = renderWithCache(<Prefetch id="PREFETCH" />);
    expect(screen.getByText('shown')).toBeTruthy();
    expect(promises[0]).toBeInstanceOf(Promise);
    expect(promises[0]!.status).toBeUndefined();
    let data: unknown;
    await act(async () => {
      data = await promises[0];
    });
    expect(data).toBe(cache.selectQuery(store.getState(), Ticker, 'PREFETCH'));
    // Now valid: a promise use() reads at once, holding the same data, and no request.
    expect(promises.at(-1)).toMatchObject({ status: 'fulfilled', value: data });
    await expect(promises.at(-1)).resolves.toBe(data);
    rerender(<Prefetch id={null} />);
    expect(promises.at(-1)).toBeUndefined();
    await flushStarts();
    calls.restore();
    expect(calls.count('/tickers/PREFETCH')).toBe(1);
  });

  test('its promise rejects with the error useSuspense would throw, and a rejection nobody reads is not reported', async () => {
    server.on('GET /stats/:id', () => ({ status: 500, json: { message: 'boom' } }));
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const promises: Array<UsablePromise<unknown> | undefined> = [];
      function Prefetch() {
        promises.push(useFetch(api.getStats, { product_id: 'FAIL' }));
        return null;
      }
      const { store, cache } = renderWithCache(<Prefetch />);
      let error: unknown;
      await act(async () => {
        error = await promises[0]!.then(
          () => 'resolved',
          (reason: unknown) => reason,
        );
      });
      const stored = cache.selectResponse(store.getState(), api.getStats, { product_id: 'FAIL' }).error;
      expect(stored).toMatchObject({ status: 500 });
      expect(error).toBe(stored);
      // Rendered again after the failure: a rejected promise use() reads at once.
      expect(promises.at(-1)).toMatchObject({ status: 'rejected', reason: stored });
      await new Promise(resolve => setTimeout(resolve, 10));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});

describe('useCache', () => {
  test('reads without fetching: undefined until something fetches, then the data, undefined again when invalidated', async () => {
    const seen: unknown[] = [];
    function Cached() {
      const list = useCache(api.getUsers);
      seen.push(list);
      return <p data-testid="cached">{list ? list.length : 'none'}</p>;
    }
    const calls = fetchCalls();
    const { store, cache } = renderWithCache(<Cached />);
    await flushStarts();
    expect(screen.getByTestId('cached').textContent).toBe('none');
    expect(calls.count()).toBe(0);

    await act(() => store.dispatch(cache.fetch(api.getUsers)));
    expect(screen.getByTestId('cached').textContent).toBe('3');
    // Stale data is still data.
    act(() => store.dispatch(cache.expireAll()));
    expect(screen.getByTestId('cached').textContent).toBe('3');
    act(() => store.dispatch(cache.invalidate(api.getUsers)));
    expect(screen.getByTestId('cached').textContent).toBe('none');
    await flushStarts();
    calls.restore();
    // Only the fetch the test made itself.
    expect(calls.count()).toBe(1);
  });
});

describe('render counts of the endpoint hooks', () => {
  test('useSuspense, useFetch and useCache render only for their own result', async () => {
    const renders = renderCounter();
    function Suspended() {
      renders.hit('suspense');
      return <p>{useSuspense(api.getUsers).length}</p>;
    }
    function Fetching() {
      renders.hit('fetch');
      useFetch(api.getTicker, { product_id: 'COUNTS' });
      return null;
    }
    function Cached() {
      renders.hit('cache');
      return <p>{useCache(api.getUsers)?.length ?? 'none'}</p>;
    }
    const { store, cache } = renderWithCache(
      <>
        <Suspense fallback={<p>loading</p>}>
          <Suspended />
        </Suspense>
        <Fetching />
        <Cached />
      </>,
    );
    await screen.findByText('3');
    await settle();
    const settled = { ...renders.counts };

    // Another slice's action, an entity nobody reads, a valid response refetched with the same content.
    act(() => void store.dispatch({ type: 'other/bump' }));
    act(() => store.dispatch(cache.set(Stats, { product_id: 'ZZZ', last: 1 })));
    await act(async () => {
      await store.dispatch(cache.fetch(api.getUsers));
    });
    expect(renders.counts).toEqual(settled);

    // A user changes: the two readers of the list render once each; useFetch does not.
    act(() => store.dispatch(cache.set(Author, { id: 'u2', name: 'Bob' })));
    expect(renders.counts).toEqual({ ...settled, suspense: settled.suspense! + 1, cache: settled.cache! + 1 });
    // The ticker useFetch asked for changes: it renders once, for the data its promise holds
    // (a component that gives it to use() shows the new value).
    act(() => store.dispatch(cache.set(Ticker, { product_id: 'COUNTS', price: 555 })));
    expect(renders.counts).toEqual({
      ...settled,
      suspense: settled.suspense! + 1,
      cache: settled.cache! + 1,
      fetch: settled.fetch! + 1,
    });
  });
});

describe('useController and CacheProvider', () => {
  test('useController is the cache controller of the store in context, the same object on every render', () => {
    const seen: unknown[] = [];
    function Probe() {
      seen.push(useController());
      return null;
    }
    const { store, cache, rerender } = renderWithCache(<Probe />);
    rerender(<Probe />);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
    expect(seen[0]).toBe(cache.controller(store));
  });

  test('one cache in two stores: each tree reads its own store', () => {
    const first = makeStore();
    const second = makeStore({}, { cache: first.cache });
    first.store.dispatch(first.cache.set(Author, { id: 'u1', name: 'In the first store' }));
    second.store.dispatch(first.cache.set(Author, { id: 'u1', name: 'In the second store' }));
    function Name() {
      return <p>{useQuery(Author, 'u1')?.name}</p>;
    }
    renderWithCache(<Name />, { setup: first });
    renderWithCache(<Name />, { setup: second });
    expect(screen.getByText('In the first store')).toBeTruthy();
    expect(screen.getByText('In the second store')).toBeTruthy();
  });

  test('a hook outside CacheProvider throws a clear error', () => {
    const { store } = makeStore();
    function Orphan() {
      useQuery(Author, 'u1');
      return null;
    }
    const error = quietErrors();
    try {
      expect(() =>
        render(
          <Provider store={store}>
            <Orphan />
          </Provider>,
        ),
      ).toThrow(
        expect.objectContaining({
          code: ErrorCode.CACHE_PROVIDER_MISSING,
          message: expect.stringMatching(/useQuery.*<CacheProvider>/),
        }),
      );
    } finally {
      error.mockRestore();
    }
  });
});

function titles(testId: string): string[] {
  return [...screen.getByTestId(testId).children].map(item => item.textContent ?? '');
}
