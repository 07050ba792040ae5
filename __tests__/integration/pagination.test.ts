/**
 * Pagination end to end (docs/pagination.md): `endpoint.getPage` against a real local server
 * that pages a list by cursor. Pages append to the list stored for the args without the cursor,
 * once per item; a refetch of the list fetches the pages it holds again (more in
 * paginationRefetch.test.ts); answers are held back to test the ordering rules.
 */
import { Collection, Entity, ErrorCode, RestEndpoint, type CacheState } from '../../src/index';
import { gate, startServer, type Answer, type TestServer } from '../fixtures/server';
import { makeStore, snapshot } from '../fixtures/store';

class Item extends Entity {
  id = '';
  title = '';
  group = '';
  static override key = 'PagedItem';
}

let server: TestServer;
/** The server's list per group; tests change it between requests. */
const db: Record<string, Array<{ id: string; title: string; group: string }>> = {};
/** Answers held back by cursor ('' for the first page), for ordering tests. */
const holds = new Map<string, Promise<void>>();
const PAGE = 2;

function seed(group: string, count: number) {
  db[group] = Array.from({ length: count }, (_, i) => ({ id: `${group}${i + 1}`, title: `T${i + 1}`, group }));
}

beforeAll(async () => {
  server = await startServer();
  server.on('GET /:group/items', (request, url): Answer => {
    const group = request.url.split('/')[1]!;
    const cursor = url.searchParams.get('cursor') ?? '';
    const start = Number(cursor || 0);
    const list = db[group] ?? [];
    const results = list.slice(start, start + PAGE);
    const next = start + PAGE < list.length ? String(start + PAGE) : null;
    return { json: { results, nextCursor: next }, hold: holds.get(`${group}:${cursor}`) };
  });
  server.on('GET /:group/plain', (request, url): Answer => {
    const group = request.url.split('/')[1]!;
    const start = Number(url.searchParams.get('page') ?? 0) * PAGE;
    return { json: (db[group] ?? []).slice(start, start + PAGE) };
  });
});
afterAll(() => server.close());
beforeEach(() => holds.clear());

function setup() {
  const getItems = new RestEndpoint({
    urlPrefix: server.origin,
    path: '/:group/items',
    searchParams: {} as { cursor?: string },
    schema: { results: new Collection([Item]), nextCursor: '' as string | null },
    paginationField: 'cursor',
  });
  const { cache, store } = makeStore();
  const slice = () => store.getState().cache as CacheState;
  /** The ids the list stored for group g holds (read through its Collection, whatever the list's status). */
  const titles = () =>
    cache.selectQuery(store.getState(), getItems.schema.results, { group: 'g' })?.map(item => item.id);
  return { cache, store, slice, getItems, titles };
}

test('page 2 appends to the list of the args without the cursor; its next cursor stays readable', async () => {
  seed('g', 5);
  const { cache, store, getItems, titles } = setup();
  const first = await store.dispatch(cache.fetch(getItems, { group: 'g' }));
  expect(first.results.map(item => item.id)).toEqual(['g1', 'g2']);
  expect(first.nextCursor).toBe('2');
  expect(getItems.getPage.url({ group: 'g', cursor: '2' })).toBe(`${server.origin}/g/items?cursor=2`);

  const second = await store.dispatch(cache.fetch(getItems.getPage, { group: 'g', cursor: '2' }));
  // The page reads as its own items, with its own next cursor...
  expect(second.results.map(item => item.id)).toEqual(['g3', 'g4']);
  expect(second.nextCursor).toBe('4');
  expect(cache.selectResponse(store.getState(), getItems.getPage, { group: 'g', cursor: '2' }).data).toBe(second);
  // ...and the list (the first page's response) now holds both pages, the same entity objects.
  expect(titles()).toEqual(['g1', 'g2', 'g3', 'g4']);
  const list = cache.selectResponse(store.getState(), getItems, { group: 'g' }).data!;
  expect(list.results[2]).toBe(second.results[0]);
  expect(list.nextCursor).toBe('2');

  await store.dispatch(cache.fetch(getItems.getPage, { group: 'g', cursor: '4' }));
  expect(titles()).toEqual(['g1', 'g2', 'g3', 'g4', 'g5']);
});

test('items a page repeats (the list shifted on the server) are not added twice; updated fields still land', async () => {
  seed('g', 5);
  const { cache, store, getItems, titles } = setup();
  await store.dispatch(cache.fetch(getItems, { group: 'g' }));
  // Someone inserts an item at the head: page 2 now starts with g2, already listed.
  db.g!.unshift({ id: 'g0', title: 'T0', group: 'g' });
  db.g![2] = { ...db.g![2]!, title: 'T2 renamed' };
  const page = await store.dispatch(cache.fetch(getItems.getPage, { group: 'g', cursor: '2' }));
  expect(page.results.map(item => item.id)).toEqual(['g2', 'g3']);
  expect(titles()).toEqual(['g1', 'g2', 'g3']);
  expect(cache.selectQuery(store.getState(), Item, 'g2')!.title).toBe('T2 renamed');
});

test('a refetch of the list keeps the pages loaded before: it fetches them again with the first page', async () => {
  seed('g', 5);
  const { cache, store, getItems, titles } = setup();
  await store.dispatch(cache.fetch(getItems, { group: 'g' }));
  await store.dispatch(cache.fetch(getItems.getPage, { group: 'g', cursor: '2' }));
  expect(titles()).toEqual(['g1', 'g2', 'g3', 'g4']);
  db.g![2] = { ...db.g![2]!, title: 'T3 renamed' };
  await store.dispatch(cache.invalidate(getItems, { group: 'g' }));
  await store.dispatch(cache.fetch(getItems, { group: 'g' }));
  expect(titles()).toEqual(['g1', 'g2', 'g3', 'g4']);
  expect(cache.selectQuery(store.getState(), Item, 'g3')!.title).toBe('T3 renamed');
});

test('a page never creates the list: without the first page, only its entities and its own response are stored', async () => {
  seed('g', 5);
  const { cache, store, slice, getItems, titles } = setup();
  const page = await store.dispatch(cache.fetch(getItems.getPage, { group: 'g', cursor: '2' }));
  expect(page.results.map(item => item.id)).toEqual(['g3', 'g4']);
  expect(slice().entities['[PagedItem]']).toBeUndefined();
  expect(titles()).toBeUndefined();
});

test('a page whose request started before the list was replaced is not appended to the new list', async () => {
  seed('g', 5);
  const { cache, store, getItems, titles } = setup();
  await store.dispatch(cache.fetch(getItems, { group: 'g' }));
  const held = gate();
  holds.set('g:2', held.promise);
  const page = store.dispatch(cache.fetch(getItems.getPage, { group: 'g', cursor: '2' }));
  // The list is refetched (it starts after the page) and answers first, with a changed head.
  db.g!.unshift({ id: 'g0', title: 'T0', group: 'g' });
  await store.dispatch(cache.invalidate(getItems, { group: 'g' }));
  await store.dispatch(cache.fetch(getItems, { group: 'g' }));
  expect(titles()).toEqual(['g0', 'g1']);
  held.open();
  const answered = await page;
  // The page continued the old list: its entities are stored, the new list is left as it is.
  expect(answered.results.map(item => item.id)).toEqual(['g2', 'g3']);
  expect(titles()).toEqual(['g0', 'g1']);
  expect(cache.selectQuery(store.getState(), Item, 'g3')).toBeInstanceOf(Item);
});

test('a first-page refetch that started before a page was appended keeps the appended page (an older answer never drops newer items)', async () => {
  seed('g', 5);
  const { cache, store, getItems, titles } = setup();
  await store.dispatch(cache.fetch(getItems, { group: 'g' }));
  const held = gate();
  holds.set('g:', held.promise);
  await store.dispatch(cache.invalidate(getItems, { group: 'g' }));
  const refetch = store.dispatch(cache.fetch(getItems, { group: 'g' }));
  db.g![0] = { ...db.g![0]!, title: 'T1 renamed' };
  await store.dispatch(cache.fetch(getItems.getPage, { group: 'g', cursor: '2' }));
  expect(titles()).toEqual(['g1', 'g2', 'g3', 'g4']);
  held.open();
  await refetch;
  // The list keeps page 2 (it was appended after the refetch started); the rows still update.
  expect(titles()).toEqual(['g1', 'g2', 'g3', 'g4']);
  expect(cache.selectQuery(store.getState(), Item, 'g1')!.title).toBe('T1 renamed');
  expect(cache.selectResponse(store.getState(), getItems, { group: 'g' }).expiryStatus).toBe('valid');
});

test('pages of a plain Collection endpoint (page numbers) append too; a bad page leaves the store as it was', async () => {
  seed('p', 5);
  const getPlain = new RestEndpoint({
    urlPrefix: server.origin,
    path: '/:group/plain',
    schema: new Collection([Item]),
    paginationField: 'page',
  });
  const { cache, store } = makeStore();
  const slice = () => store.getState().cache as CacheState;
  await store.dispatch(cache.fetch(getPlain, { group: 'p' }));
  const page = await store.dispatch(cache.fetch(getPlain.getPage, { group: 'p', page: 1 }));
  expect(page.map(item => item.id)).toEqual(['p3', 'p4']);
  expect(cache.selectQuery(store.getState(), getPlain.schema, { group: 'p' })!.map(item => item.id)).toEqual([
    'p1',
    'p2',
    'p3',
    'p4',
  ]);
  // A response that is not a list is refused before anything is written (only its error is stored).
  const before = snapshot(slice().entities);
  store.dispatch(cache.setResponse(getPlain.getPage, { group: 'p', page: 9 }, { oops: true }));
  expect(snapshot(slice().entities)).toEqual(before);
  const key = getPlain.getPage.key({ group: 'p', page: 9 });
  expect(slice().meta[key]!.error!.code).toBe(ErrorCode.UNEXPECTED_INPUT);
});

test('getPage is refused, with a coded error, without paginationField, with it in the path, or without a list', () => {
  const noField = new RestEndpoint({ path: '/items', schema: new Collection([Item]) });
  expect(() => noField.getPage).toThrow(expect.objectContaining({ code: ErrorCode.INVALID_SCHEMA }));
  const inPath = new RestEndpoint({ path: '/items/:page', schema: new Collection([Item]), paginationField: 'page' });
  expect(() => inPath.getPage).toThrow(/path param/);
  const notList = new RestEndpoint({ path: '/items/:id', schema: Item, paginationField: 'cursor' });
  expect(() => notList.getPage).toThrow(/Collection schema/);
  // A page without its page param would be the list itself: refused before any request.
  const getPlain = new RestEndpoint({ path: '/items', schema: new Collection([Item]), paginationField: 'page' });
  const missing = { group: 'g' } as unknown as { page: number };
  expect(() => getPlain.getPage.key(missing)).toThrow(expect.objectContaining({ code: ErrorCode.UNEXPECTED_INPUT }));
  expect(() => getPlain.getPage.url({ page: null } as never)).toThrow(/page param "page"/);
  expect(getPlain.getPage.key({ page: 2 })).toBe('GET /items?page=2');
  expect(getPlain.getPage).toBe(getPlain.getPage);
});

test('a page param JSON cannot hold (a symbol, a cycle) is refused naming the param; plain values are sent as url writes them', () => {
  const getPlain = new RestEndpoint({ path: '/items', schema: new Collection([Item]), paginationField: 'page' });
  const cycle: Record<string, unknown> = { at: 1 };
  cycle.self = cycle;
  // (Dates, NaN, Infinity, functions, bigints and Maps, through a fetch that sends nothing and
  // writes nothing: paginationRefetch.test.ts. Here, what it leaves out: a symbol and a cycle.)
  const refused = [Symbol('p'), cycle];
  for (const page of refused) {
    expect(() => getPlain.getPage.url({ page } as never)).toThrow(
      expect.objectContaining({
        code: ErrorCode.UNEXPECTED_INPUT,
        message: expect.stringMatching(/page param "page"/),
      }),
    );
  }
  // Strings, finite numbers, booleans, and lists or plain objects of them are sent as `url` writes them.
  expect(getPlain.getPage.url({ page: 'c2' })).toBe('/items?page=c2');
  expect(getPlain.getPage.url({ page: 0 })).toBe('/items?page=0');
  expect(getPlain.getPage.url({ page: [1, null, 'b'] } as never)).toMatch(/^\/items\?page=/);
  expect(getPlain.getPage.url({ page: { at: 2, skip: undefined } } as never)).toMatch(/^\/items\?page=/);
});

test('push on an endpoint whose Collection sits in an object response reaches the list', async () => {
  seed('c', 3);
  server.on('POST /:group/items', request => ({
    json: { id: 'new', title: (request.body as { title: string }).title, group: 'c' },
  }));
  const { cache, store, getItems } = setup();
  await store.dispatch(cache.fetch(getItems, { group: 'c' }));
  const created = await store.dispatch(cache.fetch(getItems.push, { group: 'c' }, { title: 'Fresh' }));
  expect(created).toBeInstanceOf(Item);
  expect(
    cache.selectResponse(store.getState(), getItems, { group: 'c' }).data!.results.map(item => item.title),
  ).toEqual(['T1', 'T2', 'Fresh']);
});
