/** Union on the write side (see docs/Union.md). */
import { Entity, ErrorCode, LensCacheError, Union } from '../../src/index';
import { makeStore, snapshot } from '../fixtures/store';
import { catchError, endpoint } from '../fixtures/writes';

class Member extends Entity {
  id = '';
  name = '';
  type = 'users';
  static override key = 'UMember';
}
class Group extends Entity {
  id = '';
  title = '';
  type = 'groups';
  static override key = 'UGroup';
}
const Principal = new Union({ users: Member, groups: Group }, 'type');

afterEach(() => {
  jest.restoreAllMocks();
});

test('the attribute picks the member table; the ref is { id, schema }', () => {
  const getPrincipal = endpoint('GET /principal', Principal);
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(getPrincipal, { id: '1', type: 'groups', title: 'Admins' }));
  const state = store.getState().cache;
  expect(state.endpoints[getPrincipal.key()]).toEqual({ id: '1', schema: 'groups' });
  expect(state.entities.UGroup).toEqual({ 1: { id: '1', type: 'groups', title: 'Admins' } });
  expect(state.entities.UMember).toBeUndefined();
});

test('in a list, each item becomes { id, schema } and goes to its own table', () => {
  const list = endpoint('GET /principals', [Principal]);
  const { cache, store } = makeStore();
  store.dispatch(
    cache.setResponse(list, [
      { id: '1', type: 'users', name: 'Ann' },
      { id: '1', type: 'groups', title: 'G' },
      { id: '2', type: 'users', name: 'Bob' },
    ]),
  );
  const state = store.getState().cache;
  expect(state.endpoints[list.key()]).toEqual([
    { id: '1', schema: 'users' },
    { id: '1', schema: 'groups' },
    { id: '2', schema: 'users' },
  ]);
  expect(Object.keys(state.entities.UMember!)).toEqual(['1', '2']);
  expect(Object.keys(state.entities.UGroup!)).toEqual(['1']);
});

test('a function attribute receives (value, parent, key)', () => {
  const calls: unknown[][] = [];
  const ByShape = new Union({ users: Member, groups: Group }, (value: { title?: string }, parent, key) => {
    calls.push([value, parent, key]);
    return value.title === undefined ? 'users' : 'groups';
  });
  class Holder extends Entity {
    id = '';
    static override key = 'UHolder';
    static override schema = { owner: ByShape };
  }
  const { cache, store } = makeStore();
  store.dispatch(cache.set(Holder, { id: 'h', owner: { id: '5', title: 'Team' } }));
  const state = store.getState().cache;
  expect(state.entities.UHolder!['h']).toEqual({ id: 'h', owner: { id: '5', schema: 'groups' } });
  expect(state.entities.UGroup!['5']).toEqual({ id: '5', title: 'Team' });
  expect(calls).toHaveLength(1);
  expect(calls[0]![0]).toEqual({ id: '5', title: 'Team' });
  expect(calls[0]![1]).toEqual(expect.objectContaining({ id: 'h' }));
  expect(calls[0]![2]).toBe('owner');
});

test('an unknown type is kept raw in the result, stores no row, and warns in development', () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const list = endpoint('GET /principals/unknown', [Principal]);
  const robot = { id: '9', type: 'robots', model: 'R2' };
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(list, [{ id: '1', type: 'users', name: 'Ann' }, robot]));
  const state = store.getState().cache;
  expect(state.endpoints[list.key()]).toEqual([{ id: '1', schema: 'users' }, robot]);
  expect(Object.keys(state.entities)).toEqual(['UMember']);
  expect(Object.keys(state.entities.UMember!)).toEqual(['1']);
  expect(warn).toHaveBeenCalledTimes(1);
  expect(String(warn.mock.calls[0]![0])).toContain('robots');
});

test('an unknown type at the root is kept as the raw result', () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const getPrincipal = endpoint('GET /principal/alien', Principal);
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(getPrincipal, { id: '3', type: 'aliens' }));
  const state = store.getState().cache;
  expect(state.endpoints[getPrincipal.key()]).toEqual({ id: '3', type: 'aliens' });
  expect(state.entities).toEqual({});
  expect(warn).toHaveBeenCalled();
  expect(String(warn.mock.calls[0]![0])).toContain('aliens');
});

test('a member without a usable pk throws MISSING_PK out of cache.set, store unchanged', () => {
  const { cache, store } = makeStore();
  store.dispatch(cache.set(Principal, { id: 'keep', type: 'users', name: 'K' }));
  const before = store.getState().cache;
  const error = catchError(() => store.dispatch(cache.set(Principal, { type: 'groups', title: 'no id' })));
  expect(error.code).toBe(ErrorCode.MISSING_PK);
  expect(error.message).toContain('UGroup');
  expect(store.getState().cache).toBe(before);
  expect(snapshot(store.getState().cache)).toEqual(snapshot(before));
});

test('a non-object at the root throws UNEXPECTED_INPUT', () => {
  const { cache, store } = makeStore();
  const before = store.getState().cache;
  const error = catchError(() => store.dispatch(cache.set(Principal, 'users')));
  expect(error.code).toBe(ErrorCode.UNEXPECTED_INPUT);
  expect(store.getState().cache).toBe(before);
});

test('the constructor throws INVALID_SCHEMA without an attribute', () => {
  let error: unknown;
  try {
    // @ts-expect-error the attribute is required
    new Union({ users: Member, groups: Group });
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(LensCacheError);
  expect((error as LensCacheError).code).toBe(ErrorCode.INVALID_SCHEMA);
});
