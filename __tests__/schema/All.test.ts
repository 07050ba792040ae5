/** All on the write side (see docs/All.md): normalizes like a list; the result is undefined. */
import { All, Entity, ErrorCode, LensCacheError } from '../../src/index';
import { User } from '../fixtures/schemas';
import { makeStore, snapshot } from '../fixtures/store';
import { catchError, endpoint, hasOwn } from '../fixtures/writes';

const allUsers = endpoint('GET /users/all', new All(User));

test('rows are written like a list; the endpoint keeps no result but gets its meta', () => {
  const { cache, store } = makeStore();
  store.dispatch(
    cache.setResponse(allUsers, [
      { id: '1', name: 'A' },
      { id: '2', name: 'B' },
    ]),
  );
  const state = store.getState().cache;
  const key = allUsers.key();
  expect(state.entities.User).toEqual({ 1: { id: '1', name: 'A' }, 2: { id: '2', name: 'B' } });
  expect(hasOwn(state.endpoints, key)).toBe(false);
  expect(state.meta[key]).toEqual({
    fetchedAt: expect.any(Number),
    date: expect.any(Number),
    expiresAt: expect.any(Number),
  });
  expect(state.meta[key]!.expiresAt - state.meta[key]!.date).toBe(60_000);
});

test('object input uses its values; null and undefined members are skipped', () => {
  const { cache, store } = makeStore();
  store.dispatch(
    cache.setResponse(allUsers, { a: { id: '1', name: 'A' }, b: null, c: undefined, d: { id: '4', name: 'D' } }),
  );
  expect(store.getState().cache.entities.User).toEqual({ 1: { id: '1', name: 'A' }, 4: { id: '4', name: 'D' } });
});

test('an empty response still creates the (empty) table, so a read is [] rather than missing', () => {
  const { cache, store } = makeStore();
  expect(cache.selectQuery(store.getState(), new All(User))).toBeUndefined();
  store.dispatch(cache.setResponse(allUsers, []));
  const state = store.getState().cache;
  expect(hasOwn(state.entities, 'User')).toBe(true);
  expect(state.entities.User).toEqual({});
  expect(hasOwn(state.endpoints, allUsers.key())).toBe(false);
  expect(cache.selectQuery(store.getState(), new All(User))).toEqual([]);
});

test('an empty response leaves an existing table untouched (same object)', () => {
  const { cache, store } = makeStore();
  store.dispatch(cache.set(User, { id: '1', name: 'A' }));
  const table = store.getState().cache.entities.User;
  store.dispatch(cache.setResponse(allUsers, []));
  expect(store.getState().cache.entities.User).toBe(table);
});

test('a later All response removes an endpoint entry left by an earlier schema', () => {
  const list = endpoint('GET /users/all', [User]);
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(list, [{ id: '1', name: 'A' }]));
  expect(store.getState().cache.endpoints[list.key()]).toEqual(['1']);
  store.dispatch(cache.setResponse(allUsers, [{ id: '2', name: 'B' }]));
  expect(hasOwn(store.getState().cache.endpoints, allUsers.key())).toBe(false);
});

test('polymorphic All writes each member to its table and creates every member table', () => {
  class Cat extends Entity {
    id = '';
    kind = 'cat';
    static override key = 'AllCat';
  }
  class Dog extends Entity {
    id = '';
    kind = 'dog';
    static override key = 'AllDog';
  }
  const pets = endpoint('GET /pets/all', new All({ cat: Cat, dog: Dog }, 'kind'));
  const { cache, store } = makeStore();
  store.dispatch(
    cache.setResponse(pets, [
      { id: '1', kind: 'cat' },
      { id: '2', kind: 'cat' },
    ]),
  );
  const state = store.getState().cache;
  expect(state.entities.AllCat).toEqual({ 1: { id: '1', kind: 'cat' }, 2: { id: '2', kind: 'cat' } });
  expect(state.entities.AllDog).toEqual({});
  expect(hasOwn(state.endpoints, pets.key())).toBe(false);
});

test('a string at the root throws UNEXPECTED_INPUT and the store is unchanged', () => {
  const { cache, store } = makeStore();
  const before = store.getState().cache;
  const error = catchError(() => store.dispatch(cache.set(new All(User), '[{"id":"1"}]')));
  expect(error.code).toBe(ErrorCode.UNEXPECTED_INPUT);
  expect(error.message).toContain('parsed as JSON');
  expect(store.getState().cache).toBe(before);
  expect(snapshot(store.getState().cache)).toEqual(snapshot(before));
});

describe('the constructor throws INVALID_SCHEMA for a non-entity', () => {
  test.each<[string, () => unknown]>([
    ['a list schema', () => new All([User])],
    ['a plain object without an attribute', () => new All({ users: User })],
    ['a string', () => new All('User')],
    ['a map with a non-entity member', () => new All({ users: User, n: 3 }, 'type')],
    ['an empty map', () => new All({}, 'type')],
  ])('%s', (_name, build) => {
    let error: unknown;
    try {
      build();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(LensCacheError);
    expect((error as LensCacheError).code).toBe(ErrorCode.INVALID_SCHEMA);
  });
});
