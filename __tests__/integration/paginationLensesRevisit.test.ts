/**
 * A list read at several lenses, revisited at a lens after a page was loaded at another one (found
 * by the example app's bonds panel): the answer stored at the first lens lacks that page, so it
 * reads as invalid and is fetched again with every page the list holds; the lens that loaded the
 * page reads as it was, with nothing fetched.
 */
import { Collection, Entity, RestEndpoint, Scalar, type LensArgs } from '../../src/index';
import { gate, requestsSince, startServer, type TestServer } from '../fixtures/server';
import { makeStore } from '../fixtures/store';

class Bond extends Entity {
  id = '';
  weight = 0;
  static override key = 'RevisitBond';
  declare static schema: { weight: Scalar };
}
const PortfolioScalar = new Scalar({
  lens: (args: LensArgs<{ portfolio?: string }>) => args[0]?.portfolio,
  key: 'revisitPortfolio',
});
Bond.schema = { weight: PortfolioScalar };

const PAGE = 4;
const ROWS = 12;
/** A portfolio's weight of a bond, different at every portfolio. */
const weight = (portfolio: string, id: string) => Number(id) + (portfolio === 'A' ? 0.1 : 0.2);
let server: TestServer;
/** Answers held back, by `portfolio:cursor`. */
const holds = new Map<string, Promise<void>>();

beforeAll(async () => {
  server = await startServer();
  server.on('GET /bonds', (_request, url) => {
    const portfolio = url.searchParams.get('portfolio') ?? '';
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const results = Array.from({ length: PAGE }, (_, i) => String(start + i + 1)).map(id => ({
      id,
      weight: weight(portfolio, id),
    }));
    const hold = holds.get(`${portfolio}:${url.searchParams.get('cursor') ?? ''}`);
    return { json: { results, nextCursor: start + PAGE < ROWS ? String(start + PAGE) : null }, hold };
  });
});
afterAll(() => server.close());
afterEach(() => holds.clear());

function setup() {
  const getBonds = new RestEndpoint({
    urlPrefix: server.origin,
    path: '/bonds',
    searchParams: {} as { portfolio: string; cursor?: string },
    // One list for every portfolio: the lens picks the values, not the list.
    schema: { results: new Collection([Bond], { argsKey: () => ({}) }), nextCursor: null as string | null },
    paginationField: 'cursor',
  });
  const { cache, store } = makeStore();
  const weights = (portfolio: string) =>
    cache.selectResponse(store.getState(), getBonds, { portfolio }).data?.results.map(bond => bond.weight);
  return { getBonds, cache, store, weights };
}

const weightsAt = (portfolio: string, rows: number) =>
  Array.from({ length: rows }, (_, i) => weight(portfolio, String(i + 1)));

test('back at lens A after a page loaded at lens B: every row reads A’s values, fetched as the pages held', async () => {
  const { getBonds, cache, store, weights } = setup();
  await store.dispatch(cache.fetch(getBonds, { portfolio: 'A' }));
  await store.dispatch(cache.fetch(getBonds.getPage, { portfolio: 'A', cursor: '4' }));
  // The first read at B fetches both pages at B; the third page is loaded at B.
  await store.dispatch(cache.fetch(getBonds, { portfolio: 'B' }));
  await store.dispatch(cache.fetch(getBonds.getPage, { portfolio: 'B', cursor: '8' }));
  expect(weights('B')).toEqual(weightsAt('B', ROWS));

  // B loaded that page itself: its answer holds every page, nothing is fetched.
  const sent = requestsSince(server);
  await store.dispatch(cache.fetchIfStale(getBonds, { portfolio: 'B' }));
  expect(sent()).toEqual([]);
  expect(cache.selectResponse(store.getState(), getBonds, { portfolio: 'A' }).expiryStatus).toBe('invalid');

  // Back at A, as a mounted read does (useSuspense fetches what is not fresh).
  await store.dispatch(cache.fetchIfStale(getBonds, { portfolio: 'A' }));
  expect(weights('A')).toEqual(weightsAt('A', ROWS));
  expect(sent()).toEqual(['/bonds?portfolio=A', '/bonds?cursor=4&portfolio=A', '/bonds?cursor=8&portfolio=A']);
});

test('a refetch at lens B that started before a page was appended at lens A still lacks that page, and is fetched again when read', async () => {
  const { getBonds, cache, store, weights } = setup();
  await store.dispatch(cache.fetch(getBonds, { portfolio: 'A' }));
  await store.dispatch(cache.fetch(getBonds, { portfolio: 'B' }));
  const held = gate();
  holds.set('B:', held.promise);
  await store.dispatch(cache.invalidate(getBonds, { portfolio: 'B' }));
  const refetch = store.dispatch(cache.fetch(getBonds, { portfolio: 'B' }));
  await store.dispatch(cache.fetch(getBonds.getPage, { portfolio: 'A', cursor: '4' }));
  held.open();
  await refetch;
  // The list keeps the page (appended after B's refetch started); A holds it, B does not.
  expect(weights('A')).toEqual(weightsAt('A', 8));
  expect(cache.selectResponse(store.getState(), getBonds, { portfolio: 'B' }).expiryStatus).toBe('invalid');
  const sent = requestsSince(server);
  await store.dispatch(cache.fetchIfStale(getBonds, { portfolio: 'B' }));
  expect(sent()).toEqual(['/bonds?portfolio=B', '/bonds?cursor=4&portfolio=B']);
  expect(weights('B')).toEqual(weightsAt('B', 8));
  await store.dispatch(cache.fetchIfStale(getBonds, { portfolio: 'A' }));
  expect(sent()).toHaveLength(2);
});

test('what each lens holds survives a server render: the browser store fetches only the lens that lacks a page', async () => {
  const ssr = setup();
  await ssr.store.dispatch(ssr.cache.fetch(ssr.getBonds, { portfolio: 'A' }));
  await ssr.store.dispatch(ssr.cache.fetch(ssr.getBonds, { portfolio: 'B' }));
  await ssr.store.dispatch(ssr.cache.fetch(ssr.getBonds.getPage, { portfolio: 'B', cursor: '4' }));
  // The page's HTML carries the state as JSON; the browser's store starts from it.
  const preloadedState = JSON.parse(JSON.stringify(ssr.store.getState()));
  const { cache, store } = makeStore({}, { preloadedState });
  const status = (portfolio: string) =>
    cache.selectResponse(store.getState(), ssr.getBonds, { portfolio }).expiryStatus;
  expect(status('B')).toBe('valid');
  expect(status('A')).toBe('invalid');
  const sent = requestsSince(server);
  await store.dispatch(cache.fetchIfStale(ssr.getBonds, { portfolio: 'B' }));
  expect(sent()).toEqual([]);
  await store.dispatch(cache.fetchIfStale(ssr.getBonds, { portfolio: 'A' }));
  expect(sent()).toEqual(['/bonds?portfolio=A', '/bonds?cursor=4&portfolio=A']);
  const weights = cache
    .selectResponse(store.getState(), ssr.getBonds, { portfolio: 'A' })
    .data?.results.map(bond => bond.weight);
  expect(weights).toEqual(weightsAt('A', 8));
});
