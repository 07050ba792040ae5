/** Values on the write side (see docs/Values.md): a map of items, each visited with parent = the map, key = its map key. */
import { Entity, ErrorCode, Values } from '../../src/index';
import { User } from '../fixtures/schemas';
import { makeStore, snapshot } from '../fixtures/store';
import { catchError, endpoint, hasOwn } from '../fixtures/writes';

const usersById = endpoint('GET /users/map', new Values(User));

test('every member is normalized and the result is a map of refs', () => {
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(usersById, { a: { id: '1', name: 'One' }, b: { id: '2', name: 'Two' } }));
  const state = store.getState().cache;
  expect(state.endpoints[usersById.key()]).toEqual({ a: '1', b: '2' });
  expect(state.entities.User).toEqual({ 1: { id: '1', name: 'One' }, 2: { id: '2', name: 'Two' } });
});

test('null and undefined members are skipped (no key, no row)', () => {
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(usersById, { a: { id: '1', name: 'One' }, b: null, c: undefined }));
  const result = store.getState().cache.endpoints[usersById.key()];
  expect(result).toEqual({ a: '1' });
  expect(hasOwn(result, 'b')).toBe(false);
  expect(Object.keys(store.getState().cache.entities.User!)).toEqual(['1']);
});

test('pk receives parent = the whole map and key = the map key', () => {
  const calls: unknown[][] = [];
  class Rate extends Entity {
    value = 0;
    static override key = 'Rate';
    static override pk(value: object, parent?: unknown, key?: string, args?: readonly unknown[]) {
      calls.push([parent, key, args]);
      return key;
    }
  }
  const rates = endpoint('GET /rates', new Values(Rate));
  const response = { EUR: { value: 1.1 }, GBP: { value: 1.3 } };
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(rates, { base: 'USD' }, response));
  const state = store.getState().cache;
  expect(state.entities.Rate).toEqual({ EUR: { value: 1.1 }, GBP: { value: 1.3 } });
  expect(state.endpoints[rates.key({ base: 'USD' })]).toEqual({ EUR: 'EUR', GBP: 'GBP' });
  expect(calls.map(([, key]) => key)).toEqual(['EUR', 'GBP']);
  for (const [parent, , args] of calls) {
    expect(parent).toBe(response);
    expect(args).toEqual([{ base: 'USD' }]);
  }
});

test('polymorphic Values store { id, schema } refs and rows in each member table', () => {
  class Cat extends Entity {
    id = '';
    kind = 'cat';
    static override key = 'ValCat';
  }
  class Dog extends Entity {
    id = '';
    kind = 'dog';
    static override key = 'ValDog';
  }
  const pets = endpoint('GET /pets', new Values({ cat: Cat, dog: Dog }, 'kind'));
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(pets, { x: { id: '1', kind: 'cat' }, y: { id: '1', kind: 'dog' } }));
  const state = store.getState().cache;
  expect(state.endpoints[pets.key()]).toEqual({ x: { id: '1', schema: 'cat' }, y: { id: '1', schema: 'dog' } });
  expect(state.entities.ValCat).toEqual({ 1: { id: '1', kind: 'cat' } });
  expect(state.entities.ValDog).toEqual({ 1: { id: '1', kind: 'dog' } });
});

test('Values nested in an entity field normalize to a map of refs in the row', () => {
  class Board extends Entity {
    id = '';
    static override key = 'Board';
    static override schema = { members: new Values(User) };
  }
  const { cache, store } = makeStore();
  store.dispatch(
    cache.set(Board, { id: 'b1', members: { lead: { id: 'u1', name: 'L' }, dev: { id: 'u2', name: 'D' } } }),
  );
  expect(store.getState().cache.entities.Board!['b1']).toEqual({ id: 'b1', members: { lead: 'u1', dev: 'u2' } });
});

test('a map key of __proto__ is stored as own data in the result', () => {
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(usersById, JSON.parse('{"__proto__":{"id":"p","name":"P"}}')));
  const result = store.getState().cache.endpoints[usersById.key()];
  expect(hasOwn(result, '__proto__')).toBe(true);
  expect(snapshot(result)).toEqual(JSON.parse('{"__proto__":"p"}'));
  expect(store.getState().cache.entities.User!['p']).toEqual({ id: 'p', name: 'P' });
  expect(({} as Record<string, unknown>).id).toBeUndefined();
});

test('an array at the root throws UNEXPECTED_INPUT and the store is unchanged', () => {
  const { cache, store } = makeStore();
  const before = store.getState().cache;
  const error = catchError(() => store.dispatch(cache.set(new Values(User), [{ id: '1' }])));
  expect(error.code).toBe(ErrorCode.UNEXPECTED_INPUT);
  expect(store.getState().cache).toBe(before);
  expect(snapshot(store.getState().cache)).toEqual(snapshot(before));
});
