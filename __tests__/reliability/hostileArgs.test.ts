/**
 * Args and callbacks that used to escape a coded error: BigInt values in args (keys take them as
 * their decimal text, as URLs and Collection pks do), circular and 20,000-deep args (refused with
 * a code instead of overflowing the stack), and a schema callback that throws something other
 * than an Error (the fetch rejects, instead of resolving to `undefined` with an error stored).
 */
import { Collection, Entity, ErrorCode, LensCacheError, RestEndpoint, type CacheState } from '../../src/index';
import { startServer } from '../fixtures/server';
import { makeStore, snapshot } from '../fixtures/store';
import { catchError, expectRejected } from '../fixtures/writes';

class Task extends Entity {
  id = '';
  title = '';
  static override key = 'Task';
}
const tasks = new Collection([Task]);
/** An endpoint whose own key cannot fail: what these tests try is the cache's handling of the args. */
const getTasks = { key: (params?: { user?: unknown }) => `tasks ${String(params?.user)}`, schema: tasks };
const rest = new RestEndpoint({ urlPrefix: 'http://api.test', path: '/users/:id/tasks', schema: tasks });
const update = new RestEndpoint({ urlPrefix: 'http://api.test', path: '/tasks/:id', method: 'PUT', schema: Task });

const slice = (state: unknown) => (state as { cache: CacheState }).cache;

function deep(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < levels; i++) value = { n: value };
  return value;
}
function cyclic(): Record<string, unknown> {
  const value: Record<string, unknown> = { group: 'a' };
  value.self = value;
  return value;
}

describe('BigInt values in args', () => {
  test('reads, url() and key() all take them, as their decimal text', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.setResponse(getTasks, { user: 10n }, [{ id: '1', title: 't' }]));
    expect(cache.selectQuery(store.getState(), tasks, { user: 10n })?.map(task => task.id)).toEqual(['1']);
    // The same list as the decimal text, as the URL and the Collection pk write it.
    expect(cache.selectQuery(store.getState(), tasks, { user: '10' })?.map(task => task.id)).toEqual(['1']);
    expect(cache.selectResponse(store.getState(), rest, { id: 7n, page: 2n } as never).expiryStatus).toBe('invalid');
    expect(rest.url({ id: 7n, page: 2n } as never)).toBe('http://api.test/users/7/tasks?page=2');
    expect(rest.key({ id: 7n, page: 2n } as never)).toBe(rest.key({ id: '7', page: '2' } as never));
    expect(update.key({ id: 1n }, { amount: 5n } as never)).toBe(update.key({ id: '1' }, { amount: '5' } as never));
    expect(() => cache.selectQuery(store.getState(), tasks, { user: 10n, nested: { big: [1n] } })).not.toThrow();
  });

  test('NaN and Infinity in args are keyed as their text, apart from null', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(tasks, { page: NaN }, [{ id: '1', title: 'nan' }]));
    store.dispatch(cache.set(tasks, { page: null }, [{ id: '2', title: 'null' }]));
    store.dispatch(cache.set(tasks, { page: Infinity }, [{ id: '3', title: 'inf' }]));
    const ids = (page: unknown) => cache.selectQuery(store.getState(), tasks, { page })?.map(task => task.id);
    expect(ids(NaN)).toEqual(['1']);
    expect(ids(null)).toEqual(['2']);
    expect(ids(Infinity)).toEqual(['3']);
    expect(ids(NaN)).toEqual(['1']);
  });

  test('a mutation sends them as the key holds them', async () => {
    const server = await startServer();
    try {
      server.on('PUT /tasks/:id', request => ({ json: { id: '1', title: JSON.stringify(request.body) } }));
      const put = new RestEndpoint({ urlPrefix: server.origin, path: '/tasks/:id', method: 'PUT', schema: Task });
      const { cache, store } = makeStore();
      const task = await store.dispatch(cache.fetch(put, { id: 1n }, { amount: 5n } as never));
      expect(task).toMatchObject({ id: '1', title: '{"amount":"5"}' });
      expect(server.requests.map(request => request.url)).toEqual(['/tasks/1']);
    } finally {
      await server.close();
    }
  });
});

describe.each([
  ['circular args', cyclic, ErrorCode.UNEXPECTED_INPUT],
  ['20,000-deep args', () => deep(20_000), ErrorCode.MAX_DEPTH_EXCEEDED],
  // Args a key cannot tell apart: JSON writes each as `{}` or drops it.
  ['a Set in args', () => new Set(['a']), ErrorCode.UNEXPECTED_INPUT],
  ['a Map in args', () => new Map([['a', 1]]), ErrorCode.UNEXPECTED_INPUT],
  ['a function in args', () => (task: unknown) => task, ErrorCode.UNEXPECTED_INPUT],
  ['an instance without fields in args', () => new (class Hidden {})(), ErrorCode.UNEXPECTED_INPUT],
])('%s', (_, make, code) => {
  test('a read throws a coded error, not a stack overflow', () => {
    const { cache, store } = makeStore();
    expect(catchError(() => cache.selectQuery(store.getState(), tasks, make())).code).toBe(code);
    expect(catchError(() => cache.selectQuery(store.getState(), Task, '1', make())).code).toBe(code);
    expect(
      catchError(() => cache.selectResponse(store.getState(), rest, { id: '1', filter: make() } as never)).code,
    ).toBe(code);
  });

  test('a write is refused with the store unchanged', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(tasks, { group: 'a' }, [{ id: '1', title: 't' }]));
    expectRejected(store, () => store.dispatch(cache.set(tasks, make(), [{ id: '2', title: 'u' }])), code);
    expectRejected(store, () => store.dispatch(cache.set(Task, make(), { id: '2', title: 'u' })), code);
  });

  test('url(), key() and fetch() refuse it in the query string and the body', () => {
    const { cache, store } = makeStore();
    expect(catchError(() => rest.url({ id: '1', filter: make() } as never)).code).toBe(code);
    expect(catchError(() => update.key({ id: '1' }, make() as never)).code).toBe(code);
    expectRejected(store, () => store.dispatch(cache.fetch(rest, { id: '1', filter: make() } as never)), code);
  });
});

test('args a key cannot tell apart are refused by cache.fetch before anything is sent, whatever key() makes of them', () => {
  const { cache, store } = makeStore();
  let sent = 0;
  const own = { key: () => 'tasks', schema: tasks, fetch: () => (sent++, Promise.resolve([])) };
  for (const args of [[new Set(['a'])], [{ user: 'u1', where: () => true }], [{ tags: [new Map()] }]])
    expectRejected(store, () => store.dispatch(cache.fetch(own, ...(args as []))), ErrorCode.UNEXPECTED_INPUT);
  expect(sent).toBe(0);
});

describe('a schema callback that throws something other than an Error', () => {
  class Fragile extends Entity {
    id = '';
    static override key = 'Fragile';
    static thrown: unknown = undefined;
    static override process(): object {
      throw this.thrown;
    }
  }
  const getFragile = { key: (id: string) => `fragile ${id}`, schema: Fragile, fetch: async (id: string) => ({ id }) };

  test.each([
    ['undefined', undefined],
    ['null', null],
    ['a string', 'boom'],
  ])('throwing %s: the fetch rejects with a coded error, which is the one stored', async (_, thrown) => {
    Fragile.thrown = thrown;
    const { cache, store } = makeStore();
    const entities = slice(store.getState()).entities;
    const error = await store.dispatch(cache.fetch(getFragile, '1')).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(LensCacheError);
    expect((error as LensCacheError).code).toBe(ErrorCode.NON_ERROR_THROWN);
    expect((error as Error & { cause?: unknown }).cause).toBe(thrown);
    expect(slice(store.getState()).entities).toBe(entities);
    expect(slice(store.getState()).endpoints).toEqual({});
    const response = cache.selectResponse(store.getState(), getFragile, '1');
    expect(response.error).toBe(error);
    expect(response.data).toBeUndefined();
  });

  test('throwing undefined from a set: a coded error, the store unchanged', () => {
    Fragile.thrown = undefined;
    const { cache, store } = makeStore();
    const before = snapshot(store.getState());
    const error = expectRejected(
      store,
      () => store.dispatch(cache.set(Fragile, { id: '1' })),
      ErrorCode.NON_ERROR_THROWN,
    );
    expect(error.message).toContain('threw undefined');
    expect(snapshot(store.getState())).toEqual(before);
  });

  test('an Error thrown by a callback is passed on as it is', () => {
    const thrown = new Error('process failed');
    Fragile.thrown = thrown;
    const { cache, store } = makeStore();
    let caught: unknown;
    try {
      store.dispatch(cache.set(Fragile, { id: '1' }));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBe(thrown);
  });
});
