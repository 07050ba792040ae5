/**
 * Garbage collection while other work is under way (docs/gc.md): sweeps go on while optimistic
 * guesses are pending and leave them in place; a sweep never removes a row an answer still in
 * flight could bring back stale; a held key with nothing stored yet keeps what its read finds;
 * releases in a burst cost one sweep.
 */
import { Collection, Invalidate, Scalar, Union, type CacheState } from '../../src/index';
import { ANY_TABLE, writableTables } from '../../src/store/features/gc/writable';
import { Comment, Post, User } from '../fixtures/schemas';
import { makeRecordingStore } from '../fixtures/recording';
import { runtimeOf, collectorOf } from '../fixtures/runtime';

const GC = 60_000;

beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
afterEach(() => jest.useRealTimers());

function setup(options = {}) {
  const { cache, store, actions } = makeRecordingStore({ gcTime: GC, ...options });
  const slice = () => store.getState().cache as CacheState;
  const sweeps = () => actions.filter(action => action.type === 'cache/gc').length;
  return { cache, store, slice, actions, sweeps };
}

const post = (id: string, title = `post ${id}`, author = `u${id}`) => ({
  id,
  title,
  author: { id: author, name: `user ${author}` },
  comments: [],
});
const getPost = { key: (id: string) => `GET /posts/${id}`, schema: Post };

/** A request that answers when told: `answer` or `fail` it once it has been sent. */
function deferred() {
  const sent: Array<{ resolve: (value: unknown) => void; reject: (error: Error) => void }> = [];
  const fetch = () => new Promise<unknown>((resolve, reject) => sent.push({ resolve, reject }));
  const next = async () => {
    for (let i = 0; i < 100 && sent.length === 0; i++) await Promise.resolve();
    return sent.shift()!;
  };
  return { fetch, next };
}

/** A PATCH whose request hangs until told, with an optimistic guess. */
function guessedEdit(guess: (id: string) => object) {
  const request = deferred();
  const endpoint = {
    key: (id: string) => `PATCH /posts/${id}`,
    schema: Post,
    sideEffect: true as const,
    fetch: request.fetch,
    getOptimisticResponse: (_snap: unknown, id: string) => guess(id),
  };
  return { endpoint, next: request.next };
}

test('a pending guess does not stop sweeps; the guess stays shown, and its rollback brings back no swept row', async () => {
  const { cache, store, slice } = setup();
  store.dispatch(cache.setResponse(getPost, '1', post('1')));
  store.dispatch(cache.setResponse(getPost, '2', post('2')));
  const release = cache.retain(store, getPost, '1');
  const edit = guessedEdit(id => ({ id, title: 'guess' }));
  const editing = store.dispatch(cache.fetch(edit.endpoint, '1'));
  editing.catch(() => undefined);
  const request = await edit.next();

  // The request hangs; the timer sweeps what nothing uses, unrelated to the guess.
  jest.advanceTimersByTime(GC);
  expect(Object.keys(slice().endpoints)).toEqual(['GET /posts/1']);
  expect(Object.keys(slice().entities.Post!)).toEqual(['1']);
  expect(Object.keys(slice().entities.User!)).toEqual(['u1']);
  expect(cache.selectResponse(store.getState(), getPost, '1').data).toMatchObject({ title: 'guess' });
  expect(cache.gc(store)).toEqual({ requests: 0, rows: 0 });

  request.reject(new Error('refused'));
  await expect(editing).rejects.toThrow('refused');
  // The confirmed post comes back; what the sweep took does not.
  expect(cache.selectResponse(store.getState(), getPost, '1').data).toMatchObject({ title: 'post 1' });
  expect(Object.keys(slice().entities.Post!)).toEqual(['1']);
  expect(Object.keys(slice().entities.User!)).toEqual(['u1']);
  expect(slice().endpoints['GET /posts/2']).toBeUndefined();
  release();
});

test('the confirmed rows under a pending guess stay until it settles, and go at the next sweep after', async () => {
  const { cache, store, slice } = setup();
  store.dispatch(cache.setResponse(getPost, '1', post('1')));
  const edit = guessedEdit(id => ({ id, title: 'guess' }));
  const editing = store.dispatch(cache.fetch(edit.endpoint, '1'));
  editing.catch(() => undefined);
  const request = await edit.next();
  // Nothing holds GET /posts/1: its response goes, but the post stays under the guess.
  jest.advanceTimersByTime(GC);
  expect(slice().endpoints['GET /posts/1']).toBeUndefined();
  // (Its author goes: no kept read reaches it.)
  expect(slice().entities.Post!['1']).toMatchObject({ title: 'guess', author: 'u1' });
  request.reject(new Error('refused'));
  await expect(editing).rejects.toThrow('refused');
  expect(slice().entities.Post!['1']).toMatchObject({ title: 'post 1', author: 'u1' });
  expect(cache.gc(store).rows).toBeGreaterThan(0);
  expect(slice().entities.Post?.['1']).toBeUndefined();
});

test('a row a mounted read reaches only through a pending guess stays while the guess is shown', async () => {
  const { cache, store, slice } = setup();
  store.dispatch(cache.setResponse(getPost, '1', post('1', 'post 1', 'ann')));
  store.dispatch(cache.setResponse({ key: () => 'GET /users/bob', schema: User }, { id: 'bob', name: 'Bob' }));
  const release = cache.retain(store, getPost, '1');
  const edit = guessedEdit(id => ({ id, author: 'bob' }));
  const editing = store.dispatch(cache.fetch(edit.endpoint, '1'));
  editing.catch(() => undefined);
  const request = await edit.next();
  expect(cache.selectResponse(store.getState(), getPost, '1').data?.author.name).toBe('Bob');
  jest.advanceTimersByTime(GC);
  expect(slice().endpoints['GET /users/bob']).toBeUndefined();
  expect(cache.selectResponse(store.getState(), getPost, '1').data?.author.name).toBe('Bob');
  request.reject(new Error('refused'));
  await expect(editing).rejects.toThrow('refused');
  expect(cache.selectResponse(store.getState(), getPost, '1').data?.author.name).toBe('user ann');
  cache.gc(store);
  expect(Object.keys(slice().entities.User!)).toEqual(['ann']);
  release();
});

test('a sweep keeps a row written after a request in flight started: its older answer cannot bring the row back stale', async () => {
  const { cache, store, slice } = setup({ gcTime: 0 });
  const list = deferred();
  const getPosts = { key: () => 'GET /posts', schema: [Post], fetch: list.fetch };
  const listing = store.dispatch(cache.fetch(getPosts));
  const sent = await list.next();
  // The server applies the edit after serving the list; the edit's answer (v2) is written later
  // than the list started, whether stamped at its start or at its arrival.
  jest.advanceTimersByTime(1);
  store.dispatch(cache.setResponse({ key: () => 'PATCH /posts/1', schema: Post }, post('1', 'v2')));
  jest.advanceTimersByTime(5_000);
  cache.gc(store);
  expect(slice().entities.Post!['1']).toMatchObject({ title: 'v2' });
  // The list answers what it served before the edit: the newer row wins.
  sent.resolve([post('1', 'v1'), post('3')]);
  await listing;
  expect(cache.selectQuery(store.getState(), Post, '1')).toMatchObject({ title: 'v2' });
  // Once nothing older is in flight, the row goes like any other.
  jest.advanceTimersByTime(5_000);
  cache.gc(store);
  expect(Object.keys(slice().entities.Post!)).toEqual([]);
});

test('a hung mutation holds only the rows written after it started: older rows go, and its own once it ends', async () => {
  const { cache, store, slice } = setup({ gcTime: 0 });
  const hung = deferred();
  const patch = {
    key: (id: string) => `PATCH /posts/${id}`,
    schema: Post,
    sideEffect: true as const,
    fetch: hung.fetch,
  };
  store.dispatch(cache.setResponse(getPost, '1', post('1')));
  const saving = store.dispatch(cache.fetch(patch, '1'));
  await hung.next();
  jest.advanceTimersByTime(1);
  store.dispatch(cache.setResponse(getPost, '2', post('2')));
  jest.advanceTimersByTime(5_000);
  cache.gc(store);
  expect(Object.keys(slice().entities.Post!)).toEqual(['2']);
  saving.abort();
  await saving.catch(() => undefined);
  cache.gc(store);
  expect(slice().entities.Post).toEqual({});
});

test("a sweep keeps a row deleted after a mutation in flight started: that mutation's answer cannot bring the row back", async () => {
  const { cache, store, slice } = setup({ gcTime: 0 });
  store.dispatch(cache.setResponse(getPost, '2', post('2')));
  const rename = deferred();
  const patch = {
    key: (id: string) => `PATCH /posts/${id}`,
    schema: Post,
    sideEffect: true as const,
    fetch: rename.fetch,
  };
  const saving = store.dispatch(cache.fetch(patch, '2'));
  const sent = await rename.next();
  // The server renames post 2, then deletes it; the deletion's answer lands first.
  jest.advanceTimersByTime(1);
  const remove = {
    key: (id: string) => `DELETE /posts/${id}`,
    schema: new Invalidate(Post),
    sideEffect: true as const,
    fetch: (id: string) => Promise.resolve({ id }),
  };
  await store.dispatch(cache.fetch(remove, '2'));
  expect(slice().entities.Post!['2']).toBeNull();
  jest.advanceTimersByTime(5_000);
  cache.gc(store);
  // The deletion stays while the rename is in flight...
  expect(slice().entities.Post!['2']).toBeNull();
  sent.resolve(post('2', 'renamed'));
  await saving;
  // ...so the rename's answer, which the server applied before the deletion, does not bring it back.
  expect(slice().entities.Post!['2']).toBeNull();
  expect(cache.selectQuery(store.getState(), Post, '2')).toBeUndefined();
});

test('the same holds for collection lists: a list set after an older request started stays through sweeps', async () => {
  const posts = new Collection([Post], { argsKey: () => ({}) });
  const { cache, store, slice } = setup({ gcTime: 0 });
  const list = deferred();
  const getPosts = { key: () => 'GET /posts', schema: posts, fetch: list.fetch };
  const listing = store.dispatch(cache.fetch(getPosts));
  const sent = await list.next();
  jest.advanceTimersByTime(1);
  store.dispatch(cache.set(posts, {}, [post('1'), post('2')]));
  jest.advanceTimersByTime(5_000);
  cache.gc(store);
  expect(slice().entities['[Post]']!['{}']).toEqual(['1', '2']);
  sent.resolve([post('1')]);
  await listing;
  expect(cache.selectQuery(store.getState(), posts, {})?.map(p => p.id)).toEqual(['1', '2']);
});

test('a key held with nothing stored yet (its first request in flight) keeps the rows its read finds in the store', async () => {
  const { cache, store, slice } = setup();
  store.dispatch(cache.setResponse({ key: () => 'GET /posts', schema: [Post] }, [post('1'), post('2')]));
  const detail = deferred();
  const getDetail = { ...getPost, fetch: detail.fetch };
  // What a mounted useSuspense(getDetail, '1') does: it holds its key, shows post 1 found by its
  // id, and its request is in flight.
  const release = cache.retain(store, getDetail, '1');
  const fetching = store.dispatch(cache.fetch(getDetail, '1'));
  const sent = await detail.next();
  expect(cache.selectResponse(store.getState(), getDetail, '1').data).toMatchObject({ title: 'post 1' });
  jest.advanceTimersByTime(GC);
  expect(Object.keys(slice().endpoints)).toEqual([]);
  expect(Object.keys(slice().entities.Post!)).toEqual(['1']);
  expect(cache.selectResponse(store.getState(), getDetail, '1').data).toMatchObject({ title: 'post 1' });
  sent.resolve(post('1', 'fresh'));
  await fetching;
  expect(cache.selectResponse(store.getState(), getDetail, '1').data).toMatchObject({ title: 'fresh' });
  release();
});

test('releases in a burst cost one sweep, and timer sweeps are at least a second apart whatever gcTime', () => {
  const { cache, store, slice } = setup({ gcTime: 0 });
  const sweep = jest.spyOn(collectorOf(runtimeOf(cache, store)), 'sweep');
  for (let i = 0; i < 100; i++) store.dispatch(cache.setResponse(getPost, String(i), post(String(i))));
  const releases = Array.from({ length: 100 }, (_, i) => cache.retain(store, getPost, String(i)));
  jest.advanceTimersByTime(10_000);
  sweep.mockClear();
  // A hundred unmounts, one per frame.
  for (const release of releases) {
    release();
    jest.advanceTimersByTime(5);
  }
  jest.advanceTimersByTime(1_000);
  expect(sweep).toHaveBeenCalledTimes(1);
  expect(Object.keys(slice().endpoints)).toEqual([]);

  // Releases going on for ten seconds: at most one timer sweep a second.
  sweep.mockClear();
  for (let i = 0; i < 200; i++) {
    store.dispatch(cache.setResponse(getPost, `n${i}`, post(`n${i}`)));
    cache.retain(store, getPost, `n${i}`)();
    jest.advanceTimersByTime(50);
  }
  jest.advanceTimersByTime(2_000);
  expect(sweep.mock.calls.length).toBeLessThanOrEqual(12);
  expect(Object.keys(slice().endpoints)).toEqual([]);
  // A sweep asked for runs at once, whatever the timer.
  store.dispatch(cache.setResponse(getPost, 'x', post('x')));
  cache.retain(store, getPost, 'x')();
  expect(cache.gc(store).requests).toBe(1);
});

test('a read that never answers holds only the rows it could still write: released responses and rows of other tables go', async () => {
  const { cache, store, slice } = setup({ gcTime: 0 });
  const hung = deferred();
  const getUsers = { key: () => 'GET /users', schema: [User], fetch: hung.fetch };
  const waiting = store.dispatch(cache.fetch(getUsers));
  await hung.next();
  for (let i = 1; i <= 30; i++) {
    jest.advanceTimersByTime(10);
    const fetchPost = { ...getPost, fetch: () => Promise.resolve(post(String(i))) };
    await store.dispatch(cache.fetch(fetchPost, String(i)));
    cache.retain(store, getPost, String(i))();
  }
  jest.advanceTimersByTime(5_000);
  cache.gc(store);
  expect(slice().endpoints).toEqual({});
  expect(slice().entities.Post).toEqual({});
  // The users' rows stay: the hung list's older answer could write them back stale.
  expect(Object.keys(slice().entities.User!)).toHaveLength(30);
  waiting.abort();
  await waiting.catch(() => undefined);
  jest.advanceTimersByTime(5_000);
  cache.gc(store);
  expect(slice().entities.User).toEqual({});
});

test('what a read in flight can write is found from its schema; a construct the sweep cannot see into holds every table', () => {
  const Tagged = new Scalar({ key: 'price', lens: (args: readonly unknown[]) => String(args[0]), entity: Post });
  const tables = (schema: unknown) => [...writableTables(schema)].sort();
  expect(tables([Post])).toEqual(['Comment', 'Post', 'User']);
  expect(tables({ results: new Collection([User]), next: '' })).toEqual(['User', '[User]']);
  expect(tables(new Union({ users: User, comments: Comment }, 'type'))).toEqual(['Comment', 'User']);
  expect(tables(new Invalidate(User))).toEqual(['User']);
  expect(tables(Tagged)).toEqual(['Comment', 'Post', 'Scalar(price)', 'User']);
  expect(tables(undefined)).toEqual([]);
  expect(writableTables({ custom: new (class Custom {})() })).toBe(ANY_TABLE);
});
