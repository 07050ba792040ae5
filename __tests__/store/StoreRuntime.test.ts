/**
 * One runtime per cache and store (src/store/runtime/StoreRuntime.ts): requests, settled marks, the
 * Controller and who reads what live there, and the rules hold without React.
 */
import { configureStore } from '@reduxjs/toolkit';
import { createCache, Entity, type CacheState } from '../../src/index';
import { makeStore } from '../fixtures/store';
import { runtimeOf } from '../fixtures/runtime';

class Note extends Entity {
  id = '';
  static override key = 'Note';
  static override process(input: object) {
    return (input as { gone?: boolean }).gone ? undefined : { ...input };
  }
}

test('one runtime per store: the same Controller, requests and registry for thunks and for cache.controller', async () => {
  const cache = createCache();
  const one = makeStore({}, { cache });
  const two = makeStore({}, { cache });
  const runtime = runtimeOf(cache, one.store);
  expect(runtimeOf(cache, one.store)).toBe(runtime);
  expect(cache.controller(one.store)).toBe(runtime.controller);
  expect(runtimeOf(cache, two.store)).not.toBe(runtime);
  let calls = 0;
  const endpoint = { key: () => 'GET /n', schema: Note, fetch: () => (calls++, Promise.resolve({ id: 'n' })) };
  // Identical reads dispatched through the store and through the Controller share one request.
  const first = one.store.dispatch(cache.fetch(endpoint));
  const second = runtime.controller.fetch(endpoint);
  expect(second).toBe(first);
  await first;
  expect(calls).toBe(1);
});

/** A store whose runtime watched one request for `key` that settled with its root entity deleted. */
async function settledGone(key = 'GET /gone') {
  const { cache, store } = makeStore();
  const runtime = runtimeOf(cache, store);
  const endpoint = { key: () => key, schema: Note, fetch: () => Promise.resolve({ id: 'g', gone: true }) };
  const request = store.dispatch(cache.fetch(endpoint));
  runtime.marks.watch(key, request);
  await request;
  await Promise.resolve();
  const meta = () => (store.getState().cache as CacheState).meta[key];
  return { cache, store, runtime, endpoint, meta };
}

test('a request that settles and leaves its response invalid is marked, without React, until something is written for it', async () => {
  const { cache, store, runtime, endpoint, meta } = await settledGone();
  expect(runtime.marks.settledInvalid('GET /gone', meta(), true)).toBe(true);
  // React's retry of the same render gets the same answer.
  expect(runtime.marks.settledInvalid('GET /gone', meta(), true)).toBe(true);
  store.dispatch(cache.invalidate(endpoint));
  expect(runtime.marks.settledInvalid('GET /gone', meta(), true)).toBe(false);
});

test('resetEntireStore drops the settled marks with the requests in flight', async () => {
  const { cache, store, runtime, meta } = await settledGone();
  const before = meta();
  store.dispatch(cache.resetEntireStore());
  expect(runtime.marks.settledInvalid('GET /gone', before, true)).toBe(false);
});

test('settled marks are bounded: the oldest go first', async () => {
  // Without RTK's development checks: they walk the whole meta map after each of the 1,001
  // writes (quadratic, seconds on a loaded machine), and this test is about the marks.
  const cache = createCache();
  const store = configureStore({
    reducer: { [cache.reducerPath]: cache.reducer },
    middleware: getDefault => getDefault({ immutableCheck: false, serializableCheck: false }).concat(cache.middleware),
  });
  const runtime = runtimeOf(cache, store);
  const keys = Array.from({ length: 1_001 }, (_, i) => `GET /gone/${i}`);
  // Each key gets a meta record (a stored error), and a settled request that left it.
  for (const key of keys) {
    store.dispatch(cache.setError({ key: () => key, schema: Note }, new Error('gone')));
    runtime.marks.watch(key, Promise.resolve());
  }
  await new Promise(resolve => setImmediate(resolve));
  const meta = (key: string) => (store.getState().cache as CacheState).meta[key];
  expect(runtime.marks.settledInvalid(keys[0]!, meta(keys[0]!), true)).toBe(false);
  expect(runtime.marks.settledInvalid(keys[1]!, meta(keys[1]!), true)).toBe(true);
  expect(runtime.marks.settledInvalid(keys[1_000]!, meta(keys[1_000]!), true)).toBe(true);
  // 1,001 writes through RTK's development checks: seconds on a busy shared machine.
}, 60_000);

test('the registry counts holders per key and forgets a key its last holder releases', () => {
  const { cache, store } = makeStore();
  const { subscriptions } = runtimeOf(cache, store);
  const read = { target: Note, args: [] };
  const first = subscriptions.retain('request', 'GET /a', read);
  const second = subscriptions.retain('request', 'GET /a', read);
  subscriptions.retain('query', 'q', read);
  expect(subscriptions.count('request', 'GET /a')).toBe(2);
  first();
  first();
  expect(subscriptions.count('request', 'GET /a')).toBe(1);
  second();
  expect(subscriptions.count('request', 'GET /a')).toBe(0);
  expect(subscriptions.held('request')).toEqual([]);
  expect(subscriptions.held('query')).toEqual([['q', read]]);
});
