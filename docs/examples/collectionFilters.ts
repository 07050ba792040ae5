import { configureStore } from '@reduxjs/toolkit';
import { Collection, createCache, Entity, RestEndpoint } from 'lenscache';

export class Todo extends Entity {
  id = '';
  userId = '';
  title = '';
  static override key = 'Todo';
}

// One list per { userId, view }. `view` is how a screen shows the list, not a filter, and a
// created todo goes to the lists of its own user (the body's userId), whatever the params say.
export const todos = new Collection([Todo], {
  createCollectionFilter: (_params: object, body?: { userId?: string }) => collectionKey =>
    Object.entries(collectionKey).every(([key, value]) => key === 'view' || value === body?.[key as 'userId']),
});
export const getTodos = new RestEndpoint({
  path: '/todos',
  searchParams: {} as { userId?: string; view?: string },
  schema: todos,
});
// A create that keeps each list sorted by id: `merge` gets the stored refs and the new ones.
export const createSorted = getTodos.extend({
  method: 'POST',
  schema: todos.addWith((existing: string[], incoming: string[]) => [...existing, ...incoming].sort()),
});
// A move that puts the todo first in the lists it joins.
export const reassign = new RestEndpoint({
  path: '/todos/:id',
  method: 'PATCH',
  schema: todos.moveWith((existing: string[], incoming: string[]) => [...incoming, ...existing]),
});

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});
const ids = (userId: string, view?: string) =>
  cache.selectQuery(store.getState(), todos, { userId, view })?.map(todo => todo.id);

export function run() {
  const todo = (id: string, userId: string) => ({ id, userId, title: `Todo ${id}` });
  store.dispatch(cache.setResponse(getTodos, { userId: 'ann' }, [todo('1', 'ann'), todo('3', 'ann')]));
  store.dispatch(cache.setResponse(getTodos, { userId: 'ann', view: 'board' }, [todo('3', 'ann')]));
  store.dispatch(cache.setResponse(getTodos, { userId: 'bob' }, [todo('4', 'bob')]));

  // Sent from Bob's screen for Ann: her lists take it (both views), Bob's does not.
  const body = { userId: 'ann', title: 'Todo 2' };
  store.dispatch(cache.setResponse(createSorted, { userId: 'bob' }, body, { id: '2', ...body }));
  // Todo 3 goes to Bob: it leaves Ann's lists and comes first in his.
  store.dispatch(cache.setResponse(reassign, { id: '3' }, { userId: 'bob' }, todo('3', 'bob')));

  return {
    ann: ids('ann'), // ['1', '2']
    annBoard: ids('ann', 'board'), // ['2']
    bob: ids('bob'), // ['3', '4']
  };
}
