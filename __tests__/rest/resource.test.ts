/**
 * resource() (docs/resource.md) against a real local server: each endpoint's URL and method as
 * the server receives them, and what each does to the cache.
 */
import {
  Collection,
  Entity,
  ErrorCode,
  Invalidate,
  resource,
  RestEndpoint,
  Union,
  type CacheState,
} from '../../src/index';
import { startServer, type TestServer } from '../fixtures/server';
import { makeStore, snapshot } from '../fixtures/store';

class Note extends Entity {
  id = '';
  title = '';
  group = '';
  static override key = 'Note';
}

let server: TestServer;
let db: Array<{ id: string; title: string; group: string }>;
let next = 100;

beforeAll(async () => {
  server = await startServer();
  const groupOf = (url: string) => url.split('/')[1]!;
  const idOf = (url: string) => url.split('?')[0]!.split('/')[3]!;
  server.on('GET /:group/notes', (request, url) => {
    const list = db.filter(note => note.group === groupOf(request.url));
    const cursor = Number(url.searchParams.get('cursor') ?? 0);
    return { json: list.slice(cursor, cursor + 2) };
  });
  server.on('GET /:group/notes/:id', request => {
    const note = db.find(n => n.id === idOf(request.url));
    return note ? { json: note } : { status: 404, json: { message: 'no such note' } };
  });
  server.on('POST /:group/notes', request => {
    const note = { ...(request.body as object), id: String(next++), group: groupOf(request.url) } as (typeof db)[0];
    db.push(note);
    return { status: 201, json: note };
  });
  server.on('PUT /:group/notes/:id', request => {
    const index = db.findIndex(n => n.id === idOf(request.url));
    db[index] = { ...(request.body as (typeof db)[0]), id: idOf(request.url), group: groupOf(request.url) };
    return { json: db[index] };
  });
  server.on('PATCH /:group/notes/:id', request => {
    const note = db.find(n => n.id === idOf(request.url))!;
    Object.assign(note, request.body);
    return { json: note };
  });
  // Deletes answer with no body: the params name the deleted item.
  server.on('DELETE /:group/notes/:id', request => {
    db = db.filter(n => n.id !== idOf(request.url));
    return { status: 204, raw: '' };
  });
});
afterAll(() => server.close());
beforeEach(() => {
  db = [
    { id: '1', title: 'One', group: 'a' },
    { id: '2', title: 'Two', group: 'a' },
    { id: '3', title: 'Three', group: 'a' },
    { id: '4', title: 'Four', group: 'b' },
  ];
});

function setup() {
  const notes = resource({
    urlPrefix: server.origin,
    path: '/:group/notes/:id',
    schema: Note,
    searchParams: {} as { cursor?: string },
    paginationField: 'cursor',
    dataExpiryLength: 30_000,
  });
  const { cache, store } = makeStore();
  const slice = () => store.getState().cache as CacheState;
  const ids = (group: string) =>
    cache.selectQuery(store.getState(), notes.getList.schema, { group })?.map(note => note.id);
  return { notes, cache, store, slice, ids };
}

/** The last request the server received, as `METHOD path`. */
const last = () => `${server.requests.at(-1)!.method} ${server.requests.at(-1)!.url}`;

test('each endpoint has its method and URL; the list path is the item path without its last segment', () => {
  const { notes } = setup();
  expect(notes.getList.path).toBe('/:group/notes');
  expect(notes.getList.method).toBe('GET');
  expect(notes.getList.schema).toBeInstanceOf(Collection);
  expect(notes.get.method).toBe('GET');
  expect(notes.update.method).toBe('PUT');
  expect(notes.partialUpdate.method).toBe('PATCH');
  expect(notes.delete.method).toBe('DELETE');
  expect(notes.delete.schema).toBeInstanceOf(Invalidate);
  expect(notes.get.url({ group: 'a', id: '1' })).toBe(`${server.origin}/a/notes/1`);
  expect(notes.getList.url({ group: 'a', cursor: '2' })).toBe(`${server.origin}/a/notes?cursor=2`);
  // The shared options reach all five.
  for (const endpoint of [notes.get, notes.getList, notes.update, notes.partialUpdate, notes.delete])
    expect(endpoint.dataExpiryLength).toBe(30_000);
  expect(resource({ path: '/notes/:id', schema: Note }).getList.url()).toBe('/notes');
  expect(resource({ path: '/:id', schema: Note }).getList.url()).toBe('/');
});

test('get and getList fetch and share the entity; getList.push creates and appends', async () => {
  const { notes, cache, store, ids } = setup();
  const list = await store.dispatch(cache.fetch(notes.getList, { group: 'a' }));
  expect(last()).toBe('GET /a/notes');
  expect(list.map(note => note.id)).toEqual(['1', '2']);
  const one = await store.dispatch(cache.fetch(notes.get, { group: 'a', id: '1' }));
  expect(last()).toBe('GET /a/notes/1');
  expect(one).toBe(cache.selectResponse(store.getState(), notes.getList, { group: 'a' }).data![0]);
  const created = await store.dispatch(cache.fetch(notes.getList.push, { group: 'a' }, { title: 'New' }));
  expect(last()).toBe('POST /a/notes');
  expect(server.requests.at(-1)!.body).toEqual({ title: 'New' });
  expect(created).toBeInstanceOf(Note);
  expect(ids('a')).toEqual(['1', '2', (created as Note).id]);
});

test('update PUTs and partialUpdate PATCHes; the answer updates the entity in every list', async () => {
  const { notes, cache, store } = setup();
  await store.dispatch(cache.fetch(notes.getList, { group: 'a' }));
  const put = await store.dispatch(cache.fetch(notes.update, { group: 'a', id: '2' }, { title: 'Deux' }));
  expect(last()).toBe('PUT /a/notes/2');
  expect(put.title).toBe('Deux');
  const patched = await store.dispatch(cache.fetch(notes.partialUpdate, { group: 'a', id: '1' }, { title: 'Un' }));
  expect(last()).toBe('PATCH /a/notes/1');
  expect(server.requests.at(-1)!.body).toEqual({ title: 'Un' });
  expect(patched.title).toBe('Un');
  const list = cache.selectResponse(store.getState(), notes.getList, { group: 'a' }).data!;
  expect(list.map(note => note.title)).toEqual(['Un', 'Deux']);
});

test('delete (an empty answer) removes the item from the cache: gone from lists, its get reads undefined', async () => {
  const { notes, cache, store, slice, ids } = setup();
  await store.dispatch(cache.fetch(notes.getList, { group: 'a' }));
  await store.dispatch(cache.fetch(notes.get, { group: 'a', id: '2' }));
  await store.dispatch(cache.fetch(notes.delete, { group: 'a', id: '2' }));
  expect(last()).toBe('DELETE /a/notes/2');
  expect(slice().entities.Note!['2']).toBeNull();
  expect(ids('a')).toEqual(['1']);
  expect(cache.selectQuery(store.getState(), Note, '2')).toBeUndefined();
  expect(cache.selectResponse(store.getState(), notes.get, { group: 'a', id: '2' }).expiryStatus).toBe('invalid');
});

test('delete answered with a bare pk resolves undefined, as data-client; the tombstone is written all the same', async () => {
  // One server answers a delete with the deleted item's pk, another with a count of deleted rows.
  server.on('DELETE /:group/byPk/:id', request => ({ json: request.url.split('/')[3] }));
  server.on('DELETE /:group/byCount/:id', () => ({ json: 2 }));
  const byPk = resource({ urlPrefix: server.origin, path: '/:group/byPk/:id', schema: Note });
  const { cache, store } = makeStore();
  const slice = () => store.getState().cache as CacheState;
  store.dispatch(cache.set(Note, { id: '1', title: 'One', group: 'a' }));
  // Nothing is stored for 5: there is nothing to resolve to, but 5 reads as deleted from now on.
  expect(await store.dispatch(cache.fetch(byPk.delete, { group: 'a', id: '5' }))).toBeUndefined();
  expect(slice().entities.Note!['5']).toBeNull();
  expect(await store.dispatch(cache.fetch(byPk.delete, { group: 'a', id: '1' }))).toBeUndefined();
  expect(slice().entities.Note!['1']).toBeNull();
  expect(cache.selectQuery(store.getState(), Note, '1')).toBeUndefined();
  expect(cache.selectResponse(store.getState(), byPk.delete, { group: 'a', id: '1' }).data).toBeUndefined();

  // A number is not taken for a pk (it may be a count): the params name the item, as with no body.
  const byCount = resource({ urlPrefix: server.origin, path: '/:group/byCount/:id', schema: Note });
  const deleted = await store.dispatch(cache.fetch(byCount.delete, { group: 'a', id: '7' }));
  expect(deleted).toMatchObject({ id: '7', group: 'a' });
  expect(slice().entities.Note!['7']).toBeNull();
  expect(Object.keys(slice().entities.Note!).sort()).toEqual(['1', '5', '7']);
});

test('a failed update leaves the store exactly as it was', async () => {
  const { notes, cache, store, slice } = setup();
  await store.dispatch(cache.fetch(notes.getList, { group: 'a' }));
  const failing = notes.update.extend({ path: '/:group/missing/:id' });
  const before = snapshot(slice().entities);
  await expect(store.dispatch(cache.fetch(failing, { group: 'a', id: '1' }, { title: 'x' }))).rejects.toMatchObject({
    status: 404,
  });
  expect(snapshot(slice().entities)).toEqual(before);
});

test('getList.getPage appends the next page to the list; remove and move of one item resolve to that item', async () => {
  const { notes, cache, store, ids } = setup();
  await store.dispatch(cache.fetch(notes.getList, { group: 'a' }));
  const page = await store.dispatch(cache.fetch(notes.getList.getPage, { group: 'a', cursor: '2' }));
  expect(last()).toBe('GET /a/notes?cursor=2');
  expect(page.map(note => note.id)).toEqual(['3']);
  expect(ids('a')).toEqual(['1', '2', '3']);

  await store.dispatch(cache.fetch(notes.getList, { group: 'b' }));
  server.on('PATCH /:group/notes', request => ({ json: request.body }));
  const moved = await store.dispatch(
    cache.fetch(notes.getList.move.extend({ path: '/:group/notes' }), { group: 'a' }, { id: '3', group: 'b' }),
  );
  expect(moved).toBeInstanceOf(Note);
  expect((moved as Note).id).toBe('3');
  expect(ids('a')).toEqual(['1', '2']);
  expect(ids('b')).toEqual(['4', '3']);
  const removed = await store.dispatch(cache.fetch(notes.getList.remove, { group: 'b' }, { id: '4' }));
  expect((removed as Note).id).toBe('4');
  expect(ids('b')).toEqual(['3']);
  const list = await store.dispatch(cache.fetch(notes.getList.remove, { group: 'a' }, [{ id: '1' }]));
  expect(Array.isArray(list)).toBe(true);
});

test('resource() refuses a path without a trailing id param, with a coded error', () => {
  expect(() => resource({ path: '/notes', schema: Note })).toThrow(
    expect.objectContaining({ code: ErrorCode.INVALID_SCHEMA }),
  );
  expect(() => resource({ path: '/notes/:id/comments', schema: Note })).toThrow(/ending in its id param/);
  // The endpoints are ordinary RestEndpoints: extend works on each.
  const { notes } = setup();
  expect(notes.get.extend({ dataExpiryLength: 5 })).toBeInstanceOf(RestEndpoint);
});

test('a process option applies to all five; delete still falls back to the params after it', async () => {
  const seen: string[] = [];
  const notes = resource({
    urlPrefix: server.origin,
    path: '/:group/notes/:id',
    schema: Note,
    process: (value: unknown, params: { id?: string }) => {
      seen.push(String(params?.id));
      return value;
    },
  });
  const { cache, store } = makeStore();
  await store.dispatch(cache.fetch(notes.get, { group: 'a', id: '1' }));
  await store.dispatch(cache.fetch(notes.delete, { group: 'a', id: '1' }));
  expect(seen).toEqual(['1', '1']);
  expect(cache.selectQuery(store.getState(), Note, '1')).toBeUndefined();
  expect((store.getState().cache as CacheState).entities.Note!['1']).toBeNull();
});

test('collection options reach the list: argsKey names it, nonFilterArgumentKeys lets creates reach it', async () => {
  const options = {
    urlPrefix: server.origin,
    path: '/:group/notes/:id',
    schema: Note,
    searchParams: {} as { view?: string },
  } as const;
  // argsKey: the view is left out of the list's name, so both requests fill one list.
  const byGroup = resource({ ...options, collection: { argsKey: ({ group }: { group: string }) => ({ group }) } });
  const first = makeStore();
  await first.store.dispatch(first.cache.fetch(byGroup.getList, { group: 'a', view: 'compact' }));
  expect(Object.keys((first.store.getState().cache as CacheState).entities['[Note]']!)).toEqual(['{"group":"a"}']);
  expect(first.cache.selectQuery(first.store.getState(), byGroup.getList.schema, { group: 'a' })).toBe(
    first.cache.selectQuery(first.store.getState(), byGroup.getList.schema, { group: 'a', view: 'compact' }),
  );

  // nonFilterArgumentKeys: a create for the group reaches the list shown in any view.
  const created = async (resourceOptions: Parameters<typeof resource>[0]) => {
    const notes = resource(resourceOptions);
    const { cache, store } = makeStore();
    await store.dispatch(cache.fetch(notes.getList, { group: 'a', view: 'compact' }));
    const note = (await store.dispatch(cache.fetch(notes.getList.push, { group: 'a' }, { title: 'New' }))) as Note;
    const list = cache.selectQuery(store.getState(), notes.getList.schema, { group: 'a', view: 'compact' }) as Note[];
    return list.some(item => item.id === note.id);
  };
  expect(await created({ ...options, collection: { nonFilterArgumentKeys: ['view'] } })).toBe(true);
  // Without it, `view` is a filter the create does not name, so that list is not reached.
  expect(await created(options)).toBe(false);
});

test('collection options of the wrong kind are refused where the resource is made', () => {
  const bad: unknown[] = [5, null, { nestKey: () => ({}) }, { argsKey: 'group' }, { nonFilterArgumentKeys: 7 }];
  for (const collection of bad) {
    expect(() => resource({ path: '/notes/:id', schema: Note, collection: collection as never })).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_SCHEMA }),
    );
  }
  expect(() => resource({ path: '/notes/:id', schema: Note, collection: { argsKey: 'group' } as never })).toThrow(
    /argsKey must be a function/,
  );
  expect(() => resource({ path: '/notes/:id', schema: Note, collection: { nestKey: () => ({}) } as never })).toThrow(
    /takes argsKey, nonFilterArgumentKeys and createCollectionFilter, but received "nestKey"/,
  );
});

describe('over a Union', () => {
  class Text extends Entity {
    id = '';
    body = '';
    readonly type = 'text';
    static override key = 'FeedText';
  }
  class Link extends Entity {
    id = '';
    url = '';
    readonly type = 'link';
    static override key = 'FeedLink';
  }
  const Feed = new Union({ text: Text, link: Link }, 'type');
  let feed: Array<{ id: string; type: string; body?: string; url?: string }>;
  let emptyAnswers = false;

  beforeAll(() => {
    server.on('GET /feed', () => ({ json: feed }));
    server.on('GET /feed/:id', request => ({ json: feed.find(item => item.id === request.url.split('/')[2]) }));
    // The deleted item, its type attribute included (or no body at all).
    server.on('DELETE /feed/:id', request => {
      const item = feed.find(one => one.id === request.url.split('/')[2]);
      feed = feed.filter(one => one !== item);
      return emptyAnswers ? { status: 204, raw: '' } : { json: item };
    });
  });
  beforeEach(() => {
    emptyAnswers = false;
    feed = [
      { id: '1', type: 'text', body: 'One' },
      { id: '2', type: 'link', url: 'https://two' },
      { id: '3', type: 'link', url: 'https://three' },
    ];
  });

  test('delete tombstones the member the answer names: the list and its get drop it; it resolves to that member', async () => {
    const items = resource({ urlPrefix: server.origin, path: '/feed/:id', schema: Feed });
    const { cache, store } = makeStore();
    await store.dispatch(cache.fetch(items.getList));
    const two = await store.dispatch(cache.fetch(items.get, { id: '2' }));
    expect(two).toBeInstanceOf(Link);

    const deleted = await store.dispatch(cache.fetch(items.delete, { id: '2' }));
    expect(last()).toBe('DELETE /feed/2');
    expect(deleted).toBeInstanceOf(Link);
    expect(deleted).toMatchObject({ id: '2', url: 'https://two' });
    const state = store.getState();
    expect((state.cache as CacheState).entities.FeedLink!['2']).toBeNull();
    expect((state.cache as CacheState).entities.FeedText!['1']).not.toBeNull();
    expect(cache.selectResponse(state, items.getList).data!.map(item => `${item.type} ${item.id}`)).toEqual([
      'text 1',
      'link 3',
    ]);
    const get = cache.selectResponse(state, items.get, { id: '2' });
    expect(get.data).toBeUndefined();
    expect(get.expiryStatus).toBe('invalid');
    // Reading the delete's own answer gives what the call resolved to.
    expect(cache.selectResponse(state, items.delete, { id: '2' }).data).toBe(deleted);
  });

  test('an answer without the type attribute (the params, for no body) deletes nothing and resolves to itself, with a warning', async () => {
    const items = resource({ urlPrefix: server.origin, path: '/feed/:id', schema: Feed });
    emptyAnswers = true;
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { cache, store } = makeStore();
    await store.dispatch(cache.fetch(items.getList));
    const deleted = await store.dispatch(cache.fetch(items.delete, { id: '3' }));
    expect(deleted).toEqual({ id: '3' });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Invalidate of a Union met the unknown type'));
    warn.mockRestore();
    expect(cache.selectResponse(store.getState(), items.getList).data!.map(item => item.id)).toEqual(['1', '2', '3']);
  });
});

test('a body may name a nested entity by its id, as an answer may: the cache stores the id either way', () => {
  class Shelf extends Entity {
    id = '';
    label = '';
    static override key = 'ResourceShelf';
  }
  class Book extends Entity {
    id = '';
    title = '';
    shelf = Shelf.fromJS();
    static override key = 'ResourceBook';
    static override schema = { shelf: Shelf };
  }
  const books = resource({ path: '/books/:id', schema: Book });
  const { cache, store } = makeStore();
  store.dispatch(cache.set(Shelf, { id: 'a', label: 'A' }));
  store.dispatch(cache.set(Shelf, { id: 'b', label: 'B' }));
  store.dispatch(cache.set(Book, { id: '1', title: 'Dune', shelf: 'a' }));
  // The body's type takes the id (a type error before); the answer echoing it links the shelf.
  const body = { shelf: 'b' };
  store.dispatch(cache.setResponse(books.partialUpdate, { id: '1' }, body, { id: '1', ...body }));
  expect(cache.selectQuery(store.getState(), Book, '1')?.shelf.label).toBe('B');
  expect(snapshot(store.getState().cache.entities.ResourceBook?.['1'])).toEqual({ id: '1', title: 'Dune', shelf: 'b' });
});
