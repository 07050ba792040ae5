/**
 * outbox (docs/outbox.md) against the real local server: edits made offline wait with their
 * guesses shown and are stored at once; a reload (a new store and cache reading the same storage)
 * shows them again and, back online, sends them in order, each once; a refusal takes its guess
 * out and is reported on the row; a network failure keeps the entry; stored entries that are
 * malformed or hostile are UNEXPECTED_INPUT told to `onError`, and the store is unchanged; the
 * outbox is bounded.
 */
import { configureStore } from '@reduxjs/toolkit';
import {
  createLeanCache,
  Entity,
  ErrorCode,
  garbageCollection,
  optimisticUpdates,
  outbox,
  RestEndpoint,
  selectRowStatus,
  type CacheState,
  type OutboxOptions,
} from '../../src/index';
import { startServer, type TestServer } from '../fixtures/server';

class Post extends Entity {
  id = '';
  title = '';
  static override key = 'Post';
}

let server: TestServer;
const db = new Map<string, { id: string; title: string }>();
/** The edits the server applied, in order. */
const applied: string[] = [];
beforeAll(async () => {
  server = await startServer();
  server.on('GET /posts/:id', (_request, url) => {
    const post = db.get(url.pathname.split('/').pop()!);
    return post ? { json: { ...post } } : { status: 404, json: { message: 'Not found.' } };
  });
  server.on('PATCH /posts/:id', (request, url) => {
    const post = db.get(url.pathname.split('/').pop()!);
    const { title } = request.body as { title: string };
    if (!post || title === '') return { status: 400, json: { message: 'A title is required.' } };
    post.title = title;
    applied.push(`${post.id}:${title}`);
    return { json: { ...post } };
  });
});
afterAll(() => server.close());
beforeEach(() => {
  db.clear();
  applied.length = 0;
  for (const id of ['1', '2']) db.set(id, { id, title: `t${id}` });
});

const getPost = () => new RestEndpoint({ urlPrefix: server.origin, path: '/posts/:id', schema: Post });
const editPost = () =>
  new RestEndpoint({
    urlPrefix: server.origin,
    path: '/posts/:id',
    method: 'PATCH',
    body: {} as { title: string },
    schema: Post,
    getOptimisticResponse: (_snap, params: { id: string }, body: { title: string }) => ({ ...params, ...body }),
  });

/** A storage as localStorage is: one string per key. */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    stored: () => JSON.parse(items.get('lenscache:outbox:cache') ?? '[]') as unknown[],
  };
}

/** The network as the outbox sees it: offline until `online()`, which tells it. */
function network(online = false) {
  const resumes = new Set<() => void>();
  return {
    isOnline: () => online,
    onOnline: (resume: () => void) => (resumes.add(resume), () => void resumes.delete(resume)),
    online() {
      online = true;
      for (const resume of resumes) resume();
    },
    offline() {
      online = false;
    },
  };
}

/** One visit of the page: a store and cache with the outbox, reading `storage`. */
function visit(
  storage: ReturnType<typeof memoryStorage>,
  net: ReturnType<typeof network>,
  extra: Partial<OutboxOptions> = {},
) {
  const errors: unknown[] = [];
  const endpoints = { getPost: getPost(), editPost: editPost() };
  const box = outbox({
    endpoints: { editPost: endpoints.editPost },
    storage,
    isOnline: net.isOnline,
    onOnline: net.onOnline,
    onError: error => errors.push(error),
    ...extra,
  });
  const cache = createLeanCache({ features: [garbageCollection, optimisticUpdates, box] });
  const store = configureStore({
    reducer: { [cache.reducerPath]: cache.reducer },
    middleware: getDefault => getDefault().concat(cache.middleware),
  });
  const slice = () => (store.getState() as Record<string, CacheState>)[cache.reducerPath]!;
  const title = (id: string) => (slice().entities.Post?.[id] as { title?: string } | null | undefined)?.title;
  const edit = (id: string, title: string) => {
    const promise = store.dispatch(cache.fetch(endpoints.editPost, { id }, { title }));
    promise.catch(() => undefined);
    return promise;
  };
  return { box, cache, store, slice, title, edit, errors, endpoints };
}

/** Lets the restore (a microtask) and the requests to the local server run. */
const settle = async (until: () => boolean) => {
  for (let i = 0; i < 200 && !until(); i++) await new Promise(resolve => setTimeout(resolve, 5));
};

test('offline edits wait with their guesses shown and are stored at once; online, they are sent in order', async () => {
  const storage = memoryStorage();
  const net = network(false);
  const page = visit(storage, net);
  await page.store.dispatch(page.cache.fetch(page.endpoints.getPost, { id: '1' }));
  const first = page.edit('1', 'first');
  page.edit('1', 'second');
  expect(page.title('1')).toBe('second');
  expect(selectRowStatus(page.cache, page.store.getState(), Post, '1').saving).toBe(true);
  expect(storage.stored()).toEqual([
    { endpoint: 'editPost', args: [{ id: '1' }, { title: 'first' }] },
    { endpoint: 'editPost', args: [{ id: '1' }, { title: 'second' }] },
  ]);
  expect(page.box.waiting(page.store)).toBe(2);
  await new Promise(resolve => setTimeout(resolve, 20));
  expect(server.count('PATCH /posts/1')).toBe(0);
  net.online();
  // (Read back over the second guess, still pending.)
  await expect(first).resolves.toMatchObject({ id: '1' });
  await settle(() => page.box.waiting(page.store) === 0 && applied.length === 2);
  expect(applied).toEqual(['1:first', '1:second']);
  expect(page.title('1')).toBe('second');
  expect(storage.stored()).toEqual([]);
  // Sent one after the other, the answers do not overlap: the row is not left unsure.
  expect(page.slice().entitiesMeta.Post?.['1']?.ambiguous).toBeUndefined();
  expect(selectRowStatus(page.cache, page.store.getState(), Post, '1')).toEqual({ saving: false, error: undefined });
});

test('a reload reads the outbox back: the guesses are shown again and sent in order once online', async () => {
  const storage = memoryStorage();
  const net = network(false);
  const patches = server.count('PATCH /posts/1') + server.count('PATCH /posts/2');
  const before = visit(storage, net);
  before.edit('1', 'first');
  before.edit('2', 'second');
  before.edit('1', 'third');
  // The page goes; the next visit reads the same storage, still offline.
  const after = visit(storage, network(false));
  await settle(() => after.title('1') !== undefined);
  expect([after.title('1'), after.title('2')]).toEqual(['third', 'second']);
  expect(after.box.waiting(after.store)).toBe(3);
  expect(server.count('PATCH /posts/1') + server.count('PATCH /posts/2')).toBe(patches);
  const net2 = network(false);
  const again = visit(storage, net2);
  await settle(() => again.box.waiting(again.store) === 3);
  net2.online();
  await settle(() => applied.length === 3 && again.box.waiting(again.store) === 0);
  expect(applied).toEqual(['1:first', '2:second', '1:third']);
  expect([again.title('1'), again.title('2')]).toEqual(['third', 'second']);
  expect(storage.stored()).toEqual([]);
  expect(again.errors).toEqual([]);
});

test('a refusal takes its guess out, is reported on the row and to onError; the next entry is still sent', async () => {
  const storage = memoryStorage();
  const net = network(false);
  const page = visit(storage, net);
  await page.store.dispatch(page.cache.fetch(page.endpoints.getPost, { id: '1' }));
  const refused = page.edit('1', '');
  page.edit('2', 'fine');
  expect(page.title('1')).toBe('');
  net.online();
  const error = (await refused.then(
    () => undefined,
    (caught: unknown) => caught,
  )) as { status?: number };
  expect(error.status).toBe(400);
  await settle(() => page.box.waiting(page.store) === 0 && applied.length === 1);
  expect(page.title('1')).toBe('t1');
  expect(selectRowStatus(page.cache, page.store.getState(), Post, '1').error).toBe(error);
  expect(page.errors).toEqual([error]);
  expect(applied).toEqual(['2:fine']);
  expect(storage.stored()).toEqual([]);
});

test('a network failure keeps the entry and its guess; it is sent on the next online event', async () => {
  const storage = memoryStorage();
  const net = network(true);
  // The server is out of reach (the browser still says online).
  const unreachable = editPost();
  Object.assign(unreachable, { urlPrefix: 'http://127.0.0.1:9' });
  const errors: unknown[] = [];
  const box = outbox({
    endpoints: { editPost: unreachable },
    storage,
    isOnline: net.isOnline,
    onOnline: net.onOnline,
    onError: error => errors.push(error),
  });
  const cache = createLeanCache({ features: [optimisticUpdates, box] });
  const store = configureStore({
    reducer: { [cache.reducerPath]: cache.reducer },
    middleware: getDefault => getDefault().concat(cache.middleware),
  });
  await Promise.resolve();
  const promise = store.dispatch(cache.fetch(unreachable, { id: '1' }, { title: 'later' }));
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await settle(() => false);
  expect(settled).toBe(false);
  expect(box.waiting(store)).toBe(1);
  expect(storage.stored()).toHaveLength(1);
  expect((store.getState() as Record<string, CacheState>)[cache.reducerPath]!.entities.Post?.['1']).toMatchObject({
    title: 'later',
  });
  // The server is back: the next online event sends it.
  Object.assign(unreachable, { urlPrefix: server.origin });
  net.online();
  await expect(promise).resolves.toMatchObject({ title: 'later' });
  expect(applied).toEqual(['1:later']);
  expect(errors).toEqual([]);
});

test('stored entries that are malformed or hostile are refused, each to onError, and the store is unchanged', async () => {
  const storage = memoryStorage();
  const hostile = [
    '{"endpoint":"editPost","args":[{"id":"1","__proto__":{"polluted":true}},{"title":"x"}]}',
    '{"endpoint":"__proto__","args":[]}',
    '{"endpoint":"deletePost","args":[{"id":"1"}]}',
    '{"endpoint":"editPost","args":{"0":{"id":"1"}}}',
    '{"endpoint":"editPost","args":[{"id":"1"},{"title":1e999}]}',
    '"just a string"',
    'null',
  ];
  storage.items.set('lenscache:outbox:cache', `[${hostile.join(',')}]`);
  const page = visit(storage, network(false));
  const state = page.store.getState();
  await settle(() => page.errors.length >= hostile.length);
  expect(page.errors.map(error => (error as { code?: string }).code)).toEqual(
    hostile.map(() => ErrorCode.UNEXPECTED_INPUT),
  );
  expect(page.store.getState()).toBe(state);
  expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  expect(page.box.waiting(page.store)).toBe(0);
  // What could not be restored is not kept either.
  expect(storage.stored()).toEqual([]);

  for (const text of ['not json', '{"entries":[]}', '42']) {
    const next = memoryStorage();
    next.items.set('lenscache:outbox:cache', text);
    const other = visit(next, network(false));
    const before = other.store.getState();
    await settle(() => other.errors.length > 0);
    expect(other.errors.map(error => (error as { code?: string }).code)).toEqual([ErrorCode.UNEXPECTED_INPUT]);
    expect(other.store.getState()).toBe(before);
  }
});

test('a good entry among refused ones is restored and sent', async () => {
  const storage = memoryStorage();
  storage.items.set(
    'lenscache:outbox:cache',
    '[{"endpoint":"nope","args":[]},{"endpoint":"editPost","args":[{"id":"2"},{"title":"kept"}]}]',
  );
  const net = network(false);
  const page = visit(storage, net);
  await settle(() => page.title('2') === 'kept');
  expect(page.errors).toHaveLength(1);
  expect(storage.stored()).toEqual([{ endpoint: 'editPost', args: [{ id: '2' }, { title: 'kept' }] }]);
  net.online();
  await settle(() => applied.length === 1 && page.box.waiting(page.store) === 0);
  expect(applied).toEqual(['2:kept']);
});

test('a restored entry whose guess cannot be computed now is kept, and sent without its guess', async () => {
  const storage = memoryStorage();
  storage.items.set(
    'lenscache:outbox:cache',
    JSON.stringify([
      { endpoint: 'editPost', args: [{ id: '1' }, { title: 'unguessable' }] },
      { endpoint: 'editPost', args: [{ id: '1' }, { title: 'after it' }] },
    ]),
  );
  const net = network(false);
  const page = visit(storage, net);
  // (A guess that throws over what the store holds after a reload.)
  Object.assign(page.endpoints.editPost, {
    getOptimisticResponse: (_snap: unknown, params: { id: string }, body: { title: string }) => {
      if (body.title === 'unguessable') throw new TypeError('no guess over an empty store');
      return { ...params, ...body };
    },
  });
  await settle(() => page.title('1') === 'after it');
  expect(page.errors.map(String)).toEqual(['TypeError: no guess over an empty store']);
  expect(page.box.waiting(page.store)).toBe(2);
  expect(storage.stored()).toHaveLength(2);
  net.online();
  await settle(() => applied.length === 2 && page.box.waiting(page.store) === 0);
  expect(applied).toEqual(['1:unguessable', '1:after it']);
  expect(page.title('1')).toBe('after it');
});

test('the outbox is bounded: past its cap, a mutation is refused with OUTBOX_FULL and its guess taken out', async () => {
  const storage = memoryStorage();
  const page = visit(storage, network(false), { cap: 2 });
  await Promise.resolve();
  page.edit('1', 'a');
  page.edit('1', 'b');
  const third = page.edit('1', 'c');
  await expect(third).rejects.toMatchObject({ code: ErrorCode.OUTBOX_FULL });
  expect(page.title('1')).toBe('b');
  expect(storage.stored()).toHaveLength(2);
});

test('an aborted entry leaves the outbox; a reset empties it', async () => {
  const storage = memoryStorage();
  const page = visit(storage, network(false));
  await Promise.resolve();
  const first = page.edit('1', 'a');
  const second = page.edit('2', 'b');
  first.abort();
  await expect(first).rejects.toMatchObject({ name: 'AbortError' });
  expect(storage.stored()).toEqual([{ endpoint: 'editPost', args: [{ id: '2' }, { title: 'b' }] }]);
  expect(page.title('1')).toBeUndefined();
  page.store.dispatch(page.cache.resetEntireStore());
  // The dropped request's promise ends (it does not hang).
  await expect(second).rejects.toMatchObject({ name: 'AbortError' });
  expect(storage.stored()).toEqual([]);
  expect(page.box.waiting(page.store)).toBe(0);
});

test('outbox() refuses options it cannot use', () => {
  expect(() => outbox(undefined as never)).toThrow(expect.objectContaining({ code: ErrorCode.INVALID_OPTION }));
  expect(() => outbox({ endpoints: {}, storage: {} as never })).toThrow(/storage/);
  expect(() => outbox({ endpoints: {}, cap: 0 })).toThrow(/cap/);
});
