/**
 * A cache's expiry defaults (docs/store.md, "Writes"): `createCache({ dataExpiryLength,
 * errorExpiryLength })` (and createLeanCache) give the lengths every endpoint without its own
 * gets, and `set` rows the data length. Checked as other cache options. The clock is the test's.
 */
import { configureStore } from '@reduxjs/toolkit';
import { createCache, createLeanCache, ErrorCode, optimisticUpdates, type CacheState } from '../../src/index';
import { Post, User } from '../fixtures/schemas';
import { makeStore, snapshot } from '../fixtures/store';

const getUser = { key: (params: { id: string }) => `GET /users/${params.id}`, schema: User };
const ownLengths = { ...getUser, key: () => 'own', dataExpiryLength: 100, errorExpiryLength: 10 };

let now = 10_000;
beforeEach(() => {
  now = 10_000;
  jest.spyOn(Date, 'now').mockImplementation(() => now);
});
afterEach(() => jest.restoreAllMocks());

const sliceOf = (store: { getState(): unknown }, path = 'cache') =>
  (store.getState() as Record<string, CacheState>)[path]!;

test("an endpoint without expiry lengths gets the cache's; one with its own keeps them", () => {
  const { cache, store } = makeStore({ dataExpiryLength: 5_000, errorExpiryLength: 200 });
  store.dispatch(cache.setResponse(getUser, { id: 'u1' }, { id: 'u1', name: 'Ada' }));
  store.dispatch(cache.setError(getUser, { id: 'u2' }, new Error('offline')));
  store.dispatch(cache.setResponse(ownLengths, { id: 'u3', name: 'Cy' }));
  store.dispatch(cache.setError(ownLengths, new Error('offline')));
  const { meta, entitiesMeta } = sliceOf(store);
  expect(meta['GET /users/u1']?.expiresAt).toBe(15_000);
  expect(entitiesMeta.User?.u1?.expiresAt).toBe(15_000);
  expect(meta['GET /users/u2']?.expiresAt).toBe(10_200);
  expect(meta.own?.expiresAt).toBe(10_010);

  now = 14_000; // past the 60 s default would still be far; past the cache's 5 s is not yet
  expect(cache.selectResponse(store.getState(), getUser, { id: 'u1' }).expiryStatus).toBe('valid');
  now = 15_001;
  expect(cache.selectResponse(store.getState(), getUser, { id: 'u1' }).expiryStatus).toBe('stale');
});

test("a fetch's answer and its failure expire by the cache's defaults", async () => {
  const { cache, store } = makeStore({ dataExpiryLength: 2_000, errorExpiryLength: 0 });
  let fail = false;
  const fetched = {
    ...getUser,
    fetch: async ({ id }: { id: string }) => {
      if (fail) throw new Error('offline');
      return { id, name: 'Ada' };
    },
  };
  await store.dispatch(cache.fetch(fetched, { id: 'u1' }));
  expect(sliceOf(store).meta['GET /users/u1']?.expiresAt).toBe(12_000);
  fail = true;
  now = 10_500;
  await expect(store.dispatch(cache.fetch(fetched, { id: 'u1' }))).rejects.toThrow('offline');
  expect(sliceOf(store).meta['GET /users/u1']?.expiresAt).toBe(10_500);
});

test("set rows expire after the cache's dataExpiryLength; Infinity is stored as the last Date and survives JSON", () => {
  const short = makeStore({ dataExpiryLength: 3_000 });
  short.store.dispatch(short.cache.set(User, { id: 'u1', name: 'Ada' }));
  expect(sliceOf(short.store).entitiesMeta.User?.u1?.expiresAt).toBe(13_000);

  const never = makeStore({ dataExpiryLength: Infinity });
  never.store.dispatch(never.cache.set(User, { id: 'u1', name: 'Ada' }));
  never.store.dispatch(never.cache.setResponse(getUser, { id: 'u2' }, { id: 'u2', name: 'Bo' }));
  expect(sliceOf(never.store).entitiesMeta.User?.u1?.expiresAt).toBe(8_640_000_000_000_000);
  expect(sliceOf(never.store).meta['GET /users/u2']?.expiresAt).toBe(8_640_000_000_000_000);
  expect(snapshot(sliceOf(never.store))).toEqual(JSON.parse(JSON.stringify(snapshot(sliceOf(never.store)))));
  now = 1e15;
  expect(never.cache.selectResponse(never.store.getState(), getUser, { id: 'u2' }).expiryStatus).toBe('valid');
});

test("an optimistic guess expires as its answer would, by the cache's default", async () => {
  let answer!: (value: unknown) => void;
  const answered = new Promise(resolve => (answer = resolve));
  const createPost = {
    key: () => 'POST /posts',
    schema: Post,
    sideEffect: true,
    fetch: () => answered,
    getOptimisticResponse: () => ({ id: 'p1', title: 'Guess', author: { id: 'u1', name: 'Ada' } }),
  };
  const { cache, store } = makeStore({ dataExpiryLength: 7_000 });
  const request = store.dispatch(cache.fetch(createPost));
  expect(sliceOf(store).entitiesMeta.Post?.p1).toMatchObject({ optimistic: true, expiresAt: 17_000 });
  answer({ id: 'p1', title: 'Real', author: { id: 'u1', name: 'Ada' } });
  await request;
  expect(sliceOf(store).entitiesMeta.Post?.p1?.expiresAt).toBe(17_000);
});

test('createLeanCache takes the same defaults, and two caches in one store keep their own', () => {
  const lean = createLeanCache({ reducerPath: 'lean', dataExpiryLength: 1_000, features: [optimisticUpdates] });
  const full = createCache({ reducerPath: 'full', dataExpiryLength: 9_000 });
  const store = configureStore({
    reducer: { lean: lean.reducer, full: full.reducer },
    middleware: getDefault => getDefault().concat(lean.middleware, full.middleware),
  });
  store.dispatch(lean.setResponse(getUser, { id: 'u1' }, { id: 'u1', name: 'Ada' }));
  store.dispatch(full.setResponse(getUser, { id: 'u1' }, { id: 'u1', name: 'Ada' }));
  expect(sliceOf(store, 'lean').meta['GET /users/u1']?.expiresAt).toBe(11_000);
  expect(sliceOf(store, 'full').meta['GET /users/u1']?.expiresAt).toBe(19_000);
});

test('without options the defaults stay a minute for data and a second for errors', () => {
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(getUser, { id: 'u1' }, { id: 'u1', name: 'Ada' }));
  store.dispatch(cache.setError(getUser, { id: 'u2' }, new Error('offline')));
  store.dispatch(cache.set(User, { id: 'u3', name: 'Cy' }));
  const { meta, entitiesMeta } = sliceOf(store);
  expect([meta['GET /users/u1']?.expiresAt, meta['GET /users/u2']?.expiresAt]).toEqual([70_000, 11_000]);
  expect(entitiesMeta.User?.u3?.expiresAt).toBe(70_000);
});

test('a bad default is INVALID_OPTION, naming the option, from createCache and createLeanCache', () => {
  for (const option of ['dataExpiryLength', 'errorExpiryLength'])
    for (const bad of [-1, Number.NaN, '5s', null]) {
      const expected = expect.objectContaining({
        code: ErrorCode.INVALID_OPTION,
        message: expect.stringContaining(`createCache({ ${option} })`),
      });
      expect(() => createCache({ [option]: bad as never })).toThrow(expected);
      expect(() => createLeanCache({ [option]: bad as never })).toThrow(expected);
    }
  expect(() => createCache({ dataExpiryLength: 0, errorExpiryLength: Infinity })).not.toThrow();
});
