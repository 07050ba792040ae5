/** Plain array schemas `[S]` on the write side (see docs/plain-schemas.md). */
import { Entity, ErrorCode, normalize } from '../../src/index';
import { Comment, User } from '../fixtures/schemas';
import { makeStore, snapshot } from '../fixtures/store';
import { catchError, endpoint } from '../fixtures/writes';

const getUsers = endpoint('GET /users', [User]);

test('members are normalized in order and the result is the list of refs', () => {
  const { cache, store } = makeStore();
  store.dispatch(
    cache.setResponse(getUsers, [
      { id: 'b', name: 'B' },
      { id: 'a', name: 'A' },
      { id: 3, name: 'C' },
    ]),
  );
  const state = store.getState().cache;
  expect(state.endpoints[getUsers.key()]).toEqual(['b', 'a', '3']);
  expect(state.entities.User).toEqual({
    a: { id: 'a', name: 'A' },
    b: { id: 'b', name: 'B' },
    3: { id: 3, name: 'C' },
  });
});

test('null members are kept in the result; no row is written for them', () => {
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(getUsers, [{ id: '1', name: 'A' }, null, { id: '2', name: 'B' }]));
  const state = store.getState().cache;
  expect(state.endpoints[getUsers.key()]).toEqual(['1', null, '2']);
  expect(Object.keys(state.entities.User!)).toEqual(['1', '2']);
});

test('object input uses its values, in order', () => {
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(getUsers, { first: { id: '7', name: 'G' }, second: { id: '8', name: 'H' } }));
  const state = store.getState().cache;
  expect(state.endpoints[getUsers.key()]).toEqual(['7', '8']);
  expect(state.entities.User!['7']).toEqual({ id: '7', name: 'G' });
});

test('an empty list stores an empty result and no table', () => {
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(getUsers, []));
  const state = store.getState().cache;
  expect(state.endpoints[getUsers.key()]).toEqual([]);
  expect(state.entities.User).toBeUndefined();
});

test('strings and numbers in the list are refs to stored rows', () => {
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(getUsers, ['u1', 2]));
  const state = store.getState().cache;
  expect(state.endpoints[getUsers.key()]).toEqual(['u1', '2']);
  expect(state.entities.User).toBeUndefined();
});

test('members are visited with the array’s own parent and key, not the array and an index', () => {
  const seen: unknown[][] = [];
  class Tag extends Entity {
    id = '';
    static override key = 'ArrTag';
    static override pk(value: object, parent?: unknown, key?: string) {
      seen.push([parent, key]);
      return `${key}:${(value as { id: string }).id}`;
    }
  }
  class Article extends Entity {
    id = '';
    static override key = 'ArrArticle';
    static override schema = { tags: [Tag] };
  }
  const { cache, store } = makeStore();
  store.dispatch(cache.set(Article, { id: 'a1', tags: [{ id: 'x' }, { id: 'y' }] }));
  const { entities } = store.getState().cache;
  expect(Object.keys(entities.ArrTag!)).toEqual(['tags:x', 'tags:y']);
  expect(entities.ArrArticle!['a1']).toEqual({ id: 'a1', tags: ['tags:x', 'tags:y'] });
  expect(seen).toHaveLength(2);
  for (const [parent, key] of seen) {
    expect(Array.isArray(parent)).toBe(false);
    expect(parent).toEqual(expect.objectContaining({ id: 'a1' }));
    expect(key).toBe('tags');
  }
});

test('a root list of entities with nested lists normalizes all of them', () => {
  const { cache, store } = makeStore();
  store.dispatch(
    cache.set(
      [Comment],
      [
        { id: 'c1', body: 'one', author: { id: 'u1', name: 'A' } },
        { id: 'c2', body: 'two', author: 'u1' },
      ],
    ),
  );
  const { entities } = store.getState().cache;
  expect(entities.Comment).toEqual({
    c1: { id: 'c1', body: 'one', author: 'u1' },
    c2: { id: 'c2', body: 'two', author: 'u1' },
  });
  expect(entities.User).toEqual({ u1: { id: 'u1', name: 'A' } });
});

describe('an array schema must hold exactly one member (INVALID_SCHEMA)', () => {
  test.each([
    ['two members', [User, Comment]],
    ['no member', []],
  ])('%s: cache.set throws and the store is unchanged', (_name, schema) => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(User, { id: 'keep', name: 'K' }));
    const before = store.getState().cache;
    const error = catchError(() => store.dispatch(cache.set(schema, [{ id: '1', name: 'x' }])));
    expect(error.code).toBe(ErrorCode.INVALID_SCHEMA);
    expect(store.getState().cache).toBe(before);
    expect(snapshot(store.getState().cache)).toEqual(snapshot(before));
  });

  test('normalize() throws it too', () => {
    const { store } = makeStore();
    const error = catchError(() =>
      normalize(
        [User, Comment],
        [{ id: '1' }],
        [],
        store.getState().cache,
        { fetchedAt: 1, date: 1, expiresAt: 2 },
        { maxEntityDepth: 64 },
      ),
    );
    expect(error.code).toBe(ErrorCode.INVALID_SCHEMA);
  });
});

test('a non-list at the root of an array schema throws UNEXPECTED_INPUT', () => {
  const { cache, store } = makeStore();
  const before = store.getState().cache;
  const error = catchError(() => store.dispatch(cache.set([User], 'u1')));
  expect(error.code).toBe(ErrorCode.UNEXPECTED_INPUT);
  expect(error.status).toBe(400);
  expect(store.getState().cache).toBe(before);
});
