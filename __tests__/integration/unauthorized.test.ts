/**
 * The reset on 401 (docs/store.md, "Reset on 401"): with `onUnauthorized`, a request the cache
 * sent that fails as unauthorized has its failure stored, the store reset, and the app called
 * back. A real store and real requests to a real local server.
 */
import {
  createCache,
  createLeanCache,
  ErrorCode,
  NetworkError,
  type CacheOptions,
  type CacheState,
} from '../../src/index';
import { exampleEndpoints } from '../fixtures/endpoints';
import { gate, startServer, type TestServer } from '../fixtures/server';
import { makeStore } from '../fixtures/store';

let server: TestServer;
let api: ReturnType<typeof exampleEndpoints>;
beforeAll(async () => {
  server = await startServer();
  api = exampleEndpoints(server.origin);
  server.on('GET /posts/:id', request => ({
    json: { id: request.url.split('/').pop(), title: 'Hello', group: 'react', author: { id: 'u1', name: 'Ann' } },
  }));
  server.on('GET /raw/:name', request => {
    const name = request.url.split('/').pop()!;
    const status = Number(name.replace(/\D/g, '')) || 200;
    return status === 200 ? { json: { name } } : { status, json: { message: `status ${status}` } };
  });
});
afterAll(() => server.close());

/** A store whose cache resets on 401, recording each callback with the slice it saw then. */
function setup(options: CacheOptions = {}) {
  const calls: Array<{ error: unknown; controller: unknown; slice: CacheState }> = [];
  const cache = createCache({
    onUnauthorized: (error, controller) => calls.push({ error, controller, slice: slice() }),
    ...options,
  });
  const { store } = makeStore({}, { cache });
  const slice = () => store.getState().cache as CacheState;
  return { cache, store, slice, calls };
}

test('a 401 stores its failure, resets the store, then calls the app back; the request rejects with the 401', async () => {
  const { cache, store, slice, calls } = setup();
  await store.dispatch(cache.fetch(api.getPost, { id: '1' }));
  expect(Object.keys(slice().entities.Post ?? {})).toEqual(['1']);

  const seen: CacheState[] = [];
  const unsubscribe = store.subscribe(() => seen.push(slice()));
  const request = store.dispatch(cache.fetch(api.getRaw, { name: 'me401' }));
  const error = await request.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  unsubscribe();
  // Two writes: the failure, as for any request, then the reset.
  expect(seen).toHaveLength(2);
  expect(seen[0]!.meta[api.getRaw.key({ name: 'me401' })]?.error).toMatchObject({ status: 401 });
  expect(seen[1]!.meta).toEqual({});
  expect(error).toBeInstanceOf(NetworkError);
  expect(error).toMatchObject({ status: 401 });
  // Called once, after the reset: the slice it saw was already the initial one.
  expect(calls).toHaveLength(1);
  expect(calls[0]!.error).toBe(error);
  expect(calls[0]!.controller).toBe(cache.controller(store));
  expect(calls[0]!.slice).toMatchObject({ entities: {}, endpoints: {}, meta: {} });
  expect(slice().lastReset).toBeGreaterThan(0);
  expect(slice().entities).toEqual({});
  expect(cache.selectQuery(store.getState(), api.getPost.schema, '1')).toBeUndefined();
});

test('off by default: a 401 is stored as the request error, and nothing else changes', async () => {
  const { store, cache } = makeStore();
  const slice = () => store.getState().cache as CacheState;
  await store.dispatch(cache.fetch(api.getPost, { id: '1' }));
  await expect(store.dispatch(cache.fetch(api.getRaw, { name: 'me401' }))).rejects.toMatchObject({ status: 401 });
  expect(Object.keys(slice().entities.Post ?? {})).toEqual(['1']);
  expect(slice().lastReset).toBe(0);
  expect(cache.selectResponse(store.getState(), api.getRaw, { name: 'me401' }).error).toMatchObject({ status: 401 });
});

test('other failures (403, 500, a refused connection) reset nothing', async () => {
  const { cache, store, slice, calls } = setup();
  await store.dispatch(cache.fetch(api.getPost, { id: '1' }));
  for (const name of ['me403', 'me500'])
    await expect(store.dispatch(cache.fetch(api.getRaw, { name }))).rejects.toBeInstanceOf(NetworkError);
  const nowhere = { key: () => 'GET nowhere', fetch: () => Promise.reject(new TypeError('fetch failed')) };
  await expect(store.dispatch(cache.fetch(nowhere))).rejects.toThrow('fetch failed');
  expect(calls).toHaveLength(0);
  expect(Object.keys(slice().entities.Post ?? {})).toEqual(['1']);
  expect(slice().lastReset).toBe(0);
});

test('a mutation answered 401 resets too', async () => {
  server.on('POST /posts', () => ({ status: 401, json: { message: 'log in' } }));
  const { cache, store, slice, calls } = setup();
  await store.dispatch(cache.fetch(api.getPost, { id: '1' }));
  const createPost = api.getPost.extend({ path: '/posts', method: 'POST' });
  await expect(store.dispatch(cache.fetch(createPost, {}, { title: 'x' }))).rejects.toMatchObject({ status: 401 });
  expect(calls).toHaveLength(1);
  expect(slice().entities).toEqual({});
});

test('isUnauthorized chooses which failures count (here 419 and not 401)', async () => {
  const { cache, store, slice, calls } = setup({
    isUnauthorized: error => (error as { status?: number }).status === 419,
  });
  await store.dispatch(cache.fetch(api.getPost, { id: '1' }));
  await expect(store.dispatch(cache.fetch(api.getRaw, { name: 'me401' }))).rejects.toMatchObject({ status: 401 });
  expect(calls).toHaveLength(0);
  await expect(store.dispatch(cache.fetch(api.getRaw, { name: 'me419' }))).rejects.toMatchObject({ status: 419 });
  expect(calls).toHaveLength(1);
  expect(slice().entities).toEqual({});
});

test('several requests answered 401 together reset once: the others started before the reset', async () => {
  const held = gate();
  server.on('GET /tickers/:id', () => ({ status: 401, json: {}, hold: held.promise }));
  const { cache, store, calls } = setup();
  const resets: unknown[] = [];
  const unsubscribe = store.subscribe(() => resets.push((store.getState().cache as CacheState).lastReset));
  const requests = ['A', 'B', 'C'].map(id => store.dispatch(cache.fetch(api.getTicker, { product_id: id })));
  held.open();
  const outcomes = await Promise.allSettled(requests);
  unsubscribe();
  expect(outcomes.map(outcome => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
  expect(calls).toHaveLength(1);
  expect(new Set(resets.filter(stamp => stamp !== 0)).size).toBe(1);
});

test('an error written by hand (setError, resolve) resets nothing: only requests the cache sent do', async () => {
  const { cache, store, slice, calls } = setup();
  await store.dispatch(cache.fetch(api.getPost, { id: '1' }));
  const unauthorized = Object.assign(new Error('log in'), { status: 401 });
  store.dispatch(cache.setError(api.getRaw, { name: 'x' }, unauthorized));
  store.dispatch(cache.resolve(api.getRaw, { args: [{ name: 'y' }], error: unauthorized, fetchedAt: Date.now() }));
  expect(calls).toHaveLength(0);
  expect(Object.keys(slice().entities.Post ?? {})).toEqual(['1']);
});

test('what onUnauthorized throws rejects the request, after the reset', async () => {
  const cache = createCache({
    onUnauthorized: () => {
      throw new Error('no login page');
    },
  });
  const { store } = makeStore({}, { cache });
  await expect(store.dispatch(cache.fetch(api.getRaw, { name: 'me401' }))).rejects.toThrow('no login page');
  expect((store.getState().cache as CacheState).lastReset).toBeGreaterThan(0);
});

test('createLeanCache takes the option too, with no feature', async () => {
  const calls: unknown[] = [];
  const cache = createLeanCache({ onUnauthorized: error => calls.push(error) });
  const { store } = makeStore({}, { cache });
  await expect(store.dispatch(cache.fetch(api.getRaw, { name: 'me401' }))).rejects.toMatchObject({ status: 401 });
  expect(calls).toHaveLength(1);
});

test('bad options are INVALID_OPTION: a callback that is no function, isUnauthorized alone', () => {
  const invalid = (name: string) =>
    expect.objectContaining({ code: ErrorCode.INVALID_OPTION, message: expect.stringContaining(name) });
  expect(() => createCache({ onUnauthorized: '/login' as never })).toThrow(invalid('onUnauthorized'));
  expect(() => createCache({ onUnauthorized: () => {}, isUnauthorized: 401 as never })).toThrow(
    invalid('isUnauthorized'),
  );
  expect(() => createCache({ isUnauthorized: () => true })).toThrow(invalid('without onUnauthorized'));
  expect(() => createLeanCache({ onUnauthorized: null as never })).toThrow(invalid('onUnauthorized'));
});

test('a second 401 before any success is stored as its error, not a new reset: readers still mounted stop refetching', async () => {
  const { cache, store, slice, calls } = setup();
  const fail = () =>
    store.dispatch(cache.fetch(api.getRaw, { name: 'me401' })).then(
      () => undefined,
      (failure: unknown) => failure,
    );
  await fail();
  expect(calls).toHaveLength(1);
  // Again, as a reader mounted after the reset would: the error is kept this time, for the
  // reader to show, and the store is not emptied again.
  const resets = () => slice().lastReset;
  const before = resets();
  await fail();
  expect(calls).toHaveLength(2);
  expect(resets()).toBe(before);
  expect(cache.selectResponse(store.getState(), api.getRaw, { name: 'me401' }).error).toBeInstanceOf(NetworkError);
  // A request that succeeds (signed in again) lets the next 401 reset the store.
  await store.dispatch(cache.fetch(api.getPost, { id: '1' }));
  await fail();
  expect(calls).toHaveLength(3);
  expect(resets()).toBeGreaterThan(before);
  expect(slice().entities.Post?.['1']).toBeUndefined();
});
