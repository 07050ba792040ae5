/**
 * One cache per reducerPath in a store: two caches created with the same path and mounted under
 * different keys are a set-up error (DUPLICATE_REDUCER_PATH), not two slices that silently apply
 * each other's writes.
 */
import { configureStore } from '@reduxjs/toolkit';
import { createCache, Entity, ErrorCode, type CacheState } from '../../src/index';
import { makeStore } from '../fixtures/store';
import { catchError, expectRejected } from '../fixtures/writes';

class Note extends Entity {
  id = '';
  text = '';
  static override key = 'Note';
}

test('two caches with the same reducerPath and both middlewares: configureStore throws', () => {
  const first = createCache();
  const second = createCache();
  const error = catchError(() =>
    configureStore({
      reducer: { cache: first.reducer, other: second.reducer },
      middleware: getDefault => getDefault().concat(first.middleware, second.middleware),
    }),
  );
  expect(error.code).toBe(ErrorCode.DUPLICATE_REDUCER_PATH);
  expect(error.message).toContain('"cache"');
  expect(error.message).toContain("createCache({ reducerPath: 'other' })");
});

test("a cache that finds another cache's slice at its reducerPath refuses to read or write it", () => {
  const first = createCache();
  const second = createCache();
  // Only the second cache's reducer is mounted: its writes need its middleware, and its reads
  // find the first cache's slice.
  const store = configureStore({
    reducer: { cache: first.reducer, other: second.reducer },
    middleware: getDefault => getDefault().concat(first.middleware),
  });
  store.dispatch(first.set(Note, { id: '1', text: 'first' }));
  expectRejected(
    store,
    () => store.dispatch(second.set(Note, { id: '2', text: 'second' })),
    ErrorCode.MIDDLEWARE_MISSING,
  );
  expect(catchError(() => second.selectQuery(store.getState(), Note, '1')).code).toBe(ErrorCode.DUPLICATE_REDUCER_PATH);
  expect(first.selectQuery(store.getState(), Note, '1')?.text).toBe('first');
  expect(first.selectQuery(store.getState(), Note, '2')).toBeUndefined();
});

test('caches with different reducerPaths share a store without sharing writes', () => {
  const first = createCache();
  const second = createCache({ reducerPath: 'other' as 'cache' });
  const store = configureStore({
    reducer: { cache: first.reducer, other: second.reducer },
    middleware: getDefault => getDefault().concat(first.middleware, second.middleware),
  });
  store.dispatch(first.set(Note, { id: '1', text: 'first' }));
  store.dispatch(second.set(Note, { id: '2', text: 'second' }));
  expect(first.selectQuery(store.getState(), Note, '2')).toBeUndefined();
  expect(second.selectQuery(store.getState(), Note, '1')).toBeUndefined();
  expect(second.selectQuery(store.getState(), Note, '2')?.text).toBe('second');
});

test('one cache in several stores, a state built by hand, and a replaced reducer still read', () => {
  const cache = createCache();
  const one = makeStore({}, { cache });
  const two = makeStore({}, { cache });
  one.store.dispatch(cache.set(Note, { id: '1', text: 'one' }));
  two.store.dispatch(cache.set(Note, { id: '1', text: 'two' }));
  expect(cache.selectQuery(one.store.getState(), Note, '1')?.text).toBe('one');
  expect(cache.selectQuery(two.store.getState(), Note, '1')?.text).toBe('two');

  const handMade = JSON.parse(JSON.stringify(one.store.getState())) as { cache: CacheState };
  expect(cache.selectQuery(handMade, Note, '1')?.text).toBe('one');

  // A cache mounted nowhere is a reader with memo caches of its own: it may read any slice.
  const reader = createCache();
  expect(reader.selectQuery(one.store.getState(), Note, '1')?.text).toBe('one');

  // One state object preloaded into the stores of two caches: each reads it, and keeps reading.
  const preloaded = one.store.getState();
  const left = makeStore({}, { preloadedState: preloaded });
  const right = makeStore({}, { preloadedState: preloaded });
  expect(left.cache.selectQuery(left.store.getState(), Note, '1')?.text).toBe('one');
  expect(right.cache.selectQuery(right.store.getState(), Note, '1')?.text).toBe('one');
  expect(cache.selectQuery(one.store.getState(), Note, '1')?.text).toBe('one');

  // Hot reloading: a new cache's reducer takes over the slice the old one made.
  const next = createCache();
  one.store.replaceReducer(((state: Record<string, unknown> | undefined, action: { type: string }) => ({
    ...state,
    cache: next.reducer(state?.cache as CacheState | undefined, action),
  })) as never);
  expect(next.selectQuery(one.store.getState(), Note, '1')?.text).toBe('one');
});
