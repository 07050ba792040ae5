/**
 * A list read at several lenses is one list (docs/pagination.md, "A list read at several
 * lenses"): the lens is a request param, not part of the Collection's `argsKey`, so every lens
 * writes the same list row. After "load more" at lens A, the first read at lens B fetches every
 * page the list holds, at lens B, in order, and replaces them together; the members beside the
 * list (`nextCursor`, `total`) are those lens B's first page carried.
 */
import { Collection, Entity, RestEndpoint, type CacheState } from '../../src/index';
import { requestsSince, startServer, type TestServer } from '../fixtures/server';
import { makeStore } from '../fixtures/store';

class Holding extends Entity {
  id = '';
  name = '';
  static override key = 'LensHolding';
}

const PAGE = 8;
const ROWS = 32;
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  server.on('GET /holdings', (_request, url) => {
    const portfolio = url.searchParams.get('portfolio') ?? '';
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const results = Array.from({ length: PAGE }, (_, i) => ({
      id: String(start + i + 1),
      name: `${portfolio}${start + i + 1}`,
    }));
    const next = start + PAGE < ROWS ? String(start + PAGE) : null;
    return { json: { results, nextCursor: next, total: portfolio === 'A' ? 100 : 200 } };
  });
});
afterAll(() => server.close());

/** The requests of a read of the list that holds three pages, at `portfolio`: its pages in order. */
const threePages = (portfolio: string) =>
  ['', 'cursor=8&', 'cursor=16&'].map(query => `/holdings?${query}portfolio=${portfolio}`);

function endpoint() {
  return new RestEndpoint({
    urlPrefix: server.origin,
    path: '/holdings',
    searchParams: {} as { portfolio: string; cursor?: string },
    // One list for every portfolio: the lens picks the values, not the list.
    schema: {
      results: new Collection([Holding], { argsKey: () => ({}) }),
      nextCursor: null as string | null,
      total: 0,
    },
    paginationField: 'cursor',
  });
}

test('the first read at lens B fetches every page the list holds at lens B, in order, as one write; the list keeps 24 rows at every lens', async () => {
  const getHoldings = endpoint();
  const { cache, store } = makeStore();
  await store.dispatch(cache.fetch(getHoldings, { portfolio: 'A' }));
  await store.dispatch(cache.fetch(getHoldings.getPage, { portfolio: 'A', cursor: '8' }));
  await store.dispatch(cache.fetch(getHoldings.getPage, { portfolio: 'A', cursor: '16' }));
  const at = (portfolio: string) => cache.selectResponse(store.getState(), getHoldings, { portfolio }).data;
  expect(at('A')!.results).toHaveLength(24);
  let actions = 0;
  store.subscribe(() => actions++);
  const sent = requestsSince(server);
  const atB = await store.dispatch(cache.fetch(getHoldings, { portfolio: 'B' }));
  expect(sent()).toEqual(threePages('B'));
  expect(actions).toBe(1);
  expect(atB.results.map(row => row.name)).toEqual(Array.from({ length: 24 }, (_, i) => `B${i + 1}`));
  // The members beside the list are lens B's first page's.
  expect(atB.total).toBe(200);
  expect(atB.nextCursor).toBe('8');
  expect(at('A')!.results).toHaveLength(24);
  expect(at('A')!.total).toBe(100);
  // A refetch at either lens keeps the three pages.
  const again = requestsSince(server);
  await store.dispatch(cache.fetch(getHoldings, { portfolio: 'A' }));
  expect(again()).toEqual(threePages('A'));
  expect(at('B')!.results).toHaveLength(24);
});

test('a page loaded at lens B joins the list the pages of lens A made, and every lens then holds it', async () => {
  const getHoldings = endpoint();
  const { cache, store } = makeStore();
  await store.dispatch(cache.fetch(getHoldings, { portfolio: 'A' }));
  await store.dispatch(cache.fetch(getHoldings.getPage, { portfolio: 'A', cursor: '8' }));
  await store.dispatch(cache.fetch(getHoldings, { portfolio: 'B' }));
  await store.dispatch(cache.fetch(getHoldings.getPage, { portfolio: 'B', cursor: '16' }));
  const sent = requestsSince(server);
  await store.dispatch(cache.fetch(getHoldings, { portfolio: 'A' }));
  expect(sent()).toEqual(threePages('A'));
  expect(cache.selectResponse(store.getState(), getHoldings, { portfolio: 'B' }).data!.results).toHaveLength(24);
  // The record is plain JSON in the slice, beside the list's row.
  const slice = store.getState().cache as CacheState;
  expect(JSON.parse(JSON.stringify(slice.entities['Pages([LensHolding])']))).toEqual({
    '{}': { pages: ['8', '16'], next: '24' },
  });
});
