/**
 * Pages both ways (docs/pagination.md, "Pages before the first" and "maxPages"), against a real
 * local server that pages a list of 25 rows by offset, five at a time, its first page starting at
 * row 11: a page loaded with the list's previous param goes before the pages held; `maxPages`
 * drops the page at the other end, with its rows, and bounds what a refetch fetches; a refetch
 * asked for the first page alone replaces the list with it; a page that started before that
 * refetch is not added.
 */
import { configureStore } from '@reduxjs/toolkit';
import {
  Collection,
  createLeanCache,
  Entity,
  firstPageOnly,
  pagination,
  RestEndpoint,
  type CacheState,
} from '../../src/index';
import { gate, requestsSince, startServer, type TestServer } from '../fixtures/server';
import { makeStore } from '../fixtures/store';

class Line extends Entity {
  id = '';
  title = '';
  static override key = 'BothWaysLine';
}

const PAGE = 5;
const ROWS = 25;
let server: TestServer;
let edition = 1;
const holds = new Map<string, Promise<void>>();

beforeAll(async () => {
  server = await startServer();
  server.on('GET /lines', (_request, url) => {
    const cursor = url.searchParams.get('cursor');
    const start = cursor === null ? 10 : Number(cursor);
    const results = Array.from({ length: Math.min(PAGE, ROWS - start) }, (_, i) => ({
      id: String(start + i + 1),
      title: `v${edition}`,
    }));
    const nextCursor = start + PAGE < ROWS ? String(start + PAGE) : null;
    const previousCursor = start > 0 ? String(Math.max(0, start - PAGE)) : null;
    return { json: { results, nextCursor, previousCursor }, hold: holds.get(cursor ?? 'first') };
  });
});
afterAll(() => server.close());
beforeEach(() => {
  edition = 1;
  holds.clear();
});

function setup(options: { maxPages?: number } = {}) {
  const getLines = new RestEndpoint({
    urlPrefix: server.origin,
    path: '/lines',
    searchParams: {} as { cursor?: string },
    schema: {
      results: new Collection([Line]),
      nextCursor: null as string | null,
      previousCursor: null as string | null,
    },
    paginationField: 'cursor',
    ...options,
  });
  const { cache, store } = makeStore();
  const ids = () => cache.selectQuery(store.getState(), getLines.schema.results, {})?.map(line => Number(line.id));
  const record = () => (store.getState().cache as CacheState).entities['Pages([BothWaysLine])']?.['{}'] as any;
  const page = (cursor: string) => store.dispatch(cache.fetch(getLines.getPage, { cursor }));
  return { cache, store, getLines, ids, record, page };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

test('a page loaded with the previous param goes first, and a refetch fetches the pages in the list order', async () => {
  const { cache, store, getLines, ids, record, page } = setup();
  await store.dispatch(cache.fetch(getLines, {}));
  expect(record()).toMatchObject({ pages: [], next: '15', previous: '5' });
  await page('5');
  expect(ids()).toEqual(range(6, 15));
  expect(record()).toEqual({ pages: ['5'], next: '15', previous: '0', base: 1 });
  await page('15');
  expect(ids()).toEqual(range(6, 20));
  expect(record()).toEqual({ pages: ['5', '15'], next: '20', previous: '0', base: 1 });
  edition = 2;
  const since = requestsSince(server);
  await store.dispatch(cache.fetch(getLines, {}));
  expect(since()).toEqual(['/lines?cursor=5', '/lines', '/lines?cursor=15']);
  expect(ids()).toEqual(range(6, 20));
  // The list's other members are those of its own answer.
  expect(cache.selectResponse(store.getState(), getLines, {}).data?.previousCursor).toBe('5');
  expect(record()).toEqual({ pages: ['5', '15'], next: '20', previous: '0', base: 1 });
});

test('the previous param is read from previous<Field>, previous or prev, or previousPageParam', () => {
  const make = (extra: object) =>
    new RestEndpoint({
      path: '/x',
      schema: { results: new Collection([Line]) },
      paginationField: 'cursor',
      ...extra,
    }).pagination!;
  expect(make({}).previous({ previousCursor: 'a', previous: 'b' })).toBe('a');
  expect(make({}).previous({ previous: 'b', prev: 'c' })).toBe('b');
  expect(make({}).previous({ prev: 'c' })).toBe('c');
  expect(make({}).previous({ results: [] })).toBeUndefined();
  expect(make({ previousPageParam: (page: any) => page.before }).previous({ before: 3, prev: 'c' })).toBe(3);
});

test('maxPages: loading next drops the first page held, loading previous the last, each with its rows', async () => {
  const { cache, store, getLines, ids, record, page } = setup({ maxPages: 2 });
  await store.dispatch(cache.fetch(getLines, {}));
  await page('15');
  expect(ids()).toEqual(range(11, 20));
  await page('20');
  // The list's own answer is dropped; the page after it names it as the previous one.
  expect(ids()).toEqual(range(16, 25));
  expect(record()).toMatchObject({ pages: ['15', '20'], base: null, next: null, previous: '10' });
  await page('10');
  expect(ids()).toEqual(range(11, 20));
  // Three pages loaded since the list was fetched, two held: each lens's answer counts the three.
  expect(record()).toMatchObject({ pages: ['10', '15'], base: null, next: '20', previous: '5', loads: 3 });
  await page('5');
  expect(ids()).toEqual(range(6, 15));
  // A refetch fetches the pages held, no more, in order.
  const since = requestsSince(server);
  await store.dispatch(cache.fetch(getLines, {}));
  expect(since()).toEqual(['/lines?cursor=5', '/lines?cursor=10']);
  expect(ids()).toEqual(range(6, 15));
  expect(record()).toMatchObject({ pages: ['5', '10'], base: null, next: '15', previous: '0' });
});

test('maxPages bounds a refetch of a list that held more pages', async () => {
  const unbounded = setup();
  await unbounded.store.dispatch(unbounded.cache.fetch(unbounded.getLines, {}));
  await unbounded.page('15');
  await unbounded.page('20');
  const bounded = setup({ maxPages: 2 });
  const { store, cache, getLines, ids } = makeStoreFrom(bounded, unbounded.store.getState());
  const since = requestsSince(server);
  await store.dispatch(cache.fetch(getLines, {}));
  expect(since()).toEqual(['/lines', '/lines?cursor=15']);
  expect(ids()).toEqual(range(11, 20));
});

function makeStoreFrom(app: ReturnType<typeof setup>, state: unknown) {
  const { cache, store } = makeStore({}, { preloadedState: { cache: (state as { cache: unknown }).cache } });
  const ids = () => cache.selectQuery(store.getState(), app.getLines.schema.results, {})?.map(line => Number(line.id));
  return { cache, store, getLines: app.getLines, ids };
}

test('a refetch of the first page only replaces the list with it, and its record holds no page', async () => {
  const { cache, store, getLines, ids, record, page } = setup();
  await store.dispatch(cache.fetch(getLines, {}));
  await page('15');
  await page('5');
  const since = requestsSince(server);
  await store.dispatch(cache.fetch(firstPageOnly(getLines), {}));
  expect(since()).toEqual(['/lines']);
  expect(ids()).toEqual(range(11, 15));
  // A new count of loads: answers stored at other lenses are fetched again there when read.
  expect(record()).toEqual({ pages: [], next: '15', previous: '5', loads: 3 });
});

test('a page that started before a first-page refetch is not added', async () => {
  const { cache, store, getLines, ids, record, page } = setup();
  await store.dispatch(cache.fetch(getLines, {}));
  const held = gate();
  holds.set('15', held.promise);
  const late = page('15');
  await store.dispatch(cache.fetch(firstPageOnly(getLines), {}));
  held.open();
  await late;
  expect(ids()).toEqual(range(11, 15));
  expect(record()).toEqual({ pages: [], next: '15', previous: '5' });
});

test('which way a page goes is decided as its request starts: a previous page answering after the list moved still goes first', async () => {
  const { cache, store, getLines, ids, record, page } = setup({ maxPages: 2 });
  await store.dispatch(cache.fetch(getLines, {}));
  const held = gate();
  holds.set('5', held.promise);
  // Asked as the list's previous page ('5'), answered after two pages appended moved the list on.
  const earlier = page('5');
  await page('15');
  await page('20');
  expect(record()).toMatchObject({ pages: ['15', '20'], previous: '10' });
  held.open();
  await earlier;
  // Put first, and the last page held goes.
  expect(ids()).toEqual([...range(6, 10), ...range(16, 20)]);
  expect(record()).toMatchObject({ pages: ['5', '15'], base: null, previous: '0', next: '20' });
});

test('maxPages must be a whole number of pages, 1 or more; the page params are read by functions', () => {
  for (const maxPages of [0, 1.5, -1, '2']) {
    expect(() => new RestEndpoint({ path: '/x', paginationField: 'cursor', maxPages: maxPages as number })).toThrow(
      expect.objectContaining({ code: 'INVALID_SCHEMA', message: expect.stringMatching(/^maxPages of GET \/x must/) }),
    );
  }
  for (const option of ['nextPageParam', 'previousPageParam']) {
    expect(() => new RestEndpoint({ path: '/x', paginationField: 'cursor', [option]: 'nextCursor' })).toThrow(
      expect.objectContaining({
        code: 'INVALID_SCHEMA',
        message: expect.stringContaining(`${option} of GET /x must be a function`),
      }),
    );
  }
});

test('a lean cache without the pagination feature refuses a paginated list and its pages before sending, the store unchanged', async () => {
  const { getLines } = setup();
  const build = (features: (typeof pagination)[]) => {
    const cache = createLeanCache({ features });
    const store = configureStore({
      reducer: { cache: cache.reducer },
      middleware: getDefault => getDefault().concat(cache.middleware),
    });
    return { cache, store };
  };
  const lean = build([]);
  const before = lean.store.getState();
  const sent = server.requests.length;
  const refused = expect.objectContaining({
    code: 'FEATURE_MISSING',
    message: expect.stringContaining('needs the pagination feature'),
  });
  expect(() => lean.store.dispatch(lean.cache.fetch(getLines, {}))).toThrow(refused);
  expect(() => lean.store.dispatch(lean.cache.fetch(getLines.getPage, { cursor: '15' }))).toThrow(refused);
  expect(() =>
    lean.store.dispatch(
      lean.cache.setResponse(
        getLines.getPage,
        { cursor: '15' },
        { results: [], nextCursor: null, previousCursor: null },
      ),
    ),
  ).toThrow(refused);
  expect(server.requests.length).toBe(sent);
  expect(lean.store.getState()).toBe(before);
  // With the feature, the list and its page are fetched and the page is held.
  const paged = build([pagination]);
  await paged.store.dispatch(paged.cache.fetch(getLines, {}));
  await paged.store.dispatch(paged.cache.fetch(getLines.getPage, { cursor: '15' }));
  expect((paged.store.getState().cache as CacheState).entities['Pages([BothWaysLine])']?.['{}']).toMatchObject({
    pages: ['15'],
  });
});
