/**
 * RestEndpoint's request steps (docs/RestEndpoint.md, "Request steps"): a subclass overrides
 * getHeaders, getRequestInit, fetchResponse or parseResponse, sync or async; the endpoints it
 * derives (extend, push, getPage) and resource({ Endpoint }) use the overrides; a throwing step
 * fails the request before anything is sent.
 */
import { Collection, Entity, NetworkError, resource, RestEndpoint, type RestEndpointOptions } from '../../src/index';
import { startServer, type TestServer } from '../fixtures/server';
import { makeStore } from '../fixtures/store';

class Item extends Entity {
  id = '';
  title = '';
  static override key = 'Item';
}

class AuthedEndpoint<const O extends RestEndpointOptions = RestEndpointOptions> extends RestEndpoint<O> {
  /** A member of the subclass's own: resource({ Endpoint }) endpoints have it in their type. */
  readonly realm = 'test';
  override getHeaders(headers: HeadersInit): HeadersInit {
    return { ...headers, Authorization: 'Bearer x' };
  }
}

class AsyncAuthedEndpoint<const O extends RestEndpointOptions = RestEndpointOptions> extends RestEndpoint<O> {
  override async getHeaders(headers: HeadersInit): Promise<HeadersInit> {
    await new Promise(resolve => setTimeout(resolve, 1));
    return { ...headers, 'X-Token': 'later' };
  }
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  server.on('GET /items', (_, url) => {
    const page = Number(url.searchParams.get('page') ?? 0);
    return { json: [{ id: `i${page}`, title: `page ${page}` }] };
  });
  server.on('POST /items', request => ({ json: { id: 'new', ...(request.body as object) } }));
  server.on('GET /items/:id', request => ({ json: { id: request.url.split('/')[2], title: 'one' } }));
  server.on('GET /report', () => ({ raw: 'id,title\n1,a\n2,b', contentType: 'text/csv' }));
});
afterAll(() => server.close());

const last = () => server.requests[server.requests.length - 1]!;

test('a sync getHeaders adds a header the server sees; the endpoint headers and Accept still go', async () => {
  const getItems = new AuthedEndpoint({ urlPrefix: server.origin, path: '/items', headers: { 'X-App': 'a' } });
  await getItems.fetch();
  expect(last().headers).toMatchObject({ authorization: 'Bearer x', 'x-app': 'a', accept: 'application/json' });
  // Without the subclass, no such header.
  await new RestEndpoint({ urlPrefix: server.origin, path: '/items' }).fetch();
  expect(last().headers.authorization).toBeUndefined();
});

test('an async getHeaders is awaited; a JSON body keeps its content type', async () => {
  const create = new AsyncAuthedEndpoint({ urlPrefix: server.origin, path: '/items', method: 'POST' });
  await expect(create.fetch({}, { title: 'T' })).resolves.toEqual({ id: 'new', title: 'T' });
  expect(last().headers).toMatchObject({ 'x-token': 'later', 'content-type': 'application/json' });
  expect(last().text).toBe('{"title":"T"}');
});

test("the endpoint's headers replace Accept and Content-Type whatever their case", async () => {
  const patch = new AuthedEndpoint({
    urlPrefix: server.origin,
    path: '/items',
    method: 'POST',
    headers: { 'content-type': 'application/merge-patch+json', ACCEPT: 'text/plain' },
  });
  await patch.fetch({}, { title: 'T' });
  expect(last().headers).toMatchObject({ 'content-type': 'application/merge-patch+json', accept: 'text/plain' });
});

test('getRequestInit adds credentials, and the signal is set on the init after it', async () => {
  const seen: RequestInit[] = [];
  class WithCredentials extends RestEndpoint {
    override async getRequestInit(body: unknown): Promise<RequestInit> {
      // An override cannot drop the cache's signal: request() sets it after this step.
      return { ...(await super.getRequestInit(body)), credentials: 'include', signal: null };
    }
    override fetchResponse(input: RequestInfo, init: RequestInit): Promise<Response> {
      seen.push(init);
      return super.fetchResponse(input, init);
    }
  }
  const endpoint = new WithCredentials({ urlPrefix: server.origin, path: '/items' });
  const controller = new AbortController();
  await endpoint.request([{}], controller.signal);
  expect(seen[0]).toMatchObject({ method: 'GET', credentials: 'include', headers: { accept: 'application/json' } });
  expect(seen[0]!.signal).toBe(controller.signal);
});

test('a custom fetchResponse and parseResponse: the answer read as CSV, then process', async () => {
  const urls: string[] = [];
  class CsvEndpoint<const O extends RestEndpointOptions = RestEndpointOptions> extends RestEndpoint<O> {
    override fetchResponse(input: RequestInfo, init: RequestInit): Promise<Response> {
      urls.push(String(input));
      return fetch(input, init);
    }
    override async parseResponse(response: Response): Promise<unknown> {
      const [head, ...rows] = (await response.text()).split('\n');
      const names = head!.split(',');
      return rows.map(row => Object.fromEntries(row.split(',').map((value, i) => [names[i], value])));
    }
  }
  const report = new CsvEndpoint({
    urlPrefix: server.origin,
    path: '/report',
    process: (rows: Array<{ id: string }>) => rows.map(row => row.id),
  });
  await expect(report.fetch()).resolves.toEqual(['1', '2']);
  expect(urls).toEqual([`${server.origin}/report`]);
});

test('the default fetchResponse rejects a non-2xx answer with NetworkError before parseResponse runs', async () => {
  let parsed = 0;
  class Counting extends RestEndpoint {
    override parseResponse(response: Response): Promise<unknown> {
      parsed++;
      return super.parseResponse(response);
    }
  }
  const missing = new Counting({ urlPrefix: server.origin, path: '/nothing' });
  await expect(missing.fetch()).rejects.toBeInstanceOf(NetworkError);
  expect(parsed).toBe(0);
});

test("a subclass's push, getPage and extend results are of the subclass and send its header", async () => {
  const getItems = new AuthedEndpoint({
    urlPrefix: server.origin,
    path: '/items',
    schema: new Collection([Item]),
    paginationField: 'page',
  });
  const { cache, store } = makeStore();
  await store.dispatch(cache.fetch(getItems, {}));
  const derived = [getItems.push, getItems.getPage, getItems.extend({ dataExpiryLength: 5 })];
  for (const endpoint of derived) expect(endpoint).toBeInstanceOf(AuthedEndpoint);
  await store.dispatch(cache.fetch(getItems.push, {}, { title: 'pushed' }));
  expect(last()).toMatchObject({ method: 'POST', headers: { authorization: 'Bearer x' } });
  await store.dispatch(cache.fetch(getItems.getPage, { page: 1 }));
  expect(last()).toMatchObject({ url: '/items?page=1', headers: { authorization: 'Bearer x' } });
  await getItems.extend({ dataExpiryLength: 5 }).fetch();
  expect(last()).toMatchObject({ url: '/items', headers: { authorization: 'Bearer x' } });
});

test('resource({ Endpoint }) makes all five endpoints with the class; a non-class is INVALID_OPTION', async () => {
  const Items = resource({ urlPrefix: server.origin, path: '/items/:id', schema: Item, Endpoint: AuthedEndpoint });
  for (const endpoint of [Items.get, Items.getList, Items.update, Items.partialUpdate, Items.delete])
    expect(endpoint).toBeInstanceOf(AuthedEndpoint);
  // The subclass's own members are in the endpoints' type.
  expect(Items.get.realm satisfies string).toBe('test');
  await Items.get.fetch({ id: '1' });
  expect(last()).toMatchObject({ url: '/items/1', headers: { authorization: 'Bearer x' } });
  await Items.getList.push.fetch({}, { title: 'made' });
  expect(last()).toMatchObject({ method: 'POST', headers: { authorization: 'Bearer x' } });
  expect(resource({ path: '/items/:id', schema: Item }).get).not.toBeInstanceOf(AuthedEndpoint);
  for (const Endpoint of [() => new RestEndpoint({ path: '/x' }), 'RestEndpoint', null, Object])
    expect(() => resource({ path: '/items/:id', schema: Item, Endpoint: Endpoint as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining('Endpoint') }),
    );
});

test('a step that throws fails the request with its error, sends nothing, and is stored as any failure is', async () => {
  const failure = new Error('no token');
  class NoToken<const O extends RestEndpointOptions = RestEndpointOptions> extends RestEndpoint<O> {
    override getHeaders(): HeadersInit {
      throw failure;
    }
  }
  const sent = server.requests.length;
  const getItems = new NoToken({ urlPrefix: server.origin, path: '/items', schema: new Collection([Item]) });
  await expect(getItems.fetch()).rejects.toBe(failure);
  const { cache, store } = makeStore();
  await store.dispatch(
    cache.fetch(new RestEndpoint({ urlPrefix: server.origin, path: '/items/:id', schema: Item }), { id: '1' }),
  );
  const before = store.getState().cache;
  const sentBefore = server.requests.length;
  await expect(store.dispatch(cache.fetch(getItems))).rejects.toBe(failure);
  const create = new NoToken({ urlPrefix: server.origin, path: '/items', method: 'POST', schema: Item });
  await expect(store.dispatch(cache.fetch(create, {}, { title: 'x' }))).rejects.toBe(failure);
  expect(server.requests.length).toBe(sentBefore);
  expect(sentBefore).toBe(sent + 1);
  // Each key records its error (as a refused connection would be); every row and result is as it was.
  const after = store.getState().cache;
  expect(after.entities).toBe(before.entities);
  expect(after.endpoints).toBe(before.endpoints);
  expect(cache.selectResponse(store.getState(), getItems).error).toBe(failure);
  expect(Object.keys(after.meta).filter(key => !(key in before.meta))).toEqual([
    getItems.key(),
    create.key({}, { title: 'x' }),
  ]);
});

test('headers are not part of the key', () => {
  const options = { urlPrefix: server.origin, path: '/items/:id' } as const;
  const plain = new RestEndpoint(options);
  const authed = new AuthedEndpoint({ ...options, headers: { 'X-App': 'a' } });
  expect(authed.key({ id: '1' })).toBe(plain.key({ id: '1' }));
  expect(authed.key({ id: '1' })).toBe(`GET ${server.origin}/items/1`);
});

test('a direct fetch (no signal of its own) keeps the signal getRequestInit sets', async () => {
  const stop = new AbortController();
  stop.abort(new Error('stopped by the init'));
  class Stopped<const O extends RestEndpointOptions = RestEndpointOptions> extends RestEndpoint<O> {
    override async getRequestInit(body: unknown): Promise<RequestInit> {
      return { ...(await super.getRequestInit(body)), signal: stop.signal };
    }
  }
  const getItems = new Stopped({ urlPrefix: server.origin, path: '/items', schema: [Item] });
  await expect(getItems.fetch()).rejects.toThrow('stopped by the init');
});
