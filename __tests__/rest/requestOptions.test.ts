/**
 * Request options of a cache and of a store (docs/authentication.md): `prepareHeaders` reading the
 * store's state at request time, `credentials`, the `fetch` to use, a per-store `baseUrl` and
 * `timeout`; none of them part of a key; the store's headers and credentials go only to its own
 * origin (relative URLs, the base URL's origin, `trustedOrigins`). Real requests to two local
 * servers, which are two origins.
 */
import { configureStore, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import {
  Collection,
  createCache,
  Entity,
  resource,
  RestEndpoint,
  type Cache,
  type CacheState,
  type RequestApi,
  type RequestOptions,
} from '../../src/index';
import { gate, startServer, type TestServer } from '../fixtures/server';

class Item extends Entity {
  id = '';
  title = '';
  static override key = 'Item';
}

let own: TestServer;
let other: TestServer;
const never = gate();
beforeAll(async () => {
  [own, other] = await Promise.all([startServer(), startServer()]);
  for (const server of [own, other]) {
    server.on('GET /items', () => ({ json: [{ id: '1', title: 'one' }] }));
    server.on('GET /items/:id', request => ({ json: { id: request.url.split('/')[2]!.split('?')[0], title: 'x' } }));
    server.on('GET /slow', () => ({ json: null, hold: never.promise }));
  }
});
afterAll(async () => {
  never.open();
  await Promise.all([own.close(), other.close()]);
});

const token = createSlice({
  name: 'token',
  initialState: 'a' as string | null,
  reducers: { set: (_, action: PayloadAction<string | null>) => action.payload },
});

/** A store of `cache` with a token slice, mounted with `middlewareWith(options)`. */
function storeOf(cache: Cache, options: RequestOptions = {}, preloadedState?: unknown) {
  return configureStore({
    reducer: { cache: cache.reducer, token: token.reducer },
    middleware: getDefault => getDefault().concat(cache.middlewareWith(options)),
    ...(preloadedState === undefined ? {} : { preloadedState: preloadedState as never }),
  });
}

const bearer = (headers: Headers, api: RequestApi) => {
  const value = (api.getState() as { token: string | null }).token;
  if (value !== null) headers.set('authorization', `Bearer ${value}`);
  return headers;
};

const lastOf = (server: TestServer) => server.requests[server.requests.length - 1]!;

test("a token read from the store's state at request time: a new token changes the next request's header, not its key", async () => {
  const cache = createCache({ prepareHeaders: bearer });
  const store = storeOf(cache, { baseUrl: own.origin });
  const getItem = new RestEndpoint({ path: '/items/:id', schema: Item });
  await store.dispatch(cache.fetch(getItem, { id: '1' }));
  expect(lastOf(own).headers.authorization).toBe('Bearer a');
  store.dispatch(token.actions.set('b'));
  await store.dispatch(cache.fetch(getItem, { id: '1' }));
  expect(lastOf(own).headers.authorization).toBe('Bearer b');
  // One key for both: the base URL and the header are not in it.
  expect(Object.keys((store.getState().cache as CacheState).endpoints)).toEqual(['GET /items/1']);
  // Logged out: no header at all.
  store.dispatch(token.actions.set(null));
  await store.dispatch(cache.fetch(getItem, { id: '1' }));
  expect(lastOf(own).headers.authorization).toBeUndefined();
});

test('prepareHeaders may be async, sees the endpoint and its args, and runs after the endpoint’s own headers', async () => {
  const seen: unknown[] = [];
  const cache = createCache({
    async prepareHeaders(headers, { endpoint, args }) {
      await new Promise(resolve => setTimeout(resolve, 1));
      seen.push([endpoint, args, headers.get('x-app')]);
      headers.set('x-later', 'yes');
    },
  });
  const store = storeOf(cache, { baseUrl: own.origin });
  const getItem = new RestEndpoint({ path: '/items/:id', schema: Item, headers: { 'X-App': 'app' } });
  await store.dispatch(cache.fetch(getItem, { id: '2' }));
  expect(lastOf(own).headers).toMatchObject({ 'x-later': 'yes', 'x-app': 'app', accept: 'application/json' });
  expect(seen).toEqual([[getItem, [{ id: '2' }], 'app']]);
});

test("credentials reach fetch for the store's origin, and a store's fetch replaces the cache's", async () => {
  const inits: [string, RequestInit, string][] = [];
  const spy =
    (name: string) =>
    (input: string, init: RequestInit): Promise<Response> => {
      inits.push([input, init, name]);
      return fetch(input, init);
    };
  const cache = createCache({ credentials: 'include', fetch: spy('cache') });
  const getItem = new RestEndpoint({ path: '/items/:id', schema: Item });
  const store = storeOf(cache, { baseUrl: own.origin });
  await store.dispatch(cache.fetch(getItem, { id: '3' }));
  const storeWithFetch = storeOf(cache, { baseUrl: `${own.origin}/`, fetch: spy('store') });
  await storeWithFetch.dispatch(cache.fetch(getItem, { id: '3' }));
  expect(inits.map(([input, init, name]) => [input, init.credentials, name])).toEqual([
    [`${own.origin}/items/3`, 'include', 'cache'],
    [`${own.origin}/items/3`, 'include', 'store'],
  ]);
  // The signal is the cache's, so an abort or a timeout reaches the request.
  expect(inits[0]![1].signal).toBeInstanceOf(AbortSignal);
});

test("the store's token and credentials go to its own origin only, unless trustedOrigins names another", async () => {
  const inits: RequestInit[] = [];
  const cache = createCache({
    prepareHeaders: bearer,
    credentials: 'include',
    fetch: (input, init) => (inits.push(init), fetch(input, init)),
  });
  const mine = new RestEndpoint({ path: '/items/:id', schema: Item });
  const absoluteMine = new RestEndpoint({ urlPrefix: own.origin, path: '/items/:id', schema: Item });
  const theirs = new RestEndpoint({ urlPrefix: other.origin, path: '/items/:id', schema: Item });
  const store = storeOf(cache, { baseUrl: own.origin });
  await store.dispatch(cache.fetch(mine, { id: '1' }));
  expect(lastOf(own).headers.authorization).toBe('Bearer a');
  await store.dispatch(cache.fetch(absoluteMine, { id: '2' }));
  expect(lastOf(own).headers.authorization).toBe('Bearer a');
  await store.dispatch(cache.fetch(theirs, { id: '1' }));
  expect(lastOf(other).headers.authorization).toBeUndefined();
  expect(inits.map(init => init.credentials)).toEqual(['include', 'include', undefined]);
  // Named as trusted, the other origin gets them too.
  const trusting = storeOf(cache, { baseUrl: own.origin, trustedOrigins: [`${other.origin}/`] });
  await trusting.dispatch(cache.fetch(theirs, { id: '2' }));
  expect(lastOf(other).headers.authorization).toBe('Bearer a');
  // An endpoint's own getHeaders is its own business, whatever the origin.
  class Keyed extends RestEndpoint {
    override getHeaders(headers: HeadersInit): HeadersInit {
      return { ...headers, 'x-api-key': 'k' };
    }
  }
  await store.dispatch(
    cache.fetch(new Keyed({ urlPrefix: other.origin, path: '/items/:id', schema: Item }), { id: '3' }),
  );
  expect(lastOf(other).headers).toMatchObject({ 'x-api-key': 'k' });
  expect(lastOf(other).headers.authorization).toBeUndefined();
});

test('with no base URL and no page, an absolute URL is no origin of the store: nothing of the store goes there', async () => {
  const cache = createCache({ prepareHeaders: bearer });
  const store = storeOf(cache);
  await store.dispatch(cache.fetch(new RestEndpoint({ urlPrefix: own.origin, path: '/items/:id' }), { id: '4' }));
  expect(lastOf(own).headers.authorization).toBeUndefined();
});

test('a server render and a browser store with different base URLs make equal keys: hydration fetches nothing', async () => {
  const cache = createCache();
  const getItems = new RestEndpoint({ path: '/items', schema: [Item] });
  const server = storeOf(cache, { baseUrl: own.origin });
  await server.dispatch(cache.fetch(getItems));
  const sent = own.count('GET /items');
  // The browser's store reaches the same API under another name (localhost), or through its page.
  const browser = storeOf(
    cache,
    { baseUrl: own.origin.replace('127.0.0.1', 'localhost') },
    JSON.parse(JSON.stringify(server.getState())),
  );
  const shown = await browser.dispatch(cache.fetchIfStale(getItems));
  expect(shown).toEqual([expect.objectContaining({ id: '1', title: 'one' })]);
  expect(own.count('GET /items')).toBe(sent);
  expect(cache.selectResponse(browser.getState(), getItems).data).toEqual(
    cache.selectResponse(server.getState(), getItems).data,
  );
});

test("a store's timeout replaces the cache's, and fails with TIMEOUT as the key's error", async () => {
  const cache = createCache({ timeout: 60_000 });
  const store = storeOf(cache, { baseUrl: own.origin, timeout: 30 });
  const slow = new RestEndpoint({ path: '/slow' });
  const error = await store.dispatch(cache.fetch(slow)).catch((e: unknown) => e);
  expect(error).toMatchObject({ code: 'TIMEOUT' });
  expect(cache.selectResponse(store.getState(), slow).error).toBe(error);
});

test('resource({ Endpoint }) endpoints get the store options too, and keep their keys', async () => {
  const cache = createCache({ prepareHeaders: bearer });
  const ItemResource = resource({ path: '/items/:id', schema: Item });
  const store = storeOf(cache, { baseUrl: own.origin });
  await store.dispatch(cache.fetch(ItemResource.getList));
  expect(lastOf(own)).toMatchObject({ url: '/items', headers: expect.objectContaining({ authorization: 'Bearer a' }) });
  expect(ItemResource.getList.key()).toBe('GET /items');
});

describe('bad request options are refused where they are given, and nothing is made', () => {
  test.each([
    ['baseUrl', 'api.internal'],
    ['baseUrl', 'ftp://files.example.com'],
    ['baseUrl', 42],
    ['baseUrl', null],
    ['baseUrl', ['/api']],
    ['baseUrl', '//api.example.com'],
    ['trustedOrigins', [['https://example.com']]],
    ['credentials', 'yes'],
    ['trustedOrigins', ['example.com']],
    ['trustedOrigins', 'https://example.com'],
    ['fetch', 'fetch'],
    ['prepareHeaders', {}],
    ['timeout', -1],
    ['timeout', Number.NaN],
  ])('%s: %p', (name, value) => {
    const options = { [name]: value } as RequestOptions;
    expect(() => createCache(options)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
    expect(() => createCache().middlewareWith(options)).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining(name) }),
    );
  });
});

test("a refetch of a list that holds pages sends every page with the store's options", async () => {
  class Row extends Entity {
    id = '';
    static override key = 'Row';
  }
  own.on('GET /rows', (_, url) =>
    url.searchParams.get('cursor')
      ? { json: { results: [{ id: 'b' }], next: null } }
      : { json: { results: [{ id: 'a' }], next: '1' } },
  );
  const getRows = new RestEndpoint({
    path: '/rows',
    schema: { results: new Collection([Row]), next: null as string | null },
    paginationField: 'cursor',
  });
  const cache = createCache({ prepareHeaders: bearer });
  const store = storeOf(cache, { baseUrl: own.origin });
  const since = own.requests.length;
  await store.dispatch(cache.fetch(getRows));
  await store.dispatch(cache.fetch(getRows.getPage, { cursor: '1' }));
  store.dispatch(cache.invalidate(getRows));
  await store.dispatch(cache.fetch(getRows));
  const sent = own.requests.slice(since).map(request => [request.url, request.headers.authorization]);
  expect(sent).toEqual([
    ['/rows', 'Bearer a'],
    ['/rows?cursor=1', 'Bearer a'],
    ['/rows', 'Bearer a'],
    ['/rows?cursor=1', 'Bearer a'],
  ]);
});
