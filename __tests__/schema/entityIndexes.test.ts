/** Entity `indexes` (issue 22): lookups by a field other than the pk, kept in the slice as plain data. */
import { Entity, Invalidate } from '../../src/index';
import { makeStore, snapshot } from '../fixtures/store';

class User extends Entity {
  id = '';
  name = '';
  static override key = 'User';
}

describe('Entity indexes', () => {
  class Member extends Entity {
    id = '';
    username = '';
    static override key = 'Member';
    static override indexes = ['username'] as const;
  }

  test('selectQuery(Entity, { indexedField }) finds the row through an index kept in the slice', () => {
    const { cache, store } = makeStore();
    store.dispatch(
      cache.set(
        [Member],
        [
          { id: 'm1', username: 'ann' },
          { id: 'm2', username: 'bob' },
        ],
      ),
    );
    const state = store.getState();
    const bob = cache.selectQuery(state, Member, { username: 'bob' });
    expect(bob).toBeInstanceOf(Member);
    expect(bob?.id).toBe('m2');
    expect(bob).toBe(cache.selectQuery(state, Member, 'm2'));
    expect(cache.selectQuery(state, Member, { username: 'bob' })).toBe(bob);
    expect(cache.selectQuery(state, Member, { username: 'nobody' })).toBeUndefined();
    const table = state.cache.entities['Member@username']!;
    expect(Object.getPrototypeOf(table)).toBeNull();
    expect(snapshot(table)).toEqual({ ann: ['m1'], bob: ['m2'] });
  });

  test('every write and deletion keeps the index current', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Member, { id: 'm1', username: 'ann' }));
    store.dispatch(cache.set(Member, { id: 'm1', username: 'anna' }));
    let state = store.getState();
    expect(cache.selectQuery(state, Member, { username: 'ann' })).toBeUndefined();
    expect(cache.selectQuery(state, Member, { username: 'anna' })?.id).toBe('m1');
    expect(snapshot(state.cache.entities['Member@username'])).toEqual({ ann: null, anna: ['m1'] });
    // A write without the field keeps the stored value and its entry.
    store.dispatch(cache.set(Member, { id: 'm1' }));
    expect(cache.selectQuery(store.getState(), Member, { username: 'anna' })?.id).toBe('m1');
    // An unrelated write keeps the read's result identical.
    const anna = cache.selectQuery(store.getState(), Member, { username: 'anna' });
    store.dispatch(cache.set(User, { id: 'u1', name: 'x' }));
    expect(cache.selectQuery(store.getState(), Member, { username: 'anna' })).toBe(anna);
    store.dispatch(cache.set(new Invalidate(Member), 'm1'));
    state = store.getState();
    expect(cache.selectQuery(state, Member, { username: 'anna' })).toBeUndefined();
    expect(snapshot(state.cache.entities['Member@username'])).toEqual({ ann: null, anna: null });
    expect(JSON.parse(JSON.stringify(state.cache))).toEqual(snapshot(state.cache));
  });

  test('an index value of __proto__ is ordinary data', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Member, JSON.parse('{"id":"m9","username":"__proto__"}')));
    const table = store.getState().cache.entities['Member@username']!;
    expect(Object.prototype.hasOwnProperty.call(table, '__proto__')).toBe(true);
    expect(cache.selectQuery(store.getState(), Member, { username: '__proto__' })?.id).toBe('m9');
    expect(cache.selectQuery(store.getState(), Member, { username: 'constructor' })).toBeUndefined();
  });
});
