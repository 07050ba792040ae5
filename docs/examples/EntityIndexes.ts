import { configureStore } from '@reduxjs/toolkit';
import { createCache, Entity, Invalidate } from 'lenscache';

export class Member extends Entity {
  id = '';
  username = '';
  static override key = 'Member';
  // Look members up by username as well as by id.
  static override indexes = ['username'];
}

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

export function run() {
  store.dispatch(cache.set([Member], [{ id: 'm1', username: 'ann' }, { id: 'm2', username: 'bob' }]));
  const first = store.getState();
  const bob = cache.selectQuery(first, Member, { username: 'bob' });
  // A rename moves the entry; the old value no longer finds anyone.
  store.dispatch(cache.set(Member, { id: 'm1', username: 'anna' }));
  store.dispatch(cache.set(new Invalidate(Member), 'm2'));
  const state = store.getState();
  return {
    bob: bob?.id, // 'm2'
    sameAsById: bob === cache.selectQuery(first, Member, 'm2'), // true: the same object
    anna: cache.selectQuery(state, Member, { username: 'anna' })?.id, // 'm1'
    ann: cache.selectQuery(state, Member, { username: 'ann' }), // undefined
    deleted: cache.selectQuery(state, Member, { username: 'bob' }), // undefined
    index: JSON.stringify(state.cache.entities['Member@username']), // '{"ann":null,"bob":null,"anna":["m1"]}'
  };
}
