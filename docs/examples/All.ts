import { configureStore } from '@reduxjs/toolkit';
import { All, createCache, Entity, Invalidate } from 'lenscache';

export class User extends Entity {
  id = '';
  name = '';
  static override key = 'User';
}
export class Cat extends Entity {
  id = '';
  type = 'cats';
  name = '';
  static override key = 'Cat';
}
export class Dog extends Entity {
  id = '';
  type = 'dogs';
  name = '';
  static override key = 'Dog';
}

export const allUsers = new All(User);
export const pets = new All({ cats: Cat, dogs: Dog }, 'type'); // member order, then table order
// As an endpoint's schema, All stores no result: every read re-reads the table.
export const getUsers = { key: () => 'GET /users', schema: allUsers };

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

export function run() {
  const before = cache.selectQuery(store.getState(), allUsers); // undefined: no User table yet
  store.dispatch(cache.setResponse(getUsers, [])); // an empty response still creates the table
  const empty = cache.selectQuery(store.getState(), allUsers); // []

  store.dispatch(cache.set(User, { id: 'u1', name: 'Ann' }));
  store.dispatch(cache.set(User, { id: 'u2', name: 'Bob' }));
  store.dispatch(cache.set(User, { id: 'u3', name: 'Cid' }));
  store.dispatch(cache.set(new Invalidate(User), 'u2')); // deleted entities are left out
  store.dispatch(
    cache.set(pets, [
      { id: 'd1', type: 'dogs', name: 'Rex' },
      { id: 'c1', type: 'cats', name: 'Tom' },
    ]),
  );

  return {
    before,
    empty,
    // Written without an endpoint, the users still show: All reads whatever the table holds.
    users: cache.selectQuery(store.getState(), allUsers)?.map(user => user.name), // ['Ann', 'Cid']
    fromEndpoint: cache.selectResponse(store.getState(), getUsers).data?.length, // 2
    pets: cache.selectQuery(store.getState(), pets)?.map(pet => pet.name), // ['Tom', 'Rex']
  };
}
