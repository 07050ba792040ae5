/**
 * @jest-environment ./__tests__/fixtures/jsdomWithFetch.js
 */
/**
 * useSuspense and useFetch at the edges: answers that leave the response invalid, clocks that
 * disagree, background failures, expiry that moves, aborts and resets while suspended. Each case
 * counts requests, so a request loop fails the test instead of hanging it.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Suspense, useState } from 'react';
import { ErrorCode, RestEndpoint, type CacheState } from '../../src/index';
import { useDLE, useSuspense } from '../../src/react/index';
import { Company } from '../fixtures/company';
import { exampleEndpoints } from '../fixtures/endpoints';
import {
  Boundary,
  fetchCalls,
  flushStarts,
  mountReader,
  quietErrors,
  renderWithCache,
  settle,
} from '../fixtures/render';
import { gate, startServer, type TestServer } from '../fixtures/server';
import { GoneNote } from '../fixtures/schemas';
import { makeStore } from '../fixtures/store';

let server: TestServer;
let api: ReturnType<typeof exampleEndpoints>;
beforeAll(async () => {
  server = await startServer();
  api = exampleEndpoints(server.origin);
});
afterAll(() => server.close());

test('an answer that leaves the response invalid is thrown as STILL_INVALID after one request, not fetched again and again', async () => {
  // The answer itself deletes the entity (its process() returns undefined for a "gone" marker):
  // the request settles, and the entity still reads as deleted after it.
  server.on('GET /notes/:id', () => ({ json: { id: 'n1', gone: true } }));
  const getNote = new RestEndpoint({ urlPrefix: server.origin, path: '/notes/:id', schema: GoneNote });
  const setup = makeStore();
  const quiet = quietErrors();
  const calls = fetchCalls();
  try {
    const { caught } = mountReader(() => useSuspense(getNote, { id: 'n1' }), setup);
    await screen.findByRole('alert');
    await flushStarts();
    expect(calls.count('/notes/n1')).toBe(1);
    // A loop would have started more by now (waiting only makes it show; a slow machine cannot fake it).
    await settle(300);
    expect(calls.count('/notes/n1')).toBe(1);
    expect(caught[0]).toMatchObject({ code: ErrorCode.STILL_INVALID });
    expect(caught[0]!.message).toContain(`GET ${server.origin}/notes/n1`);
  } finally {
    quiet.mockRestore();
    calls.restore();
  }
});

test('a stored error that expires at once is thrown, not retried without end', async () => {
  server.on('GET /stats/:id', () => ({ status: 404, json: { message: 'none' } }));
  const noExpiry = new RestEndpoint({ urlPrefix: server.origin, path: '/stats/:product_id', errorExpiryLength: 0 });
  const quiet = quietErrors();
  const calls = fetchCalls();
  try {
    const { caught } = mountReader(() => useSuspense(noExpiry, { product_id: 'ZERO' }));
    await screen.findByRole('alert');
    await flushStarts();
    expect(calls.count('/stats/ZERO')).toBe(1);
    await settle(300);
    expect(calls.count('/stats/ZERO')).toBe(1);
    expect(caught[0]).toMatchObject({ code: ErrorCode.NETWORK_ERROR, status: 404 });
  } finally {
    quiet.mockRestore();
    calls.restore();
  }
});

test('a schema-less endpoint whose fetch gives undefined reads as null after one request', async () => {
  let calls = 0;
  const silent = { key: (_params?: object) => 'GET /silent', fetch: () => (calls++, Promise.resolve(undefined)) };
  mountReader(() => useSuspense(silent));
  await waitFor(() => expect(screen.getByTestId('value').textContent).toBe('null'));
  await flushStarts();
  expect(calls).toBe(1);
});

test('an endpoint whose key() returns no string reaches the error boundary as INVALID_OPTION, with nothing sent', async () => {
  let calls = 0;
  // A user override that forgot its `return`, and one that returns the params object.
  const noReturn = {
    key: (_params: { id: string }) => undefined as unknown as string,
    fetch: () => (calls++, Promise.resolve({})),
  };
  const objectKey = { ...noReturn, key: (params: { id: string }) => params as unknown as string };
  for (const endpoint of [noReturn, objectKey]) {
    const setup = makeStore();
    const before = setup.store.getState();
    const quiet = quietErrors();
    try {
      const { caught, unmount } = mountReader(() => useSuspense(endpoint, { id: '1' }), setup);
      await screen.findByRole('alert');
      await settle(50);
      expect(calls).toBe(0);
      expect(caught[0]).toMatchObject({ code: ErrorCode.INVALID_OPTION });
      expect(caught[0]!.message).toMatch(/key\(\.\.\.args\) .* returned (undefined|object \{id\})/);
      expect(setup.store.getState()).toBe(before);
      unmount();
    } finally {
      quiet.mockRestore();
    }
  }
});

test('an entry stamped by a clock that runs ahead (hydrated server state) can still be invalidated and refetched', async () => {
  server.on('GET /tickers/:id', request => ({ json: { product_id: request.url.split('/').pop(), price: 7 } }));
  const setup = makeStore();
  const ahead = Date.now() + 60_000;
  setup.store.dispatch(
    setup.cache.resolve(api.getTicker, {
      args: [{ product_id: 'AHEAD' }],
      response: { product_id: 'AHEAD', price: 1 },
      fetchedAt: ahead,
    }),
  );
  mountReader(() => (useSuspense(api.getTicker, { product_id: 'AHEAD' }) as { price: number }).price, setup);
  expect(screen.getByTestId('value').textContent).toBe('1');
  const calls = fetchCalls();
  try {
    act(() => setup.store.dispatch(setup.cache.invalidate(api.getTicker, { product_id: 'AHEAD' })));
    // The new request's answer makes the entry valid again: one request, no suspense without end.
    await waitFor(() => expect(screen.queryByText('loading')).toBeNull());
    await flushStarts();
  } finally {
    calls.restore();
  }
  expect(calls.count('/tickers/AHEAD')).toBe(1);
  // The browser's own request started after it was handed the data, whatever the clocks: its answer wins.
  expect(screen.getByTestId('value').textContent).toBe('7');
  expect(setup.cache.selectResponse(setup.store.getState(), api.getTicker, { product_id: 'AHEAD' }).expiryStatus).toBe(
    'valid',
  );
});

test('a failed background refetch is stored, and is no unhandled rejection', async () => {
  let failing = false;
  server.on('GET /tickers/:id', request =>
    failing ? { status: 503, json: {} } : { json: { product_id: request.url.split('/').pop(), price: 3 } },
  );
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    const setup = makeStore();
    mountReader(() => (useSuspense(api.getTicker, { product_id: 'BG' }) as { price: number }).price, setup);
    await waitFor(() => expect(screen.getByTestId('value').textContent).toBe('3'));
    failing = true;
    const calls = fetchCalls();
    try {
      act(() => setup.store.dispatch(setup.cache.expireAll()));
      await waitFor(() =>
        expect(
          setup.cache.selectResponse(setup.store.getState(), api.getTicker, { product_id: 'BG' }).error,
        ).toBeDefined(),
      );
      await flushStarts();
    } finally {
      calls.restore();
    }
    expect(calls.count('/tickers/BG')).toBe(1);
    // Soft: the data stays.
    expect(screen.getByTestId('value').textContent).toBe('3');
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
  expect(unhandled).toEqual([]);
});

test('expiry that moved earlier without a data change is seen by the next render', async () => {
  server.on('GET /companies', () => ({
    json: [{ id: '1', name: 'Acme', price: 1, pct_equity: 0.5, shares: 1, sector: { id: 's1', name: 'Tech' } }],
  }));
  const setup = makeStore();
  await setup.store.dispatch(setup.cache.fetch(api.getCompanies, { portfolio: 'A' }));
  // At B the list is read through its query key: its expiry is its rows' (60 s from now).
  let rerender!: () => void;
  function Table() {
    const [, setTick] = useState(0);
    rerender = () => setTick(tick => tick + 1);
    const list = useSuspense(api.getCompanies, { portfolio: 'B' }) as Company[];
    return <p>{list.length} companies</p>;
  }
  renderWithCache(<Table />, { setup });
  expect(screen.getByText('1 companies')).toBeTruthy();
  // The same row, written again by an endpoint with a short expiry: the data is identical, only
  // the row's expiresAt moves earlier.
  const shortLived = { key: () => 'short', schema: Company, dataExpiryLength: 30 };
  act(() =>
    setup.store.dispatch(
      setup.cache.setResponse(shortLived, { id: '1', name: 'Acme', price: 1, sector: { id: 's1', name: 'Tech' } }),
    ),
  );
  const calls = fetchCalls();
  const expiresAt = setup.cache.selectResponse(setup.store.getState(), api.getCompanies, { portfolio: 'B' }).expiresAt;
  const clock = jest.spyOn(Date, 'now').mockReturnValue(expiresAt + 1);
  try {
    act(() => rerender());
    await flushStarts();
  } finally {
    clock.mockRestore();
    calls.restore();
  }
  expect(calls.count('/companies?portfolio=B')).toBe(1);
});

test('dataExpiryLength 0: the answer is shown, stale at once, and not fetched again by the renders that follow', async () => {
  let price = 0;
  server.on('GET /tickers/:id', () => ({ json: { product_id: 'ZERO', price: ++price } }));
  const zero = api.getTicker.extend({ dataExpiryLength: 0 });
  const setup = makeStore();
  const calls = fetchCalls();
  let rerender!: () => void;
  function Price() {
    const [tick, setTick] = useState(0);
    rerender = () => setTick(n => n + 1);
    const ticker = useSuspense(zero, { product_id: 'ZERO' }) as { price: number };
    return <p>{`price ${ticker.price}, tick ${tick}`}</p>;
  }
  try {
    renderWithCache(
      <Suspense fallback={<p>loading</p>}>
        <Price />
      </Suspense>,
      { setup },
    );
    await screen.findByText('price 1, tick 0');
    // Renders of its own and writes elsewhere in the cache: none of them fetches it again.
    for (let i = 1; i <= 5; i++) {
      act(() => rerender());
      act(() =>
        setup.store.dispatch(
          setup.cache.setResponse(api.getTicker, { product_id: `OTHER${i}` }, { product_id: `OTHER${i}`, price: i }),
        ),
      );
      await settle();
    }
    expect(screen.getByText('price 1, tick 5')).toBeTruthy();
    expect(calls.count('/tickers/ZERO')).toBe(1);
    expect(setup.cache.selectResponse(setup.store.getState(), zero, { product_id: 'ZERO' }).expiryStatus).toBe('stale');
  } finally {
    calls.restore();
  }
});

test('dataExpiryLength 0 with useDLE: loading, then the answer, fetched once over the renders that follow', async () => {
  let price = 0;
  server.on('GET /tickers/:id', () => ({ json: { product_id: 'ZERO3', price: ++price } }));
  const zero = api.getTicker.extend({ dataExpiryLength: 0 });
  const calls = fetchCalls();
  let rerender!: () => void;
  function Price() {
    const [tick, setTick] = useState(0);
    rerender = () => setTick(n => n + 1);
    const { data, loading } = useDLE(zero, { product_id: 'ZERO3' });
    return <p>{loading ? 'loading' : `price ${(data as { price: number }).price}, tick ${tick}`}</p>;
  }
  try {
    renderWithCache(<Price />);
    await screen.findByText('price 1, tick 0');
    for (let i = 1; i <= 5; i++) {
      act(() => rerender());
      await settle();
    }
    expect(screen.getByText('price 1, tick 5')).toBeTruthy();
    expect(calls.count('/tickers/ZERO3')).toBe(1);
  } finally {
    calls.restore();
  }
});

test('dataExpiryLength 0: a reader mounting later and an invalidation each fetch it once more', async () => {
  let price = 0;
  server.on('GET /tickers/:id', () => ({ json: { product_id: 'ZERO2', price: ++price } }));
  const zero = api.getTicker.extend({ dataExpiryLength: 0 });
  const setup = makeStore();
  const calls = fetchCalls();
  function Price({ name }: { name: string }) {
    const ticker = useSuspense(zero, { product_id: 'ZERO2' }) as { price: number };
    return <p>{`${name} ${ticker.price}`}</p>;
  }
  const page = (second: boolean) => (
    <Suspense fallback={<p>loading</p>}>
      <Price name="first" />
      {second ? <Price name="second" /> : null}
    </Suspense>
  );
  try {
    const { rerender } = renderWithCache(page(false), { setup });
    await screen.findByText('first 1');
    await settle();
    // A mount is a trigger: the stale answer is shown to the new reader and fetched once more.
    rerender(page(true));
    await screen.findByText('second 2');
    await settle();
    expect(screen.getByText('first 2')).toBeTruthy();
    expect(calls.count('/tickers/ZERO2')).toBe(2);
    // So is an invalidation.
    act(() => setup.store.dispatch(setup.cache.invalidate(zero, { product_id: 'ZERO2' })));
    await screen.findByText('second 3');
    await settle();
    expect(calls.count('/tickers/ZERO2')).toBe(3);
  } finally {
    calls.restore();
  }
});

test('an abort while suspended is no failure of the key: nothing reaches the boundary, and the reader fetches again', async () => {
  const held = gate();
  let answer = 1;
  server.on('GET /users', () =>
    answer === 1 ? { json: [], hold: held.promise } : { json: [{ id: 'u1', name: 'Ann' }] },
  );
  const setup = makeStore();
  const calls = fetchCalls();
  try {
    const { caught } = mountReader(
      () => (useSuspense(api.getUsers) as Array<{ name: string }>).map(u => u.name),
      setup,
    );
    expect(screen.getByText('loading')).toBeTruthy();
    await flushStarts();
    // The component's request is in flight; whoever holds the shared promise aborts it.
    const shared = setup.store.dispatch(setup.cache.fetch(api.getUsers));
    answer = 2;
    await act(async () => {
      shared.abort();
      await shared.catch(() => undefined);
    });
    await screen.findByText('["Ann"]');
    expect(caught).toEqual([]);
    expect(calls.count('/users')).toBe(2);
    expect(setup.cache.selectResponse(setup.store.getState(), api.getUsers).error).toBeUndefined();
  } finally {
    calls.restore();
    held.open();
  }
});

test('an abort of the refetch of an invalidated response is no failure either: the reader fetches again', async () => {
  const held = gate();
  let answer = 1;
  server.on('GET /tickers/:id', () =>
    answer === 1
      ? { json: { product_id: 'ABORTED', price: 1 }, hold: held.promise }
      : { json: { product_id: 'ABORTED', price: 2 } },
  );
  const setup = makeStore();
  setup.store.dispatch(
    setup.cache.setResponse(api.getTicker, { product_id: 'ABORTED' }, { product_id: 'ABORTED', price: 0 }),
  );
  setup.store.dispatch(setup.cache.invalidate(api.getTicker, { product_id: 'ABORTED' }));
  const calls = fetchCalls();
  try {
    const { caught } = mountReader(
      () => (useSuspense(api.getTicker, { product_id: 'ABORTED' }) as { price: number }).price,
      setup,
    );
    expect(screen.getByText('loading')).toBeTruthy();
    await flushStarts();
    const shared = setup.store.dispatch(setup.cache.fetch(api.getTicker, { product_id: 'ABORTED' }));
    answer = 2;
    await act(async () => {
      shared.abort();
      await shared.catch(() => undefined);
    });
    await screen.findByText('2');
    expect(caught).toEqual([]);
    expect(calls.count('/tickers/ABORTED')).toBe(2);
  } finally {
    calls.restore();
    held.open();
  }
});

test('a reset while suspended fetches again after the reset and shows the new answer', async () => {
  const first = gate();
  let answer = 1;
  server.on('GET /tickers/:id', () =>
    answer === 1
      ? { json: { product_id: 'RESET', price: 1 }, hold: first.promise }
      : { json: { product_id: 'RESET', price: 2 } },
  );
  const setup = makeStore();
  mountReader(() => (useSuspense(api.getTicker, { product_id: 'RESET' }) as { price: number }).price, setup);
  await waitFor(() => expect(server.count('GET /tickers/RESET')).toBe(1));
  act(() => setup.store.dispatch(setup.cache.resetEntireStore()));
  answer = 2;
  first.open();
  await waitFor(() => expect(screen.getByTestId('value').textContent).toBe('2'));
  expect(server.count('GET /tickers/RESET')).toBe(2);
  expect(Object.keys((setup.store.getState().cache as CacheState).meta)).toHaveLength(1);
});

test('args that differ only in a Date are different reads', async () => {
  const calls: string[] = [];
  const byDay = {
    key: (params: { day: Date }) => `GET /day/${params.day.toISOString()}`,
    fetch: (params: { day: Date }) => (calls.push(params.day.toISOString()), Promise.resolve(params.day.getUTCDate())),
  };
  function Day() {
    const [day, setDay] = useState(new Date(Date.UTC(2026, 0, 1)));
    const value = useSuspense(byDay, { day });
    return <button onClick={() => setDay(new Date(Date.UTC(2026, 1, 2)))}>{String(value)}</button>;
  }
  renderWithCache(
    <Suspense fallback={<p>loading</p>}>
      <Day />
    </Suspense>,
  );
  fireEvent.click(await screen.findByText('1'));
  await screen.findByText('2');
  expect(calls).toEqual(['2026-01-01T00:00:00.000Z', '2026-02-02T00:00:00.000Z']);
});

test('a failed background refetch never takes shown data away, even data read through a query key', async () => {
  let failing = false;
  const row = { id: '1', name: 'Acme', price: 1, pct_equity: 0.5, shares: 1, sector: { id: 's1', name: 'Tech' } };
  server.on('GET /companies', () => (failing ? { status: 502, json: { message: 'bad gateway' } } : { json: [row] }));
  const setup = makeStore();
  await setup.store.dispatch(setup.cache.fetch(api.getCompanies, { portfolio: 'A' }));
  // At B the list is read through its query key: B has no stored result of its own.
  const caught: Error[] = [];
  let rerender!: () => void;
  function Table() {
    const [, setTick] = useState(0);
    rerender = () => setTick(tick => tick + 1);
    return <p data-testid="value">{(useSuspense(api.getCompanies, { portfolio: 'B' }) as Company[]).length}</p>;
  }
  renderWithCache(
    <Boundary caught={caught}>
      <Table />
    </Boundary>,
    { setup },
  );
  expect(screen.getByTestId('value').textContent).toBe('1');
  failing = true;
  // Past the rows' expiry: B is stale, and its background refetch fails with a 502.
  const later = setup.cache.selectResponse(setup.store.getState(), api.getCompanies, { portfolio: 'B' }).expiresAt + 1;
  const clock = jest.spyOn(Date, 'now').mockReturnValue(later);
  const quiet = quietErrors();
  try {
    act(() => rerender());
    await waitFor(() =>
      expect(
        setup.cache.selectResponse(setup.store.getState(), api.getCompanies, { portfolio: 'B' }).error,
      ).toMatchObject({ status: 502 }),
    );
    act(() => rerender());
  } finally {
    clock.mockRestore();
    quiet.mockRestore();
  }
  // The 502 is readable beside the data; the last good value stays rendered.
  expect(caught).toEqual([]);
  expect(screen.getByTestId('value').textContent).toBe('1');
});
