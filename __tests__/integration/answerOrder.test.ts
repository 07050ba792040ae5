/**
 * Mutation answers in any order, against the real local server (docs/mutations.md, "Answers in any
 * order"): the server applies each request when it arrives and holds its answer, so the test
 * answers in another order than the server applied them. Overlapping answers that disagree on a
 * row leave it shown but stale, and the next ordinary read fetches it again; an entity that
 * orders its own versions decides by them; answers that did not overlap are never made stale.
 */
import { Entity, RestEndpoint, Invalidate, type CacheState } from '../../src/index';
import { gate, startServer, type TestServer } from '../fixtures/server';
import { makeStore } from '../fixtures/store';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

class Post extends Entity {
  id = '';
  title = '';
  author = '';
  version = 0;
  static override key = 'Post';
}

/** The same post, ordered by the version the server gives each change. */
class VersionedPost extends Post {
  static override key = 'VersionedPost';
  static override shouldReorder(_a: unknown, _b: unknown, existing: unknown, incoming: unknown): boolean {
    return (incoming as { version: number }).version < (existing as { version: number }).version;
  }
}

function api(schema: typeof Post) {
  const base = `/p${Math.random().toString(36).slice(2, 8)}`;
  const db = new Map([['1', { id: '1', title: 'first', author: 'ann', version: 1 }]]);
  const held: Array<() => void> = [];
  const arrivals: Array<() => void> = [];
  const hold = () => {
    const g = gate();
    held.push(g.open);
    arrivals.shift()?.();
    return g.promise;
  };
  server.on(`GET ${base}/posts/:id`, (_request, url) => {
    const post = db.get(url.pathname.split('/').pop()!);
    return post ? { json: { ...post } } : { status: 404, json: { message: 'gone' } };
  });
  // Applied as it arrives; the answer waits until the test releases it.
  server.on(`PATCH ${base}/posts/:id`, (request, url) => {
    const post = db.get(url.pathname.split('/').pop()!)!;
    Object.assign(post, request.body as object, { version: post.version + 1 });
    return { json: { ...post }, hold: hold() };
  });
  server.on(`DELETE ${base}/posts/:id`, (_request, url) => {
    const id = url.pathname.split('/').pop()!;
    db.delete(id);
    return { json: { id }, hold: hold() };
  });
  const urlPrefix = server.origin + base;
  const getPost = new RestEndpoint({ urlPrefix, path: '/posts/:id', schema });
  const editPost = new RestEndpoint({
    urlPrefix,
    path: '/posts/:id',
    method: 'PATCH',
    body: {} as Partial<Post>,
    schema,
    getOptimisticResponse: (snap, params: { id: string }, body: Partial<Post>) => {
      const current = snap.get(schema, params);
      return current && { ...current, ...body };
    },
  });
  const deletePost = new RestEndpoint({
    urlPrefix,
    path: '/posts/:id',
    method: 'DELETE',
    schema: new Invalidate(schema),
  });
  const { cache, store } = makeStore();
  /** Starts a mutation and waits until the server applied it (its answer is then held); boxed, as awaiting would wait for the answer. */
  const start = async (run: () => Promise<unknown>) => {
    const arrived = new Promise<void>(resolve => arrivals.push(resolve));
    const settled = run();
    settled.catch(() => undefined);
    await arrived;
    return { settled };
  };
  const slice = () => store.getState().cache as CacheState;
  const status = () => cache.selectResponse(store.getState(), getPost, { id: '1' }).expiryStatus;
  /**
   * Post 1 read, then edited twice, overlapping: applied title first, then author; answered author
   * first, then title. Returns the post's status between the two answers.
   */
  const editOutOfOrder = async () => {
    await store.dispatch(cache.fetch(getPost, { id: '1' }));
    const { settled: title } = await start(() =>
      store.dispatch(cache.fetch(editPost, { id: '1' }, { title: 'second' })),
    );
    const { settled: author } = await start(() =>
      store.dispatch(cache.fetch(editPost, { id: '1' }, { author: 'bob' })),
    );
    held[1]!();
    await author;
    const between = status();
    held[0]!();
    await title;
    return between;
  };
  return { db, held, getPost, editPost, deletePost, cache, store, start, slice, status, editOutOfOrder };
}

test('two overlapping edits answered out of order: the row shows the last answer, stale, and one read makes it right', async () => {
  const { db, getPost, cache, store, slice, status, editOutOfOrder } = api(Post);
  expect(await editOutOfOrder()).toBe('valid');
  // The title's answer came last, with the author from before the other edit: shown, not trusted.
  expect(slice().entities.Post!['1']).toMatchObject({ title: 'second', author: 'ann' });
  expect(status()).toBe('stale');
  const requests = server.count();
  await store.dispatch(cache.fetchIfStale(getPost, { id: '1' }));
  expect(server.count() - requests).toBe(1);
  expect({ ...slice().entities.Post!['1'] }).toEqual(db.get('1'));
  expect(status()).toBe('valid');
  // Read again once, and trusted from then on.
  await store.dispatch(cache.fetchIfStale(getPost, { id: '1' }));
  expect(server.count() - requests).toBe(1);
});

test('an updater that edits a row in doubt leaves it in doubt, and the next read makes it right', async () => {
  const { db, getPost, cache, store, slice, status, editOutOfOrder } = api(Post);
  await editOutOfOrder();
  expect(status()).toBe('stale');
  // The app learns the server changed the version, and edits the cached post (its author still in doubt).
  db.get('1')!.version += 10;
  store.dispatch(cache.set(Post, { id: '1' }, (draft: Post) => void (draft.version = db.get('1')!.version)));
  expect(slice().entities.Post!['1']).toMatchObject({ author: 'ann', version: db.get('1')!.version });
  expect(slice().entitiesMeta.Post!['1']!.ambiguous).toBe(true);
  expect(status()).toBe('stale');
  await store.dispatch(cache.fetchIfStale(getPost, { id: '1' }));
  expect({ ...slice().entities.Post!['1'] }).toEqual(db.get('1'));
  expect(status()).toBe('valid');
});

test('an entity that orders its own versions decides overlapping answers by them, and stays valid', async () => {
  const { db, slice, status, editOutOfOrder } = api(VersionedPost);
  await editOutOfOrder();
  expect({ ...slice().entities.VersionedPost!['1'] }).toEqual(db.get('1'));
  expect(status()).toBe('valid');
});

test('answers that did not overlap are never made stale', async () => {
  const { db, held, getPost, editPost, cache, store, start, slice, status } = api(Post);
  await store.dispatch(cache.fetch(getPost, { id: '1' }));
  const { settled: title } = await start(() => store.dispatch(cache.fetch(editPost, { id: '1' }, { title: 'second' })));
  held[0]!();
  await title;
  const { settled: author } = await start(() => store.dispatch(cache.fetch(editPost, { id: '1' }, { author: 'bob' })));
  held[1]!();
  await author;
  expect({ ...slice().entities.Post!['1'] }).toEqual(db.get('1'));
  expect(status()).toBe('valid');
  expect(slice().entitiesMeta.Post!['1']!.ambiguous).toBeUndefined();
});

test('an edit answered after a deletion it overlapped does not bring the row back', async () => {
  const { db, held, getPost, editPost, deletePost, cache, store, start, slice } = api(Post);
  await store.dispatch(cache.fetch(getPost, { id: '1' }));
  // The server applied the edit, then the deletion; the deletion answers first.
  const { settled: edit } = await start(() => store.dispatch(cache.fetch(editPost, { id: '1' }, { title: 'second' })));
  const { settled: removal } = await start(() => store.dispatch(cache.fetch(deletePost, { id: '1' })));
  held[1]!();
  await removal;
  held[0]!();
  await edit;
  expect(db.has('1')).toBe(false);
  expect(slice().entities.Post!['1']).toBeNull();
  expect(cache.selectQuery(store.getState(), Post, { id: '1' })).toBeUndefined();
});
