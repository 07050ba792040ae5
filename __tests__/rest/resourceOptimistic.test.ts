/**
 * resource({ optimistic: true }) against a real local server whose answers are held until the test
 * releases them: each mutation shows its guess at once, the answer takes its place, and a refusal
 * takes the guess back.
 */
import { Entity, resource, RestEndpoint, type CacheState } from '../../src/index';
import { gate, startServer, type TestServer } from '../fixtures/server';
import { makeStore } from '../fixtures/store';

class Task extends Entity {
  id = '';
  title = '';
  done = false;
  static override key = 'Task';
}

let server: TestServer;
let db: Array<{ id: string; title: string; done: boolean }>;
const held: Array<() => void> = [];
const hold = () => {
  const g = gate();
  held.push(g.open);
  return g.promise;
};

beforeAll(async () => {
  server = await startServer();
  const idOf = (url: string) => url.split('?')[0]!.split('/')[2]!;
  server.on('GET /tasks', () => ({ json: db.map(task => ({ ...task })) }));
  server.on('POST /tasks', request => {
    const body = request.body as { title?: string };
    if (!body.title) return { status: 400, json: { message: 'A task needs a title.' }, hold: hold() };
    const task = { id: `t${db.length + 1}`, title: body.title, done: false };
    db.push(task);
    return { status: 201, json: task, hold: hold() };
  });
  server.on('PATCH /tasks/:id', request => {
    const task = db.find(t => t.id === idOf(request.url));
    if (!task) return { status: 404, json: { message: 'No such task.' }, hold: hold() };
    Object.assign(task, request.body);
    return { json: { ...task }, hold: hold() };
  });
  server.on('PUT /tasks/:id', request => {
    const index = db.findIndex(t => t.id === idOf(request.url));
    db[index] = { ...(request.body as (typeof db)[0]), id: idOf(request.url) };
    return { json: { ...db[index]! }, hold: hold() };
  });
  server.on('DELETE /tasks/:id', request => {
    const id = idOf(request.url);
    if (id === 'locked') return { status: 403, json: { message: 'Locked.' }, hold: hold() };
    db = db.filter(t => t.id !== id);
    return { status: 204, raw: '', hold: hold() };
  });
});
afterAll(() => server.close());

async function setup() {
  db = [
    { id: 't1', title: 'Write', done: false },
    { id: 'locked', title: 'Keep', done: false },
  ];
  held.length = 0;
  const TaskResource = resource({ urlPrefix: server.origin, path: '/tasks/:id', schema: Task, optimistic: true });
  const { cache, store } = makeStore();
  await store.dispatch(cache.fetch(TaskResource.getList));
  const tasks = () => cache.selectQuery(store.getState(), TaskResource.getList.schema, {});
  const slice = () => store.getState().cache as CacheState;
  /** Waits until the server holds `n` answers. */
  const arrived = async (n: number) => {
    while (held.length < n) await new Promise(resolve => setTimeout(resolve, 2));
  };
  return { TaskResource, cache, store, tasks, slice, arrived };
}

test('partialUpdate and update show the cached item with the body over it, then the answer', async () => {
  const { TaskResource, cache, store, tasks, arrived } = await setup();
  const patched = store.dispatch(cache.fetch(TaskResource.partialUpdate, { id: 't1' }, { done: true }));
  // Before the server has even answered: the cached task, with the body's field over it.
  expect(tasks()?.[0]).toMatchObject({ id: 't1', title: 'Write', done: true });
  await arrived(1);
  held[0]!();
  await patched;
  expect(tasks()?.[0]).toMatchObject({ id: 't1', title: 'Write', done: true });

  const replaced = store.dispatch(cache.fetch(TaskResource.update, { id: 't1' }, { title: 'Rewrite', done: false }));
  expect(tasks()?.[0]).toMatchObject({ id: 't1', title: 'Rewrite', done: false });
  await arrived(2);
  held[1]!();
  await replaced;
  expect(tasks()?.map(task => task.title)).toEqual(['Rewrite', 'Keep']);
});

test('getList.push shows the created item in the list at once; a refusal takes it back', async () => {
  const { TaskResource, cache, store, tasks, arrived } = await setup();
  const created = store.dispatch(cache.fetch(TaskResource.getList.push, {}, { id: 'draft-1', title: 'Plan' }));
  expect(tasks()?.map(task => task.title)).toEqual(['Write', 'Keep', 'Plan']);
  await arrived(1);
  held[0]!();
  await created;
  expect(tasks()?.map(task => task.id)).toEqual(['t1', 'locked', 't3']);

  const refused = store.dispatch(cache.fetch(TaskResource.getList.push, {}, { id: 'draft-2', title: '' }));
  refused.catch(() => undefined);
  expect(tasks()).toHaveLength(4);
  await arrived(2);
  held[1]!();
  await expect(refused).rejects.toMatchObject({ status: 400 });
  expect(tasks()?.map(task => task.id)).toEqual(['t1', 'locked', 't3']);
});

test('getList.extend(...) keeps the optimistic push and unshift: the guess shows at once from the extended list too', async () => {
  const { TaskResource, cache, store, tasks, arrived } = await setup();
  const wrapped = TaskResource.getList.extend({ dataExpiryLength: 5_000 });
  expect(wrapped.push.getOptimisticResponse).toBe(TaskResource.getList.push.getOptimisticResponse);
  expect(wrapped.unshift.getOptimisticResponse).toBe(TaskResource.getList.unshift.getOptimisticResponse);
  expect(wrapped.push.getOptimisticResponse).toEqual(expect.any(Function));
  // Extended twice, and with another schema around the same Collection.
  const enveloped = wrapped.extend({ schema: { results: TaskResource.getList.schema } });
  expect(enveloped.push.getOptimisticResponse).toBe(TaskResource.getList.push.getOptimisticResponse);

  const created = store.dispatch(cache.fetch(wrapped.push, {}, { id: 'draft-1', title: 'Plan' }));
  expect(tasks()?.map(task => task.title)).toEqual(['Write', 'Keep', 'Plan']);
  await arrived(1);
  held[0]!();
  await created;
  expect(tasks()?.map(task => task.id)).toEqual(['t1', 'locked', 't3']);
  // Other ops and endpoints of a resource without optimistic have none.
  const plain = resource({ path: '/tasks/:id', schema: Task });
  expect(plain.getList.extend({}).push.getOptimisticResponse).toBeUndefined();
  expect(TaskResource.getList.remove.getOptimisticResponse).toBeUndefined();
});

test('delete removes the item at once; a refused delete puts it back as it was', async () => {
  const { TaskResource, cache, store, tasks, slice, arrived } = await setup();
  const before = slice().entities.Task;
  const refused = store.dispatch(cache.fetch(TaskResource.delete, { id: 'locked' }));
  refused.catch(() => undefined);
  expect(tasks()?.map(task => task.id)).toEqual(['t1']);
  await arrived(1);
  held[0]!();
  await expect(refused).rejects.toMatchObject({ status: 403 });
  expect(tasks()?.map(task => task.id)).toEqual(['t1', 'locked']);
  expect(slice().entities.Task).toEqual(before);

  const deleted = store.dispatch(cache.fetch(TaskResource.delete, { id: 't1' }));
  expect(tasks()?.map(task => task.id)).toEqual(['locked']);
  await arrived(2);
  held[1]!();
  await deleted;
  expect(tasks()?.map(task => task.id)).toEqual(['locked']);
});

test('without optimistic, nothing shows before the answer', async () => {
  db = [{ id: 't1', title: 'Write', done: false }];
  held.length = 0;
  const Plain = resource({ urlPrefix: server.origin, path: '/tasks/:id', schema: Task });
  const { cache, store } = makeStore();
  await store.dispatch(cache.fetch(Plain.getList));
  expect(Plain.partialUpdate.getOptimisticResponse).toBeUndefined();
  expect(Plain.getList.push.getOptimisticResponse).toBeUndefined();
  const patched = store.dispatch(cache.fetch(Plain.partialUpdate, { id: 't1' }, { done: true }));
  expect(cache.selectQuery(store.getState(), Task, { id: 't1' })?.done).toBe(false);
  while (held.length < 1) await new Promise(resolve => setTimeout(resolve, 2));
  held[0]!();
  await patched;
  expect(cache.selectQuery(store.getState(), Task, { id: 't1' })?.done).toBe(true);
});

test('optimistic that is not a boolean, and a getOptimisticResponse that is not a function, are refused where made', () => {
  for (const optimistic of ['yes', 1, null, {}]) {
    expect(() => resource({ path: '/tasks/:id', schema: Task, optimistic: optimistic as boolean })).toThrow(
      expect.objectContaining({ code: 'INVALID_SCHEMA', message: expect.stringContaining('optimistic') }),
    );
  }
  expect(() => resource({ path: '/tasks/:id', schema: Task, optimistic: false })).not.toThrow();
  for (const guess of [5, 'body', {}, null]) {
    expect(
      () => new RestEndpoint({ path: '/tasks/:id', method: 'PATCH', getOptimisticResponse: guess as never }),
    ).toThrow(
      expect.objectContaining({ code: 'INVALID_SCHEMA', message: expect.stringContaining('getOptimisticResponse') }),
    );
    const base = new RestEndpoint({ path: '/tasks/:id', method: 'PATCH' });
    expect(() => base.extend({ getOptimisticResponse: guess as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_SCHEMA' }),
    );
  }
  const guess = (_snap: unknown, _params: unknown, body: unknown) => body;
  expect(
    new RestEndpoint({ path: '/tasks/:id', method: 'PATCH', getOptimisticResponse: guess }).getOptimisticResponse,
  ).toBe(guess);
});

test('an edit guess over an item an earlier guess wrote does not read its nested entity back from the class default', () => {
  class Author extends Entity {
    id = '';
    name = '';
    static override key = 'GuessAuthor';
  }
  class Note extends Entity {
    id = '';
    title = '';
    author = Author.fromJS();
    static override key = 'GuessNote';
    static override schema = { author: Author };
  }
  const Notes = resource({ urlPrefix: 'http://guess.test', path: '/notes/:id', schema: Note, optimistic: true });
  // Requests that never answer: only the guesses are written.
  const { cache, store } = makeStore({ fetch: () => new Promise<Response>(() => undefined) });
  void store.dispatch(cache.fetch(Notes.partialUpdate, { id: '1' }, { title: 'first' }));
  // The row holds no author: read back, the note's author is the class's default (no usable pk).
  expect(cache.selectQuery(store.getState(), Note, '1')?.title).toBe('first');
  expect(() => store.dispatch(cache.fetch(Notes.partialUpdate, { id: '1' }, { title: 'second' }))).not.toThrow();
  expect(cache.selectQuery(store.getState(), Note, '1')?.title).toBe('second');
  // An item the store holds keeps its other fields under the guess.
  store.dispatch(cache.set(Note, { id: '2', title: 'two', author: { id: 'a', name: 'Ann' } }));
  void store.dispatch(cache.fetch(Notes.update, { id: '2' }, { title: 'two, edited' } as never));
  expect(cache.selectQuery(store.getState(), Note, '2')).toMatchObject({
    title: 'two, edited',
    author: { name: 'Ann' },
  });
});
