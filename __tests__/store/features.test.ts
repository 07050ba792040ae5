/**
 * Features (docs/features.md): a lean cache has only the features it is built with, and a method,
 * hook or endpoint option that needs a missing one is a set-up error naming it, with nothing sent
 * or written. The free `subscribe` and `setupListeners` find the caches of a store through their
 * middleware. Every cache needs its middleware for its thunks: without it, a clear error.
 */

import { configureStore } from '@reduxjs/toolkit';
import {
  createCache,
  createLeanCache,
  ErrorCode,
  garbageCollection,
  liveData,
  optimisticUpdates,
  pagination,
  retries,
  setupListeners,
  subscribe,
  type Cache,
  type Feature,
} from '../../src/index';
import { Post } from '../fixtures/schemas';
import { makeStore, snapshot } from '../fixtures/store';
import { runtimeOf } from '../fixtures/runtime';

const post = (id: string, title = `post ${id}`) => ({ id, title, author: { id: `u${id}`, name: 'Ann' }, comments: [] });

/** An endpoint that counts its requests and answers at once. */
function counted(options: Record<string, unknown> = {}) {
  const sent: unknown[][] = [];
  const endpoint = {
    key: (id: string) => `GET /posts/${id}`,
    schema: Post,
    fetch: async (id: string) => {
      sent.push([id]);
      return post(id);
    },
    ...options,
  };
  return { endpoint, sent };
}

function code(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

test('a cache built with no feature reads, writes and fetches', async () => {
  const { cache, store } = makeStore({}, { cache: createLeanCache() as Cache });
  const { endpoint, sent } = counted();
  const data = await store.dispatch(cache.fetch(endpoint, '1'));
  expect(data).toEqual(expect.objectContaining({ id: '1', title: 'post 1' }));
  expect(sent).toEqual([['1']]);
  store.dispatch(cache.set(Post, '1', (draft: { title: string }) => void (draft.title = 'edited')));
  expect(cache.selectQuery(store.getState(), Post, '1')?.title).toBe('edited');
  store.dispatch(cache.invalidate(endpoint, '1'));
  expect(cache.selectResponse(store.getState(), endpoint, '1').expiryStatus).toBe('invalid');
  store.dispatch(cache.resetEntireStore());
  expect(cache.selectQuery(store.getState(), Post, '1')).toBeUndefined();
});

test('a method that needs a missing feature is FEATURE_MISSING, naming it, and changes nothing', async () => {
  const { cache, store } = makeStore({}, { cache: createLeanCache() as Cache });
  store.dispatch(cache.setResponse(counted().endpoint, '1', post('1')));
  const before = snapshot(store.getState());
  const missing = (run: () => unknown, name: string) => {
    let thrown: unknown;
    try {
      run();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toEqual(expect.objectContaining({ code: ErrorCode.FEATURE_MISSING }));
    expect((thrown as Error).message).toContain(name);
    expect((thrown as Error).message).toContain('createLeanCache({ features: [');
  };
  missing(() => cache.gc(store), 'garbageCollection');
  missing(() => cache.gc(store), 'A sweep (cache.gc) needs');
  missing(() => cache.setupListeners(store), 'setupListeners needs');
  missing(() => store.dispatch(cache.gc()), 'garbageCollection');
  missing(() => cache.subscribe(store, counted().endpoint, '1'), 'liveData');
  missing(() => cache.setupListeners(store), 'liveData');
  missing(() => subscribe(store, counted().endpoint, '1'), 'liveData');
  missing(() => setupListeners(store.dispatch), 'liveData');
  expect(snapshot(store.getState())).toEqual(before);
  // Retention needs no feature: it is what garbage collection and focus refetches read.
  const release = cache.retain(store, counted().endpoint, '1');
  expect(runtimeOf(cache, store).subscriptions.count('request', 'GET /posts/1')).toBe(1);
  release();
});

test('an endpoint option whose feature is missing is refused at fetch and at subscribe, before anything is sent or held', () => {
  const { cache, store } = makeStore({}, { cache: createLeanCache({ features: [liveData] }) as Cache });
  const before = snapshot(store.getState());
  const guessing = counted({ sideEffect: true, getOptimisticResponse: () => post('1', 'guess') });
  const retrying = counted({ retry: { attempts: 2 }, pollFrequency: 1_000 });
  const thrown = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return error as Error & { code?: string };
    }
    throw new Error('expected a throw');
  };
  // Thrown where the call is made (during a render for useSuspense, in the effect for
  // useSubscription), not swallowed by a poll or a rejected promise nobody reads.
  expect(thrown(() => store.dispatch(cache.fetch(guessing.endpoint, '1')))).toMatchObject({
    code: ErrorCode.FEATURE_MISSING,
    message: expect.stringContaining('optimisticUpdates'),
  });
  expect(thrown(() => store.dispatch(cache.fetch(retrying.endpoint, '1')))).toMatchObject({
    code: ErrorCode.FEATURE_MISSING,
    message: expect.stringContaining('with retry, needs the retries feature'),
  });
  expect(thrown(() => cache.subscribe(store, retrying.endpoint, '1'))).toMatchObject({
    code: ErrorCode.FEATURE_MISSING,
  });
  expect(runtimeOf(cache, store).subscriptions.held('request')).toEqual([]);
  expect(guessing.sent).toEqual([]);
  expect(retrying.sent).toEqual([]);
  expect(snapshot(store.getState())).toEqual(before);
});

test('each feature installed alone does its part', async () => {
  const gcOnly = makeStore({}, { cache: createLeanCache({ features: [garbageCollection], gcTime: 0 }) as Cache });
  gcOnly.store.dispatch(gcOnly.cache.setResponse(counted().endpoint, '1', post('1')));
  expect(gcOnly.cache.gc(gcOnly.store).requests).toBe(0); // (just written: kept for a moment)
  jest.useFakeTimers({ now: Date.now() + 5_000, doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
  try {
    expect(gcOnly.cache.gc(gcOnly.store)).toEqual({ requests: 1, rows: expect.any(Number) });
  } finally {
    jest.useRealTimers();
  }

  const guesses = makeStore({}, { cache: createLeanCache({ features: [optimisticUpdates] }) as Cache });
  const { update, answer } = guessedUpdate();
  const request = guesses.store.dispatch(guesses.cache.fetch(update, '1'));
  expect(guesses.cache.selectQuery(guesses.store.getState(), Post, '1')?.title).toBe('guess');
  await Promise.resolve();
  answer(post('1', 'saved'));
  await request;
  expect(guesses.cache.selectQuery(guesses.store.getState(), Post, '1')?.title).toBe('saved');

  const retrying = makeStore({}, { cache: createLeanCache({ features: [retries] }) as Cache });
  let tries = 0;
  const flaky = {
    key: () => 'GET /flaky',
    fetch: async () => {
      if (++tries < 2) throw Object.assign(new Error('down'), { status: 503 });
      return { ok: true };
    },
    retry: { attempts: 2, delay: () => 0 },
  };
  await expect(retrying.store.dispatch(retrying.cache.fetch(flaky))).resolves.toEqual({ ok: true });
  expect(tries).toBe(2);

  const live = makeStore({}, { cache: createLeanCache({ features: [liveData] }) as Cache });
  const unsubscribe = subscribe(live.store, counted().endpoint, '1');
  expect(runtimeOf(live.cache, live.store).subscriptions.count('subscription', 'GET /posts/1')).toBe(1);
  unsubscribe();
  expect(runtimeOf(live.cache, live.store).subscriptions.count('subscription', 'GET /posts/1')).toBe(0);
});

test('the free subscribe and setupListeners find the caches of a store through their middleware', () => {
  const first = createCache();
  const second = createCache({ reducerPath: 'second' as 'cache' });
  const store = configureStore({
    reducer: { cache: first.reducer, second: second.reducer },
    middleware: getDefault => getDefault().concat(first.middleware, second.middleware),
  });
  // Two caches with live data: subscribe cannot tell which one is meant.
  expect(code(() => subscribe(store, counted().endpoint, '1'))).toBe(ErrorCode.INVALID_OPTION);
  const listened: string[] = [];
  // (The node environment has no window: a bare event target stands in.)
  const window = new EventTarget();
  (globalThis as { window?: EventTarget }).window = window;
  jest.spyOn(window, 'addEventListener').mockImplementation(type => void listened.push(type));
  const remove = jest.spyOn(window, 'removeEventListener').mockImplementation(() => undefined);
  try {
    // setupListeners sets up every cache of the store, from the store or its dispatch alone.
    const stop = setupListeners(store.dispatch, { refetchOnFocus: false });
    expect(listened).toEqual(['online', 'online']);
    stop();
    expect(remove).toHaveBeenCalledTimes(2);
  } finally {
    delete (globalThis as { window?: EventTarget }).window;
  }
  // One cache: subscribe needs nothing but the store.
  const { store: single } = makeStore();
  const unsubscribe = subscribe(single, counted().endpoint, '1');
  unsubscribe();
  // A store without any cache middleware.
  const bare = configureStore({ reducer: { other: () => 0 } });
  expect(code(() => setupListeners(bare))).toBe(ErrorCode.MIDDLEWARE_MISSING);
});

test("a cache's thunks in a store without its middleware are MIDDLEWARE_MISSING, and change nothing", () => {
  const cache = createCache();
  // Only the reducer: RTK's thunk middleware runs the cache's thunks, with no runtime for them.
  const store = configureStore({ reducer: { cache: cache.reducer } });
  const before = store.getState();
  expect(code(() => store.dispatch(cache.set(Post, post('1'))))).toBe(ErrorCode.MIDDLEWARE_MISSING);
  expect(code(() => cache.controller(store))).toBe(ErrorCode.MIDDLEWARE_MISSING);
  expect(store.getState()).toBe(before);
  // Reads need no middleware.
  expect(cache.selectQuery(store.getState(), Post, '1')).toBeUndefined();
});

test('the runtime is made as the middleware is mounted, once per store, with each feature installed once', () => {
  const installs: string[] = [];
  const counting: Feature = {
    name: 'retries',
    install: () => {
      installs.push('installed');
      return {};
    },
  };
  const cache = createLeanCache({ features: [counting] }) as Cache;
  makeStore({}, { cache });
  makeStore({}, { cache });
  expect(installs).toEqual(['installed', 'installed']);
});

test('a features list holding something other than the exported features is INVALID_OPTION naming the fix', () => {
  for (const features of [
    ['gc'],
    [undefined],
    [garbageCollection, 'liveData'],
    [{ name: 'liveData' }],
    'gc',
    garbageCollection,
  ]) {
    let error: unknown;
    try {
      createLeanCache({ features: features as never });
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({
      code: ErrorCode.INVALID_OPTION,
      message: expect.stringContaining("import { garbageCollection } from 'lenscache'"),
    });
  }
  expect(() =>
    createLeanCache({ features: [garbageCollection, liveData, optimisticUpdates, retries, pagination] }),
  ).not.toThrow();
  expect(() => createLeanCache({ features: [] })).not.toThrow();
});

test('a feature listed twice is installed once: a guess is dispatched once, and shows once', async () => {
  const { cache, store } = makeStore(
    {},
    { cache: createLeanCache({ features: [optimisticUpdates, optimisticUpdates] }) as Cache },
  );
  const dispatched: string[] = [];
  store.subscribe(() => dispatched.push('write'));
  const { update, answer } = guessedUpdate();
  const request = store.dispatch(cache.fetch(update, '1'));
  expect(dispatched).toEqual(['write']);
  await Promise.resolve();
  answer(post('1', 'saved'));
  await request;
  expect(cache.selectQuery(store.getState(), Post, '1')?.title).toBe('saved');
  expect(dispatched).toEqual(['write', 'write']);
});

/** A PATCH of a post whose guess titles it 'guess', and whose answer the test gives with `answer`. */
function guessedUpdate() {
  let settle!: (value: unknown) => void;
  const update = {
    key: (id: string) => `PATCH /posts/${id}`,
    schema: Post,
    sideEffect: true as const,
    fetch: () => new Promise(resolve => (settle = resolve)),
    getOptimisticResponse: (_snap: unknown, id: string) => post(id, 'guess'),
  };
  return { update, answer: (value: unknown) => settle(value) };
}
