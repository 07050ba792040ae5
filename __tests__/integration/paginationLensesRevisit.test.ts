/**
 * A list read at several lenses, revisited at a lens after a page was loaded at another one.
 * Known gap (found by the example app's bonds panel): the lens read before the page has no values
 * for that page's rows, and its stored answer still reads as fresh, so nothing fetches them and
 * the rows show without that lens's values until the answer goes stale. `test.failing` until the
 * library decides and fixes it: then turn it into a plain `test`.
 */
import { Collection, Entity, RestEndpoint, Scalar, type LensArgs } from '../../src/index';
import { requestsSince, startServer, type TestServer } from '../fixtures/server';
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

beforeAll(async () => {
  server = await startServer();
  server.on('GET /bonds', (_request, url) => {
    const portfolio = url.searchParams.get('portfolio') ?? '';
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const results = Array.from({ length: PAGE }, (_, i) => String(start + i + 1)).map(id => ({
      id,
      weight: weight(portfolio, id),
    }));
    return { json: { results, nextCursor: start + PAGE < ROWS ? String(start + PAGE) : null } };
  });
});
afterAll(() => server.close());

test.failing(
  'back at lens A after a page loaded at lens B: every row reads A’s values, fetched as the pages held',
  async () => {
    const getBonds = new RestEndpoint({
      urlPrefix: server.origin,
      path: '/bonds',
      searchParams: {} as { portfolio: string; cursor?: string },
      // One list for every portfolio: the lens picks the values, not the list.
      schema: { results: new Collection([Bond], { argsKey: () => ({}) }), nextCursor: null as string | null },
      paginationField: 'cursor',
    });
    const { cache, store } = makeStore();
    await store.dispatch(cache.fetch(getBonds, { portfolio: 'A' }));
    await store.dispatch(cache.fetch(getBonds.getPage, { portfolio: 'A', cursor: '4' }));
    // The first read at B fetches both pages at B; the third page is loaded at B.
    await store.dispatch(cache.fetch(getBonds, { portfolio: 'B' }));
    await store.dispatch(cache.fetch(getBonds.getPage, { portfolio: 'B', cursor: '8' }));
    const weights = (portfolio: string) =>
      cache.selectResponse(store.getState(), getBonds, { portfolio }).data?.results.map(bond => bond.weight);
    expect(weights('B')).toEqual(Array.from({ length: ROWS }, (_, i) => weight('B', String(i + 1))));

    // Back at A, as a mounted read does (useSuspense fetches what is not fresh).
    const sent = requestsSince(server);
    await store.dispatch(cache.fetchIfStale(getBonds, { portfolio: 'A' }));
    expect(weights('A')).toEqual(Array.from({ length: ROWS }, (_, i) => weight('A', String(i + 1))));
    expect(sent()).toEqual(['/bonds?portfolio=A', '/bonds?cursor=4&portfolio=A', '/bonds?cursor=8&portfolio=A']);
  },
);
