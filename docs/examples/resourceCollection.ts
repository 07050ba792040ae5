import { configureStore } from '@reduxjs/toolkit';
import { createCache, Entity, resource } from 'lenscache';

export class Task extends Entity {
  id = '';
  title = '';
  project = '';
  static override key = 'Task';
}

export const TaskResource = resource({
  urlPrefix: 'https://api.example.com',
  path: '/:project/tasks/:id',
  schema: Task,
  searchParams: {} as { view?: 'board' | 'list'; sortBy?: 'title' | 'due' },
  collection: {
    // A list per project and sort order, whatever the view: the board and the list show the same tasks.
    argsKey: ({ project, sortBy }: { project: string; sortBy?: string }) => ({ project, sortBy }),
    // sortBy orders a list rather than filters it, so a create reaches the project's lists in every order.
    nonFilterArgumentKeys: ['sortBy'],
  },
});

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

export function run() {
  const { getList } = TaskResource;
  const board = { project: 'site', view: 'board', sortBy: 'due' } as const;
  store.dispatch(cache.setResponse(getList, board, [{ id: '1', title: 'Plan' }]));
  // The created task joins the project's list (as cache.fetch would store the server's answer).
  store.dispatch(cache.setResponse(getList.push, { project: 'site' }, { title: 'Ship' }, { id: '2', title: 'Ship' }));

  const onBoard = cache.selectQuery(store.getState(), getList.schema, board);
  const inList = cache.selectQuery(store.getState(), getList.schema, { ...board, view: 'list' });
  return {
    titles: onBoard?.map(task => task.title), // ['Plan', 'Ship']: the create reached the sorted list
    oneList: onBoard === inList, // true: argsKey left the view out
    listKeys: Object.keys(store.getState().cache.entities['[Task]'] ?? {}), // ['{"project":"site","sortBy":"due"}']
  };
}
