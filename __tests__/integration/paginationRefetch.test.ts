/**
 * A refetch of a paginated list keeps its pages (docs/pagination.md, "Refetching a list that
 * holds pages"): against a real local server that pages by offset, a list that holds two pages
 * (10 rows) still holds them, in order and with the server's new content, after a plain refetch,
 * an invalidation, a poll or a hydration; the pages are fetched in order and written as one
 * action; a failed or aborted page writes nothing but the error; page params that name no page,
 * or that are no plain JSON, are refused before anything is sent.
 */
import { Collection, Entity, ErrorCode, RestEndpoint, type CacheState } from '../../src/index';
import { gate, requestsSince, startServer, type Answer, type TestServer } from '../fixtures/server';
import { makeStore, snapshot } from '../fixtures/store';
import { advance, until, useLiveClock } from '../fixtures/liveClock';

class Row extends Entity {
  id = '';
  title = '';
  static override key = 'RefetchRow';
}

const PAGE = 5;
let server: TestServer;
/** The server's list per group; tests change it between requests. */
const db: Record<string, Array<{ id: string; title: string }>> = {};
/** Answers held back, by `group:cursor` ('' for the first page). */
const holds = new Map<string, Promise<void>>();
/** Cursors that answer 500, by `group:cursor`. */
const failing = new Set<string>();

function seed(group: string, count: number) {
  db[group] = Array.from({ length: count }, (_, i) => ({ id: `${group}${i + 1}`, title: `T${i + 1}` }));
}

beforeAll(async () => {
  server = await startServer();
  server.on('GET /:group/rows', (request, url): Answer => {
    const group = request.url.split('/')[1]!;
    const cursor = url.searchParams.get('cursor') ?? '';
    const hold = holds.get(`${group}:${cursor}`);
    if (failing.has(`${group}:${cursor}`)) return { status: 500, json: { message: 'page failed' }, hold };
    const start = Number(cursor || 0);
    const list = db[group] ?? [];
    const next = start + PAGE < list.length ? String(start + PAGE) : null;
    return { json: { results: list.slice(start, start + PAGE), nextCursor: next }, hold };
  });
});
afterAll(() => server.close());
beforeEach(() => {
  holds.clear();
  failing.clear();
});

function endpoint() {
  return new RestEndpoint({
    urlPrefix: server.origin,
    path: '/:group/rows',
    searchParams: {} as { cursor?: string },
    schema: { results: new Collection([Row]), nextCursor: '' as string | null },
    paginationField: 'cursor',
  });
}

/** A store whose list for `group` holds its first two pages (10 rows). */
async function twoPages(group: string, preloadedState?: unknown) {
  const getRows = endpoint();
  const { cache, store } = makeStore({}, { preloadedState });
  const slice = () => store.getState().cache as CacheState;
  const ids = () => cache.selectQuery(store.getState(), getRows.schema.results, { group })?.map(row => row.id);
  const titles = () => cache.selectQuery(store.getState(), getRows.schema.results, { group })?.map(row => row.title);
  if (preloadedState === undefined) {
    await store.dispatch(cache.fetch(getRows, { group }));
    await store.dispatch(cache.fetch(getRows.getPage, { group, cursor: '5' }));
  }
  let actions = 0;
  store.subscribe(() => actions++);
  const requests = () => server.requests.filter(r => r.url.startsWith(`/${group}/rows`)).map(r => r.url);
  return { cache, store, slice, getRows, ids, titles, actions: () => actions, requests };
}

const firstTen = (group: string) => Array.from({ length: 10 }, (_, i) => `${group}${i + 1}`);

test('a refetch of the list fetches the first page, then each page it holds, in order, and writes them as one action', async () => {
  seed('a', 12);
  const { cache, store, ids, titles, actions, requests } = await twoPages('a');
  expect(ids()).toEqual(firstTen('a'));
  const before = requests().length;
  db.a![0]!.title = 'T1 new';
  db.a![7]!.title = 'T8 new';
  const list = await store.dispatch(cache.fetch(endpoint(), { group: 'a' }));
  // One GET per page, first page first; one write for both.
  expect(requests().slice(before)).toEqual(['/a/rows', '/a/rows?cursor=5']);
  expect(actions()).toBe(1);
  expect(ids()).toEqual(firstTen('a'));
  expect(titles()![0]).toBe('T1 new');
  expect(titles()![7]).toBe('T8 new');
  // The promise reads as the list: every held row, with the first page's next cursor.
  expect(list.results.map(row => row.id)).toEqual(firstTen('a'));
  expect(list.nextCursor).toBe('5');
});

test('a refetch that brings nothing new keeps the shown list and its rows the very same objects', async () => {
  seed('s', 12);
  const { cache, store, getRows, slice } = await twoPages('s');
  const read = () => cache.selectQuery(store.getState(), getRows.schema.results, { group: 's' })!;
  const list = read();
  const rows = slice().entities.RefetchRow;
  await store.dispatch(cache.fetch(getRows, { group: 's' }));
  expect(read()).toBe(list);
  expect(slice().entities.RefetchRow).toBe(rows);
  expect(list).toHaveLength(10);
});

test("the lists' records of their pages: a write keeps every record it does not change the very same object", async () => {
  seed('r', 22);
  seed('q', 22);
  const { cache, store, getRows, slice } = await twoPages('r');
  await store.dispatch(cache.fetch(getRows, { group: 'q' }));
  await store.dispatch(cache.fetch(getRows.getPage, { group: 'q', cursor: '5' }));
  const records = () => slice().entities['Pages([RefetchRow])']!;
  const r = records()['{"group":"r"}'];
  const q = records()['{"group":"q"}'];
  expect(snapshot(r)).toEqual({ pages: ['5'], next: '10' });
  // A page appended to q: r's record, and r's rows, stay the same objects.
  const rowR1 = slice().entities.RefetchRow!.r1;
  await store.dispatch(cache.fetch(getRows.getPage, { group: 'q', cursor: '10' }));
  expect(snapshot(records()['{"group":"q"}'])).toEqual({ pages: ['5', '10'], next: '15' });
  expect(records()['{"group":"r"}']).toBe(r);
  expect(slice().entities.RefetchRow!.r1).toBe(rowR1);
  // A refetch of r that holds the same pages, and a held page loaded again, rewrite no record.
  const table = records();
  await store.dispatch(cache.fetch(getRows, { group: 'r' }));
  await store.dispatch(cache.fetch(getRows.getPage, { group: 'q', cursor: '5' }));
  expect(records()).toBe(table);
  expect(records()['{"group":"q"}']).not.toBe(q);
});

test('the pages are replaced together: the list is exactly what the server holds now in those pages', async () => {
  seed('b', 12);
  const { cache, store, getRows, ids } = await twoPages('b');
  // An item is inserted at the head and one is deleted: every page shifts on the server.
  db.b!.unshift({ id: 'b0', title: 'T0' });
  db.b!.splice(
    db.b!.findIndex(row => row.id === 'b3'),
    1,
  );
  await store.dispatch(cache.fetch(getRows, { group: 'b' }));
  expect(ids()).toEqual(['b0', 'b1', 'b2', 'b4', 'b5', 'b6', 'b7', 'b8', 'b9', 'b10']);
  // b3 left the list; as an entity it stays cached (a list refetch deletes no entity).
  expect(cache.selectQuery(store.getState(), Row, 'b3')).toBeInstanceOf(Row);
});

test('after an invalidation, the refetch brings every held page back', async () => {
  seed('c', 12);
  const { cache, store, getRows, ids, requests } = await twoPages('c');
  await store.dispatch(cache.invalidate(getRows, { group: 'c' }));
  expect(cache.selectResponse(store.getState(), getRows, { group: 'c' }).expiryStatus).toBe('invalid');
  const before = requests().length;
  const list = await store.dispatch(cache.fetchIfStale(getRows, { group: 'c' }));
  expect(requests().slice(before)).toEqual(['/c/rows', '/c/rows?cursor=5']);
  expect(ids()).toEqual(firstTen('c'));
  expect(list!.results).toHaveLength(10);
  expect(cache.selectResponse(store.getState(), getRows, { group: 'c' }).expiryStatus).toBe('valid');
});

test('a page that fails fails the refetch: only the error is written, the shown pages stay, the next refetch brings them all', async () => {
  seed('d', 12);
  const { cache, store, slice, getRows, ids, requests } = await twoPages('d');
  db.d![0]!.title = 'T1 new';
  failing.add('d:5');
  const rows = snapshot(slice().entities);
  const stored = snapshot(slice().endpoints);
  const before = requests().length;
  await expect(store.dispatch(cache.fetch(getRows, { group: 'd' }))).rejects.toMatchObject({ status: 500 });
  expect(requests().slice(before)).toEqual(['/d/rows', '/d/rows?cursor=5']);
  // Not even the first page's new title: nothing of the refetch is written but its error.
  expect(snapshot(slice().entities)).toEqual(rows);
  expect(snapshot(slice().endpoints)).toEqual(stored);
  const response = cache.selectResponse(store.getState(), getRows, { group: 'd' });
  expect(response.error).toMatchObject({ status: 500 });
  expect(response.data!.results.map(row => row.id)).toEqual(firstTen('d'));
  // The pages are still held: once the server answers again, both come back fresh.
  failing.clear();
  await store.dispatch(cache.fetch(getRows, { group: 'd' }));
  expect(ids()).toEqual(firstTen('d'));
  expect(cache.selectQuery(store.getState(), Row, 'd1')!.title).toBe('T1 new');
  expect(cache.selectResponse(store.getState(), getRows, { group: 'd' }).error).toBeUndefined();
});

test('a refetch aborted between pages writes no partial list: the list and its pages stay, the promise rejects with the reason', async () => {
  seed('k', 12);
  const { cache, store, slice, getRows, ids, requests } = await twoPages('k');
  db.k![0]!.title = 'T1 new';
  const page2 = gate();
  holds.set('k:5', page2.promise);
  const rows = snapshot(slice().entities);
  const rowsMeta = snapshot(slice().entitiesMeta);
  const stored = snapshot(slice().endpoints);
  const record = () => snapshot(slice().entities['Pages([RefetchRow])']!['{"group":"k"}']);
  const pages = record();
  expect(pages).toEqual({ pages: ['5'], next: '10' });
  const before = requests().length;
  const refetch = store.dispatch(cache.fetch(getRows, { group: 'k' }));
  // The first page has answered once the second is asked for.
  await until(() => requests().length - before === 2, 'the second page to be asked for');
  const reason = new Error('the user left');
  refetch.abort(reason);
  await expect(refetch).rejects.toBe(reason);
  page2.open();
  expect(requests().slice(before)).toEqual(['/k/rows', '/k/rows?cursor=5']);
  // Not the first page's new title, nor a list of one page: only the failure is recorded.
  expect(snapshot(slice().entities)).toEqual(rows);
  expect(snapshot(slice().entitiesMeta)).toEqual(rowsMeta);
  expect(snapshot(slice().endpoints)).toEqual(stored);
  expect(record()).toEqual(pages);
  expect(ids()).toEqual(firstTen('k'));
  expect(cache.selectQuery(store.getState(), Row, 'k1')!.title).toBe('T1');
  expect(cache.selectResponse(store.getState(), getRows, { group: 'k' }).error).toBe(reason);
});

test('state restored from JSON (a server render, a persisted store) keeps its pages on refetch', async () => {
  seed('e', 12);
  const first = await twoPages('e');
  const restored = JSON.parse(JSON.stringify(first.store.getState()));
  const { cache, store, getRows, ids, requests } = await twoPages('e', { cache: restored.cache });
  expect(ids()).toEqual(firstTen('e'));
  const before = requests().length;
  await store.dispatch(cache.fetch(getRows, { group: 'e' }));
  expect(requests().slice(before)).toEqual(['/e/rows', '/e/rows?cursor=5']);
  expect(ids()).toEqual(firstTen('e'));
});

test('a page loaded while the refetch runs is kept: one that started before is fetched by it too, one that started after stays appended', async () => {
  seed('f', 15);
  const { cache, store, getRows, ids } = await twoPages('f');
  // "Load more" (page 3) starts, then the refetch; page 3 answers while the refetch waits on page 2.
  const page3 = gate();
  holds.set('f:10', page3.promise);
  const page2 = gate();
  holds.set('f:5', page2.promise);
  const more = store.dispatch(cache.fetch(getRows.getPage, { group: 'f', cursor: '10' }));
  const refetch = store.dispatch(cache.fetch(getRows, { group: 'f' }));
  page3.open();
  await more;
  expect(ids()).toHaveLength(15);
  db.f![12]!.title = 'T13 new';
  page2.open();
  await refetch;
  // The refetch saw page 3 held when its own pages were in, fetched it too, and wrote all three.
  expect(ids()).toEqual(Array.from({ length: 15 }, (_, i) => `f${i + 1}`));
  expect(cache.selectQuery(store.getState(), Row, 'f13')!.title).toBe('T13 new');

  // Now the refetch starts first and page 4 after it, answering before it: the list keeps page 4.
  db.f!.push(...Array.from({ length: 5 }, (_, i) => ({ id: `f${16 + i}`, title: `T${16 + i}` })));
  const held = gate();
  holds.set('f:', held.promise);
  const second = store.dispatch(cache.fetch(getRows, { group: 'f' }));
  await store.dispatch(cache.fetch(getRows.getPage, { group: 'f', cursor: '15' }));
  held.open();
  await second;
  expect(ids()).toEqual(Array.from({ length: 20 }, (_, i) => `f${i + 1}`));
  // And the next refetch holds all four pages.
  const sent = requestsSince(server);
  await store.dispatch(cache.fetch(getRows, { group: 'f' }));
  expect(sent()).toEqual(['/f/rows', '/f/rows?cursor=5', '/f/rows?cursor=10', '/f/rows?cursor=15']);
  expect(ids()).toHaveLength(20);
});

test('a first page written by hand (setResponse) replaces the list: it then holds no page', async () => {
  seed('g', 12);
  const { cache, store, getRows, ids, requests } = await twoPages('g');
  store.dispatch(cache.setResponse(getRows, { group: 'g' }, { results: [{ id: 'g1', title: 'T1' }], nextCursor: '1' }));
  expect(ids()).toEqual(['g1']);
  const before = requests().length;
  await store.dispatch(cache.fetch(getRows, { group: 'g' }));
  expect(requests().slice(before)).toEqual(['/g/rows']);
  expect(ids()).toEqual(['g1', 'g2', 'g3', 'g4', 'g5']);
});

test.each([
  ['an empty list', []],
  ['a list of nothing', [null, undefined]],
  ['an empty object', {}],
  ['an object of nothing', { at: undefined }],
])(
  'a page param that names no page (%s) is refused with a coded error; nothing is sent or written',
  async (_, cursor) => {
    seed('h', 12);
    const { cache, store, slice, getRows, ids, requests } = await twoPages('h');
    const before = snapshot(slice());
    const sent = requests().length;
    const args = { group: 'h', cursor } as unknown as { group: string; cursor: string };
    const refused = expect.objectContaining({
      code: ErrorCode.UNEXPECTED_INPUT,
      message: expect.stringMatching(/names no page/),
    });
    expect(() => getRows.getPage.key(args)).toThrow(refused);
    expect(() => store.dispatch(cache.fetch(getRows.getPage, args))).toThrow(refused);
    expect(() =>
      store.dispatch(
        cache.setResponse(getRows.getPage, args, { results: [{ id: 'x', title: 'X' }], nextCursor: null }),
      ),
    ).toThrow(refused);
    expect(snapshot(slice())).toEqual(before);
    expect(requests().length).toBe(sent);
    expect(ids()).toEqual(firstTen('h'));
  },
);

test.each([
  ['a Date', new Date(0)],
  ['NaN', NaN],
  ['Infinity', Infinity],
  ['a function', () => 1],
  ['a bigint', BigInt(5)],
  ['a Map', new Map([['at', 5]])],
  ['a Date inside a plain object', { at: new Date(0) }],
])(
  'a page param that is no plain JSON (%s) is refused with a coded error before any request; nothing is written',
  async (_, cursor) => {
    seed('j', 12);
    const { cache, store, slice, getRows, ids, requests, actions } = await twoPages('j');
    const before = snapshot(slice());
    const sent = requests().length;
    const args = { group: 'j', cursor } as unknown as { group: string; cursor: string };
    const refused = expect.objectContaining({
      code: ErrorCode.UNEXPECTED_INPUT,
      message: expect.stringMatching(/plain JSON/),
    });
    expect(() => store.dispatch(cache.fetch(getRows.getPage, args))).toThrow(refused);
    expect(() => getRows.getPage.key(args)).toThrow(refused);
    expect(() =>
      store.dispatch(
        cache.setResponse(getRows.getPage, args, { results: [{ id: 'x', title: 'X' }], nextCursor: null }),
      ),
    ).toThrow(refused);
    expect(requests().length).toBe(sent);
    expect(actions()).toBe(0);
    expect(snapshot(slice())).toEqual(before);
    expect(ids()).toEqual(firstTen('j'));
  },
);

describe('polls', () => {
  useLiveClock();

  test('a poll of the list refetches its held pages: 10 rows stay 10, with the new content', async () => {
    seed('p', 12);
    const { cache, store, getRows, ids, titles, requests, actions } = await twoPages('p');
    const polled = getRows.extend({ pollFrequency: 1_000 });
    const unsubscribe = cache.subscribe(store, polled, { group: 'p' });
    const before = requests().length;
    db.p![9]!.title = 'T10 new';
    await advance(1_000);
    await until(() => actions() > 0, 'the poll to be written');
    expect(requests().slice(before)).toEqual(['/p/rows', '/p/rows?cursor=5']);
    expect(ids()).toEqual(firstTen('p'));
    expect(titles()![9]).toBe('T10 new');
    unsubscribe();
  });
});
