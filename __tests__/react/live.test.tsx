/**
 * @jest-environment ./__tests__/fixtures/jsdomWithFetch.js
 */
/**
 * Live data in React (docs/live-data.md), on a fake clock against the real local server:
 * useSubscription and useLive poll once per request key at the shortest frequency mounted and
 * stop on the last unmount; identical polls render nothing; a failing poll keeps the data on
 * screen; setupListeners refetches on focus and reconnect only what is held and not valid.
 */
import { act, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { Entity, ErrorCode, RestEndpoint } from '../../src/index';
import { useCache, useLive, useSubscription } from '../../src/react/index';
import { advance, until, useLiveClock } from '../fixtures/liveClock';
import { Boundary, quietErrors, renderWithCache } from '../fixtures/render';
import { startServer, type TestServer } from '../fixtures/server';
import { makeStore } from '../fixtures/store';
import { runtimeOf, pollersOf, pollPeriodOf } from '../fixtures/runtime';

class Quote extends Entity {
  id = '';
  value = 0;
  static override key = 'Quote';
}

let server: TestServer;
const values: Record<string, number> = {};
let failNext = 0;

beforeAll(async () => {
  server = await startServer();
  server.on('GET /quotes/:id', (_request, url) => {
    const id = url.pathname.split('/').pop()!;
    if (failNext > 0) {
      failNext--;
      return { status: 503, json: { message: 'busy' } };
    }
    return { json: { id, value: values[id] ?? 1 } };
  });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  failNext = 0;
  for (const id of Object.keys(values)) delete values[id];
});
useLiveClock();

const getQuote = (pollFrequency?: number) =>
  new RestEndpoint({ urlPrefix: server.origin, path: '/quotes/:id', schema: Quote, pollFrequency });
const sent = (id = 'a') => server.count(`GET /quotes/${id}`);

function live(setup: ReturnType<typeof makeStore>) {
  const runtime = runtimeOf(setup.cache, setup.store);
  /** Waits, inside act, until no request is in flight for the quotes given. */
  const idle = (...ids: string[]) =>
    act(() =>
      until(
        () => ids.every(id => runtime.requests.pending(getQuote().key({ id })) === undefined),
        `quotes ${ids.join(', ')} answered`,
      ),
    );
  const tick = (ms: number) => act(() => advance(ms));
  return { runtime, idle, tick };
}

function Subscriber({ every, id = 'a' }: { every: number; id?: string }) {
  useSubscription(getQuote(every), { id });
  return null;
}

test('useSubscription: 1, 2 and 3 mounted subscribers at different frequencies make one poller at the shortest; the last unmount stops it', async () => {
  const setup = makeStore();
  const { runtime, idle, tick } = live(setup);
  const key = getQuote().key({ id: 'a' });
  const view = renderWithCache(<Subscriber every={3_000} />, { setup });
  await tick(0);
  await idle('a');
  expect(sent()).toBe(1);
  await tick(3_000);
  await idle('a');
  expect(sent()).toBe(2); // t = 3000
  view.rerender(
    <>
      <Subscriber every={3_000} />
      <Subscriber every={1_000} />
    </>,
  );
  expect(pollPeriodOf(runtime, key)).toBe(1_000);
  for (let i = 0; i < 3; i++) {
    await tick(1_000);
    await idle('a');
  }
  expect(sent()).toBe(5); // t = 4000, 5000, 6000
  view.rerender(
    <>
      <Subscriber every={3_000} />
      <Subscriber every={1_000} />
      <Subscriber every={2_000} />
    </>,
  );
  expect(runtime.subscriptions.count('subscription', key)).toBe(3);
  expect(pollPeriodOf(runtime, key)).toBe(1_000);
  await tick(1_000);
  await idle('a');
  expect(sent()).toBe(6); // t = 7000
  view.rerender(
    <>
      <Subscriber every={3_000} />
      <Subscriber every={2_000} />
    </>,
  );
  expect(pollPeriodOf(runtime, key)).toBe(2_000);
  await tick(2_000);
  await idle('a');
  expect(sent()).toBe(7); // t = 9000
  view.unmount();
  expect(pollersOf(runtime).pollers.size).toBe(0);
  expect(runtime.subscriptions.held('subscription')).toEqual([]);
  await tick(30_000);
  expect(sent()).toBe(7);
});

test('useSubscription under StrictMode keeps one subscription; null params and a second key behave', async () => {
  const setup = makeStore();
  const { runtime, idle, tick } = live(setup);
  function Maybe({ id }: { id: string | null }) {
    useSubscription(getQuote(1_000), id === null ? null : { id });
    return null;
  }
  const view = renderWithCache(<Maybe id="a" />, { setup, strict: true });
  expect(runtime.subscriptions.count('subscription', getQuote().key({ id: 'a' }))).toBe(1);
  await tick(0);
  await idle('a');
  expect(sent('a')).toBe(1);
  view.rerender(<Maybe id={null} />);
  expect(pollersOf(runtime).pollers.size).toBe(0);
  view.rerender(<Maybe id="b" />);
  await tick(0);
  await idle('b');
  expect(sent('b')).toBe(1);
  await tick(1_000);
  await idle('b');
  expect(sent('b')).toBe(2);
  expect(sent('a')).toBe(1);
  view.unmount();
});

test('useSubscription refuses a mutation', () => {
  const restore = quietErrors();
  try {
    const caught: Error[] = [];
    const create = new RestEndpoint({ urlPrefix: server.origin, path: '/quotes', method: 'POST' });
    function Bad() {
      (useSubscription as (endpoint: unknown, ...args: unknown[]) => void)(create, {});
      return null;
    }
    renderWithCache(
      <Boundary caught={caught}>
        <Bad />
      </Boundary>,
    );
    expect(caught[0]).toMatchObject({ code: ErrorCode.MUTATION_IN_HOOK });
    expect(caught[0]!.message).toMatch(/useMutation\(endpoint\).*useController\(\)\.fetch/);
  } finally {
    restore.mockRestore();
  }
});

test('useLive: suspends for the first answer, renders each changed poll, and renders nothing for identical ones', async () => {
  const setup = makeStore();
  const { idle, tick } = live(setup);
  let renders = 0;
  function LiveQuote() {
    const quote = useLive(getQuote(1_000), { id: 'a' });
    renders++;
    return <p data-testid="value">{quote.value}</p>;
  }
  renderWithCache(
    <Suspense fallback={<p>loading</p>}>
      <LiveQuote />
    </Suspense>,
    { setup },
  );
  expect(screen.getByText('loading')).toBeTruthy();
  await idle('a');
  await tick(0);
  expect(screen.getByTestId('value').textContent).toBe('1');
  expect(sent()).toBe(1);
  const rendered = renders;
  for (let i = 0; i < 3; i++) {
    await tick(1_000);
    await idle('a');
  }
  expect(sent()).toBe(4);
  expect(renders).toBe(rendered);
  values.a = 2;
  await tick(1_000);
  await idle('a');
  expect(sent()).toBe(5);
  expect(screen.getByTestId('value').textContent).toBe('2');
  expect(renders).toBe(rendered + 1);
});

test('useLive: a failing poll keeps the data on screen (a soft error), and the next good poll carries on', async () => {
  const setup = makeStore();
  const { idle, tick } = live(setup);
  const caught: Error[] = [];
  function LiveQuote() {
    const quote = useLive(getQuote(1_000), { id: 'a' });
    const { error } = setup.cache.selectResponse(setup.store.getState(), getQuote(), { id: 'a' });
    return (
      <p data-testid="value">
        {quote.value}
        {error ? ` (${(error as { status?: number }).status})` : ''}
      </p>
    );
  }
  renderWithCache(
    <Boundary caught={caught}>
      <Suspense fallback={<p>loading</p>}>
        <LiveQuote />
      </Suspense>
    </Boundary>,
    { setup },
  );
  await idle('a');
  await tick(0);
  failNext = 1;
  await tick(1_000);
  await idle('a');
  expect(screen.getByTestId('value').textContent).toBe('1 (503)');
  values.a = 3;
  await tick(1_000);
  await idle('a');
  expect(screen.getByTestId('value').textContent).toBe('3');
  expect(caught).toEqual([]);
});

test('setupListeners: focus, visibility and online refetch only held responses that are stale or invalid', async () => {
  const setup = makeStore();
  const { cache, store } = setup;
  const { idle, tick } = live(setup);
  function Reader({ id }: { id: string }) {
    const quote = useCache(getQuote(), { id });
    return <p>{quote?.value}</p>;
  }
  for (const id of ['fresh', 'stale', 'invalid', 'unheld'])
    await act(() => store.dispatch(cache.fetch(getQuote(), { id })));
  const view = renderWithCache(
    <>
      <Reader id="fresh" />
      <Reader id="stale" />
      <Reader id="invalid" />
    </>,
    { setup },
  );
  const remove = cache.setupListeners(store);
  const expire = () =>
    act(() => {
      store.dispatch(cache.expireAll({ testKey: key => key.endsWith('/stale') || key.endsWith('/unheld') }));
      store.dispatch(cache.invalidate(getQuote(), { id: 'invalid' }));
    });
  const counts = () => ['fresh', 'stale', 'invalid', 'unheld'].map(id => sent(id));
  expect(counts()).toEqual([1, 1, 1, 1]);
  await expire();
  await act(() => void window.dispatchEvent(new Event('focus')));
  await idle('stale', 'invalid');
  expect(counts()).toEqual([1, 2, 2, 1]);
  // Now all valid: another focus sends nothing.
  await act(() => void window.dispatchEvent(new Event('focus')));
  await idle('stale', 'invalid');
  expect(counts()).toEqual([1, 2, 2, 1]);
  await expire();
  await act(() => void window.dispatchEvent(new Event('online')));
  await idle('stale', 'invalid');
  expect(counts()).toEqual([1, 3, 3, 1]);
  await expire();
  await act(() => void document.dispatchEvent(new Event('visibilitychange')));
  await idle('stale', 'invalid');
  expect(counts()).toEqual([1, 4, 4, 1]);
  // Data expires with time too: past its 60 s, a focus refetches every held response.
  await tick(61_000);
  await act(() => void window.dispatchEvent(new Event('focus')));
  await idle('fresh', 'stale', 'invalid');
  expect(counts()).toEqual([2, 5, 5, 1]);
  remove();
  await expire();
  await act(() => {
    window.dispatchEvent(new Event('focus'));
    window.dispatchEvent(new Event('online'));
  });
  await idle('stale', 'invalid');
  expect(counts()).toEqual([2, 5, 5, 1]);
  view.unmount();
});

/** A store whose mounted reader holds quote "a" (fetched once); `expire()` makes it stale. */
async function heldQuote() {
  const setup = makeStore();
  const { cache, store } = setup;
  const { idle } = live(setup);
  function Reader() {
    useCache(getQuote(), { id: 'a' });
    return null;
  }
  await act(() => store.dispatch(cache.fetch(getQuote(), { id: 'a' })));
  renderWithCache(<Reader />, { setup });
  return { cache, store, idle, expire: () => act(() => void store.dispatch(cache.expireAll())) };
}

test('setupListeners: each kind of event can be left out', async () => {
  const { cache, store, idle, expire } = await heldQuote();
  const onlineOnly = cache.setupListeners(store, { refetchOnFocus: false });
  await expire();
  await act(() => {
    window.dispatchEvent(new Event('focus'));
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await idle('a');
  expect(sent()).toBe(1);
  await act(() => void window.dispatchEvent(new Event('online')));
  await idle('a');
  expect(sent()).toBe(2);
  onlineOnly();
  const focusOnly = cache.setupListeners(store, { refetchOnReconnect: false });
  await expire();
  await act(() => void window.dispatchEvent(new Event('online')));
  await idle('a');
  expect(sent()).toBe(2);
  await act(() => void window.dispatchEvent(new Event('focus')));
  await idle('a');
  expect(sent()).toBe(3);
  focusOnly();
});

test('setupListeners: a source of its own replaces the window for its kind of event only', async () => {
  const { cache, store, idle, expire } = await heldQuote();
  let focused: (() => void) | undefined;
  const remove = cache.setupListeners(store, { onFocus: refetch => ((focused = refetch), () => undefined) });
  await expire();
  await act(() => {
    window.dispatchEvent(new Event('focus'));
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await idle('a');
  expect(sent()).toBe(1);
  await act(() => focused!());
  await idle('a');
  expect(sent()).toBe(2);
  await expire();
  await act(() => void window.dispatchEvent(new Event('online')));
  await idle('a');
  expect(sent()).toBe(3);
  remove();
});
