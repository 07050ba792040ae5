/** Invalidate on the write side (see docs/Invalidate.md): the item or its pk becomes a tombstone. */
import { Entity, ErrorCode, Invalidate, LensCacheError, Union } from '../../src/index';
import { User } from '../fixtures/schemas';
import { makeStore, snapshot } from '../fixtures/store';
import { catchError, endpoint, hasOwn } from '../fixtures/writes';

const deleteUser = endpoint('DELETE /user', new Invalidate(User));

test('an object input writes a tombstone (null) and the result is the pk', () => {
  const { cache, store } = makeStore();
  store.dispatch(cache.set(User, { id: '1', name: 'A' }));
  store.dispatch(cache.setResponse(deleteUser, { id: '1' }, { id: '1' }));
  const state = store.getState().cache;
  expect(hasOwn(state.entities.User, '1')).toBe(true);
  expect(state.entities.User!['1']).toBeNull();
  expect(state.endpoints[deleteUser.key({ id: '1' })]).toBe('1');
  expect(cache.selectQuery(store.getState(), User, '1')).toBeUndefined();
});

test.each([
  ['a string pk', 'u7', 'u7'],
  ['a number pk', 7, '7'],
])('%s input writes a tombstone at String(pk)', (_name, input, rowKey) => {
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(deleteUser, input));
  const state = store.getState().cache;
  expect(hasOwn(state.entities.User, rowKey)).toBe(true);
  expect(state.entities.User![rowKey]).toBeNull();
  expect(state.entitiesMeta.User![rowKey]).toEqual({
    fetchedAt: expect.any(Number),
    date: expect.any(Number),
    expiresAt: expect.any(Number),
  });
  expect(state.endpoints[deleteUser.key()]).toBe(rowKey);
});

test.each(['__proto__', 'constructor'])('a pk of %s writes an own tombstone and pollutes nothing', pk => {
  const { cache, store } = makeStore();
  store.dispatch(cache.set(User, JSON.parse(`{"id":"${pk}","name":"P"}`)));
  store.dispatch(cache.set(new Invalidate(User), pk));
  const table = store.getState().cache.entities.User!;
  expect(Object.keys(table)).toEqual([pk]);
  expect(table[pk]).toBeNull();
  expect(Object.prototype.hasOwnProperty.call(table, pk)).toBe(true);
  expect(typeof ({} as { constructor: unknown }).constructor).toBe('function');
  expect(cache.selectQuery(store.getState(), User, pk)).toBeUndefined();
});

test('cache.set with a pk deletes the row', () => {
  const { cache, store } = makeStore();
  store.dispatch(cache.set(User, { id: '3', name: 'C' }));
  store.dispatch(cache.set(new Invalidate(User), '3'));
  expect(store.getState().cache.entities.User!['3']).toBeNull();
});

test('process and pk run on the input before the tombstone is written', () => {
  class Ticket extends Entity {
    code = '';
    static override key = 'Ticket';
    static override process(input: object) {
      const raw = input as { ticket: { code: string } };
      return { code: raw.ticket.code };
    }
    override pk() {
      return this.code;
    }
  }
  const { cache, store } = makeStore();
  store.dispatch(cache.set(new Invalidate(Ticket), { ticket: { code: 'T-1' } }));
  expect(store.getState().cache.entities.Ticket).toEqual({ 'T-1': null });
});

test('a tombstone older than the stored row is ignored', () => {
  const getUser = endpoint('GET /user', User);
  const { cache, store } = makeStore();
  store.dispatch(cache.resolve(getUser, { args: [], response: { id: '1', name: 'A' }, fetchedAt: 200 }));
  store.dispatch(cache.resolve(deleteUser, { args: [], response: '1', fetchedAt: 100 }));
  expect(store.getState().cache.entities.User!['1']).toEqual({ id: '1', name: 'A' });
  expect(store.getState().cache.entitiesMeta.User!['1']!.fetchedAt).toBe(200);
});

test('the Union form tombstones the member row and returns { id, schema }', () => {
  class Member extends Entity {
    id = '';
    type = 'users';
    static override key = 'InvMember';
  }
  class Group extends Entity {
    id = '';
    type = 'groups';
    static override key = 'InvGroup';
  }
  const Principal = new Union({ users: Member, groups: Group }, 'type');
  const remove = endpoint('DELETE /principal', new Invalidate(Principal));
  const { cache, store } = makeStore();
  store.dispatch(
    cache.set(
      [Principal],
      [
        { id: '1', type: 'users' },
        { id: '1', type: 'groups' },
      ],
    ),
  );
  store.dispatch(cache.setResponse(remove, { id: '1', type: 'groups' }));
  const state = store.getState().cache;
  expect(state.endpoints[remove.key()]).toEqual({ id: '1', schema: 'groups' });
  expect(state.entities.InvGroup!['1']).toBeNull();
  expect(state.entities.InvMember!['1']).toEqual({ id: '1', type: 'users' });
});

test('Invalidate as an entity field tombstones the nested row', () => {
  class Undo extends Entity {
    id = '';
    static override key = 'Undo';
    static override schema = { removed: new Invalidate(User) };
  }
  const { cache, store } = makeStore();
  store.dispatch(cache.set(User, { id: 'u1', name: 'A' }));
  store.dispatch(cache.set(Undo, { id: 'x', removed: { id: 'u1' } }));
  const state = store.getState().cache;
  expect(state.entities.Undo!['x']).toEqual({ id: 'x', removed: 'u1' });
  expect(state.entities.User!['u1']).toBeNull();
});

test.each([
  ['an empty pk', ''],
  ['an object without id', { name: 'x' }],
])('%s throws MISSING_PK and the store is unchanged', (_name, input) => {
  const { cache, store } = makeStore();
  store.dispatch(cache.set(User, { id: '1', name: 'A' }));
  const before = store.getState().cache;
  const error = catchError(() => store.dispatch(cache.set(new Invalidate(User), input)));
  expect(error.code).toBe(ErrorCode.MISSING_PK);
  expect(store.getState().cache).toBe(before);
  expect(snapshot(store.getState().cache)).toEqual(snapshot(before));
});

test('the constructor throws INVALID_SCHEMA for a non-entity', () => {
  let error: unknown;
  try {
    new Invalidate([User] as never);
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(LensCacheError);
  expect((error as LensCacheError).code).toBe(ErrorCode.INVALID_SCHEMA);
});
