/** Lazy on the write side (see docs/Lazy.md): normalizes through the inner schema given by a function. */
import { Entity, ErrorCode, Lazy, LensCacheError } from '../../src/index';
import { User } from '../fixtures/schemas';
import { makeStore, snapshot } from '../fixtures/store';
import { catchError, endpoint } from '../fixtures/writes';

class Department extends Entity {
  id = '';
  name = '';
  buildings: string[] = [];
  static override key = 'Department';
  static override schema = { buildings: new Lazy(() => [Building]) };
}
class Building extends Entity {
  id = '';
  name = '';
  departments: string[] = [];
  static override key = 'Building';
  static override schema = { departments: new Lazy(() => [Department]) };
}

test('a Lazy field normalizes through its inner schema; the row holds the refs', () => {
  const { cache, store } = makeStore();
  store.dispatch(
    cache.set(Department, {
      id: 'd1',
      name: 'Physics',
      buildings: [
        { id: 'b1', name: 'North', departments: [{ id: 'd2', name: 'Chemistry' }] },
        { id: 'b2', name: 'South' },
      ],
    }),
  );
  const { entities } = store.getState().cache;
  expect(entities.Department).toEqual({
    d1: { id: 'd1', name: 'Physics', buildings: ['b1', 'b2'] },
    d2: { id: 'd2', name: 'Chemistry' },
  });
  expect(entities.Building).toEqual({
    b1: { id: 'b1', name: 'North', departments: ['d2'] },
    b2: { id: 'b2', name: 'South' },
  });
});

test('the schema function is not called until the schema is needed', () => {
  const getSchema = jest.fn(() => User);
  const lazy = new Lazy(getSchema);
  expect(getSchema).not.toHaveBeenCalled();
  const { cache, store } = makeStore();
  store.dispatch(cache.set(lazy, { id: 'u1', name: 'A' }));
  expect(getSchema).toHaveBeenCalled();
  expect(store.getState().cache.entities.User!['u1']).toEqual({ id: 'u1', name: 'A' });
});

test('a Lazy endpoint schema stores the inner result', () => {
  const ep = endpoint('GET /buildings', new Lazy(() => [Building]));
  const { cache, store } = makeStore();
  store.dispatch(
    cache.setResponse(ep, [
      { id: 'b1', name: 'N' },
      { id: 'b2', name: 'S' },
    ]),
  );
  expect(store.getState().cache.endpoints[ep.key()]).toEqual(['b1', 'b2']);
  expect(Object.keys(store.getState().cache.entities.Building!)).toEqual(['b1', 'b2']);
});

test('the root type check follows the inner schema', () => {
  const { cache, store } = makeStore();
  const before = store.getState().cache;
  const error = catchError(() => store.dispatch(cache.set(new Lazy(() => User), [{ id: 'u1' }])));
  expect(error.code).toBe(ErrorCode.UNEXPECTED_INPUT);
  expect(store.getState().cache).toBe(before);
  expect(snapshot(store.getState().cache)).toEqual(snapshot(before));
});

test('errors inside the inner schema surface as usual and write nothing', () => {
  const { cache, store } = makeStore();
  store.dispatch(cache.set(Department, { id: 'd0', name: 'Keep' }));
  const before = store.getState().cache;
  const error = catchError(() => store.dispatch(cache.set(Department, { id: 'd1', buildings: [{ name: 'no id' }] })));
  expect(error.code).toBe(ErrorCode.MISSING_PK);
  expect(error.message).toContain('Building');
  expect(store.getState().cache).toBe(before);
});

describe('the constructor throws INVALID_SCHEMA for a non-function', () => {
  test.each<[string, unknown]>([
    ['an Entity class', User],
    ['a list schema', [User]],
    ['undefined', undefined],
    ['a string', 'User'],
  ])('%s', (_name, value) => {
    let error: unknown;
    try {
      new Lazy(value as () => unknown);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(LensCacheError);
    expect((error as LensCacheError).code).toBe(ErrorCode.INVALID_SCHEMA);
  });
});
