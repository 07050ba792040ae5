/**
 * The token-refresh recipe of docs/authentication.md, run as the page shows it
 * (docs/examples/authentication.ts) against a real local server: a 401 is answered by one refresh
 * and one more try; requests that meet the expired token together share one refresh; a second 401
 * is final (no loop); a refused refresh ends the session.
 */
import { RestEndpoint, type NetworkError } from '../../src/index';
import { cache, makeStore, session } from '../../docs/examples/authentication';
import { startServer, type TestServer } from '../fixtures/server';

let server: TestServer;
/** Another site, which answers 401 to everything. */
let other: TestServer;
/** The tokens the server accepts now, and the refresh tokens it will exchange. */
const valid = new Set<string>();
const refreshable = new Set<string>();
/** Whether a refresh hands out a token the server accepts (false: a broken server, to show there is no loop). */
let refreshWorks = true;
let issued = 0;

beforeAll(async () => {
  [server, other] = await Promise.all([startServer(), startServer()]);
  other.on('GET /tiles/:id', () => ({ status: 401, json: { message: 'no key' } }));
  server.on('GET /me/items/:id', request => {
    const token = (request.headers.authorization ?? '').replace('Bearer ', '');
    if (!valid.has(token)) return { status: 401, json: { message: 'token expired' } };
    return { json: { id: request.url.split('/')[3], token } };
  });
  server.on('POST /auth/refresh', request => {
    const { refreshToken } = request.body as { refreshToken: string };
    if (!refreshable.delete(refreshToken)) return { status: 401, json: { message: 'refresh refused' } };
    const token = `t${++issued}`;
    if (refreshWorks) valid.add(token);
    refreshable.add(`r${issued}`);
    return { json: { token, refreshToken: `r${issued}` } };
  });
});
afterAll(() => Promise.all([server.close(), other.close()]));

beforeEach(() => {
  valid.clear();
  refreshable.clear();
  refreshWorks = true;
});

const getMine = new RestEndpoint({ path: '/me/items/:id' });
const refreshes = () => server.count('POST /auth/refresh');
const sends = (id: string) => server.count(`GET /me/items/${id}`);

/** A browser-like store of the recipe, logged in with a token the server has just expired. */
function loggedInWithExpiredToken() {
  const store = makeStore(server.origin);
  refreshable.add('r-old');
  store.dispatch(session.actions.loggedIn({ token: 'old', refreshToken: 'r-old' }));
  return store;
}

test('three requests that meet the expired token together share one refresh, and each is sent once more', async () => {
  const store = loggedInWithExpiredToken();
  const before = refreshes();
  const ids = ['a', 'b', 'c'];
  const counts = ids.map(sends);
  const answers = await Promise.all(ids.map(id => store.dispatch(cache.fetch(getMine, { id }))));
  expect(refreshes() - before).toBe(1);
  const token = store.getState().session.token!;
  expect(answers).toEqual(ids.map(id => ({ id, token })));
  expect(ids.map(sends)).toEqual(counts.map(count => count + 2));
  // The next request sends the new token first time.
  await store.dispatch(cache.fetch(getMine, { id: 'd' }));
  expect(sends('d')).toBe(1);
});

test('a 401 after the refresh is final: the request fails with it, with no second refresh', async () => {
  refreshWorks = false;
  const store = loggedInWithExpiredToken();
  const before = refreshes();
  const results = await Promise.allSettled(['e', 'f'].map(id => store.dispatch(cache.fetch(getMine, { id }))));
  expect(results.map(result => result.status)).toEqual(['rejected', 'rejected']);
  expect(((results[0] as PromiseRejectedResult).reason as NetworkError).status).toBe(401);
  expect(refreshes() - before).toBe(1);
  expect([sends('e'), sends('f')]).toEqual([2, 2]);
  // The failure is the key's stored error, as any failed request's.
  expect(cache.selectResponse(store.getState(), getMine, { id: 'e' }).error).toMatchObject({ status: 401 });
});

test('a refused refresh ends the session; the request fails with its 401 and the next one sends no token', async () => {
  const store = makeStore(server.origin);
  store.dispatch(session.actions.loggedIn({ token: 'old', refreshToken: 'not-known' }));
  await expect(store.dispatch(cache.fetch(getMine, { id: 'g' }))).rejects.toMatchObject({ status: 401 });
  expect(store.getState().session).toEqual({ token: null, refreshToken: null });
  expect(sends('g')).toBe(1);
  await expect(store.dispatch(cache.fetch(getMine, { id: 'h' }))).rejects.toMatchObject({ status: 401 });
  expect(server.requests[server.requests.length - 1]!.headers.authorization).toBeUndefined();
});

test("a 401 from another site is that site's answer: no refresh, and the token is not sent there on a second try", async () => {
  const store = loggedInWithExpiredToken();
  const before = refreshes();
  const getTile = new RestEndpoint({ urlPrefix: other.origin, path: '/tiles/:id' });
  await expect(store.dispatch(cache.fetch(getTile, { id: '1' }))).rejects.toMatchObject({ status: 401 });
  expect(other.requests.map(request => request.headers.authorization)).toEqual([undefined]);
  expect(refreshes()).toBe(before);
});
