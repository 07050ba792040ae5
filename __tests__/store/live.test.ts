/** setupListeners outside a browser: Node has no window, so only sources of its own (onFocus, onOnline) make it refetch. */
import { Entity, ErrorCode, setupListeners } from '../../src/index';
import { makeStore } from '../fixtures/store';
import { runtimeOf } from '../fixtures/runtime';

class Item extends Entity {
  id = '';
  static override key = 'Item';
}

test('setupListeners in Node does nothing and its remove() is safe to call', () => {
  expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
  const { cache, store } = makeStore();
  const fetch = jest.fn(async () => ({ id: '1' }));
  const getItem = { key: () => 'GET /item', schema: Item, fetch };
  const release = runtimeOf(cache, store).subscriptions.retain('request', 'GET /item', {
    target: getItem,
    args: [],
  });
  const remove = cache.setupListeners(store, { refetchOnFocus: true, refetchOnReconnect: true });
  remove();
  remove();
  expect(fetch).not.toHaveBeenCalled();
  release();
});

describe('setupListeners with sources of its own (React Native: AppState, NetInfo)', () => {
  /** A source as a user writes one: it keeps the refetch it was given until it is stopped. */
  function source() {
    const state = { refetch: undefined as (() => void) | undefined, stopped: 0 };
    const setup = jest.fn((refetch: () => void) => {
      state.refetch = refetch;
      return () => void state.stopped++;
    });
    return Object.assign(state, { setup, fire: () => state.refetch?.() });
  }
  /** Lets the fetches a refetch started run (each is sent in a microtask). */
  const settle = () => new Promise(resolve => setImmediate(resolve));

  async function held() {
    const { cache, store } = makeStore();
    const fetch = jest.fn(async ({ id }: { id: string }) => ({ id }));
    const getItem = { key: ({ id }: { id: string }) => `GET /item/${id}`, schema: Item, fetch };
    const ids = ['fresh', 'stale', 'invalid', 'unheld'];
    for (const id of ids) await store.dispatch(cache.fetch(getItem, { id }));
    const controller = cache.controller(store);
    const releases = ['fresh', 'stale', 'invalid'].map(id => controller.retain(getItem, { id }));
    const expire = () => {
      store.dispatch(cache.expireAll({ testKey: key => key.endsWith('/stale') || key.endsWith('/unheld') }));
      store.dispatch(cache.invalidate(getItem, { id: 'invalid' }));
    };
    const counts = () => ids.map(id => fetch.mock.calls.filter(([params]) => params.id === id).length);
    return { cache, store, expire, counts, release: () => releases.forEach(release => release()) };
  }

  test('each source refetches the held responses that are stale or invalid, as window events do; remove() stops both', async () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
    const { cache, store, expire, counts, release } = await held();
    const focus = source();
    const online = source();
    const remove = cache.setupListeners(store, { onFocus: focus.setup, onOnline: online.setup });
    expect(counts()).toEqual([1, 1, 1, 1]);
    expect([focus.setup, online.setup].map(setup => setup.mock.calls.length)).toEqual([1, 1]);
    expire();
    focus.fire();
    await settle();
    expect(counts()).toEqual([1, 2, 2, 1]);
    // All valid now: another event sends nothing.
    focus.fire();
    await settle();
    expect(counts()).toEqual([1, 2, 2, 1]);
    expire();
    online.fire();
    await settle();
    expect(counts()).toEqual([1, 3, 3, 1]);
    remove();
    expect([focus.stopped, online.stopped]).toEqual([1, 1]);
    // An event already on its way when the source was stopped refetches nothing.
    expire();
    focus.fire();
    online.fire();
    await settle();
    expect(counts()).toEqual([1, 3, 3, 1]);
    remove();
    expect([focus.stopped, online.stopped]).toEqual([1, 1]);
    release();
  });

  test('refetchOnFocus and refetchOnReconnect: false leave their source unused; the free setupListeners takes sources too', async () => {
    const { store, expire, counts, release } = await held();
    const focus = source();
    const online = source();
    const remove = setupListeners(store.dispatch, {
      onFocus: focus.setup,
      onOnline: online.setup,
      refetchOnFocus: false,
    });
    expect(focus.setup).not.toHaveBeenCalled();
    expire();
    online.fire();
    await settle();
    expect(counts()).toEqual([1, 2, 2, 1]);
    remove();
    expect(online.stopped).toBe(1);
    release();
  });

  test.each([
    ['a string', 'focus'],
    ['an object', {}],
    ['null', null],
  ])('a source that is %s is INVALID_OPTION, with nothing set up', (_, bad) => {
    const { cache, store } = makeStore();
    const before = store.getState();
    const focus = source();
    expect(() => cache.setupListeners(store, { onFocus: focus.setup, onOnline: bad as never })).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_OPTION, message: expect.stringMatching(/onOnline/) }),
    );
    expect(focus.setup).not.toHaveBeenCalled();
    expect(store.getState()).toBe(before);
  });

  test('a source that returns no function to stop it is INVALID_OPTION, and the sources set up are stopped', () => {
    const { cache, store } = makeStore();
    const before = store.getState();
    const focus = source();
    // AppState.addEventListener returns a subscription object, not a function.
    const subscription = { remove: jest.fn() };
    expect(() => cache.setupListeners(store, { onFocus: focus.setup, onOnline: () => subscription as never })).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_OPTION, message: expect.stringMatching(/onOnline returned/) }),
    );
    expect(focus.stopped).toBe(1);
    expect(store.getState()).toBe(before);
  });
});
