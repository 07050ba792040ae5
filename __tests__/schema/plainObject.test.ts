/** Plain object schemas on the write side (see docs/plain-schemas.md). */
import { ErrorCode } from '../../src/index';
import { Post, User } from '../fixtures/schemas';
import { makeStore, snapshot } from '../fixtures/store';
import { catchError, endpoint, hasOwn } from '../fixtures/writes';

const getFeed = endpoint('GET /feed', { post: Post, users: [User], count: 3 });

test('keys with a schema are normalized, other keys are copied as they are', () => {
  const { cache, store } = makeStore();
  store.dispatch(
    cache.setResponse(getFeed, {
      post: { id: 'p1', title: 'T', author: { id: 'u1', name: 'A' }, comments: [] },
      users: [{ id: 'u2', name: 'B' }],
      count: 42,
      cursor: { next: 'abc' },
      flag: false,
    }),
  );
  const state = store.getState().cache;
  expect(state.endpoints[getFeed.key()]).toEqual({
    post: 'p1',
    users: ['u2'],
    count: 42,
    cursor: { next: 'abc' },
    flag: false,
  });
  expect(state.entities.Post!['p1']).toEqual({ id: 'p1', title: 'T', author: 'u1', comments: [] });
  expect(Object.keys(state.entities.User!)).toEqual(['u1', 'u2']);
});

test('keys of the schema absent from the input stay absent; undefined values are dropped', () => {
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(getFeed, { users: [{ id: 'u1', name: 'A' }], post: undefined }));
  const result = store.getState().cache.endpoints[getFeed.key()];
  expect(result).toEqual({ users: ['u1'] });
  expect(hasOwn(result, 'post')).toBe(false);
  expect(hasOwn(result, 'count')).toBe(false);
});

test('null under a schema key is kept as null', () => {
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(getFeed, { post: null, users: [] }));
  expect(store.getState().cache.endpoints[getFeed.key()]).toEqual({ post: null, users: [] });
});

test('nested plain objects are walked too', () => {
  const nested = endpoint('GET /nested', { data: { author: User } });
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(nested, { data: { author: { id: 'u9', name: 'N' }, page: 1 } }));
  const state = store.getState().cache;
  expect(state.endpoints[nested.key()]).toEqual({ data: { author: 'u9', page: 1 } });
  expect(state.entities.User!['u9']).toEqual({ id: 'u9', name: 'N' });
});

test('a map key named __proto__ in the response is copied as own data', () => {
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(getFeed, JSON.parse('{"users":[],"__proto__":{"polluted":1}}')));
  const result = store.getState().cache.endpoints[getFeed.key()];
  expect(hasOwn(result, '__proto__')).toBe(true);
  expect((result as Record<string, unknown>).polluted).toBeUndefined();
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

test.each([
  ['an array', [{ post: null }]],
  ['a number', 5],
])('%s at the root of an object schema throws UNEXPECTED_INPUT out of cache.set', (_name, value) => {
  const { cache, store } = makeStore();
  const before = store.getState().cache;
  const error = catchError(() => store.dispatch(cache.set({ post: Post }, value)));
  expect(error.code).toBe(ErrorCode.UNEXPECTED_INPUT);
  expect(store.getState().cache).toBe(before);
  expect(snapshot(store.getState().cache)).toEqual(snapshot(before));
});
