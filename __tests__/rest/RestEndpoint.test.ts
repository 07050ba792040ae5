/**
 * RestEndpoint on its own (see docs/RestEndpoint.md): URLs and keys for every example endpoint,
 * and `endpoint.fetch` against a real local server: bodies, statuses, malformed JSON, aborts.
 */
import { Collection, ErrorCode, LensCacheError, NetworkError, RestEndpoint, Values } from '../../src/index';
import { Article, exampleEndpoints } from '../fixtures/endpoints';
import { startServer, type TestServer } from '../fixtures/server';
import { makeStore } from '../fixtures/store';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('url() and key()', () => {
  const e = exampleEndpoints('');

  test.each([
    [
      '/:group/posts with orderBy and author',
      e.getPosts.url({ group: 'react', orderBy: 'title', author: '7' }),
      '/react/posts?author=7&orderBy=title',
    ],
    ['/:group/posts alone', e.getPosts.url({ group: 'vue' }), '/vue/posts'],
    ['/users', e.getUsers.url(), '/users'],
    ['/tickers/:product_id', e.getTicker.url({ product_id: 'BTC-USD' }), '/tickers/BTC-USD'],
    ['/stats/:product_id', e.getStats.url({ product_id: 'BTC-USD' }), '/stats/BTC-USD'],
    ['/companies?portfolio=…', e.getCompanies.url({ portfolio: 'A' }), '/companies?portfolio=A'],
    ['/companies/columns?portfolio=…', e.getColumns.url({ portfolio: 'B' }), '/companies/columns?portfolio=B'],
  ])('%s', (_, url, expected) => {
    expect(url).toBe(expected);
  });

  test('values are encoded; numbers and booleans written as text; undefined params left out', () => {
    const search = new RestEndpoint({
      path: '/search/:term',
      searchParams: {} as { page?: number; exact?: boolean; tag?: string[] },
    });
    expect(search.url({ term: 'a b/c', page: 2, exact: true, tag: ['x', 'y&z'] })).toBe(
      '/search/a%20b%2Fc?exact=true&page=2&tag=x&tag=y%26z',
    );
    expect(search.url({ term: 'x', page: undefined })).toBe('/search/x');
    expect(new RestEndpoint({ path: '/items/:id' }).url({ id: 5 })).toBe('/items/5');
  });

  test('object query values are keyed canonically; null and undefined are left out', () => {
    const filter = new RestEndpoint({
      path: '/find',
      searchParams: {} as { where?: object; tag?: (string | null)[]; q?: string | null },
    });
    expect(filter.key({ where: { a: 1, b: 2 } })).toBe(filter.key({ where: { b: 2, a: 1 } }));
    expect(filter.url({ q: null, tag: ['x', null] })).toBe('/find?tag=x');
  });

  test('prototype names are ordinary path params; empty and dot values are refused', () => {
    const odd = new RestEndpoint({ path: '/odd/:constructor{/:toString}' });
    expect(odd.url({ constructor: 'c' } as never)).toBe('/odd/c');
    expect(() => odd.url({} as never)).toThrow(/Missing parameters: constructor/);
    const proto = new RestEndpoint({ path: '/p/:__proto__' });
    expect(proto.url(JSON.parse('{"__proto__": "x"}'))).toBe('/p/x');
    expect(() => e.getPost.url({ id: '' })).toThrow(/is "", which would change the path/);
    expect(() => e.getPost.url({ id: '..' })).toThrow(/is "\.\.", which would change the path/);
  });

  test('optional path parts in braces', () => {
    const files = new RestEndpoint({ path: '/files{/:folder}' });
    expect(files.url({})).toBe('/files');
    expect(files.url({ folder: 'docs' })).toBe('/files/docs');
  });

  test('urlPrefix goes first; the key is METHOD url, the same for args in any key order', () => {
    const posts = exampleEndpoints('https://api.example.com').getPosts;
    expect(posts.url({ group: 'react' })).toBe('https://api.example.com/react/posts');
    expect(posts.key({ group: 'react', orderBy: 'title', author: '1' })).toBe(
      posts.key({ author: '1', orderBy: 'title', group: 'react' }),
    );
    expect(posts.key({ group: 'react', orderBy: 'title' })).toBe(
      'GET https://api.example.com/react/posts?orderBy=title',
    );
  });

  test('a mutation key holds its body, in canonical form', () => {
    const create = e.getPosts.push;
    expect(create.method).toBe('POST');
    expect(create.sideEffect).toBe(true);
    expect(create.key({ group: 'r' }, { title: 'a', id: '1' })).toBe(
      create.key({ group: 'r' }, { id: '1', title: 'a' }),
    );
    expect(create.key({ group: 'r' }, { title: 'a' })).not.toBe(create.key({ group: 'r' }, { title: 'b' }));
  });

  test('extend() changes options and keeps the rest', () => {
    const slow = e.getPost.extend({ dataExpiryLength: 5, method: 'PUT' });
    expect(slow.dataExpiryLength).toBe(5);
    expect(slow.method).toBe('PUT');
    expect(slow.schema).toBe(Article);
    expect(slow.url({ id: '3' })).toBe('/posts/3');
  });

  test('collection op endpoints are cached per endpoint, and carry the collection op schemas', () => {
    expect(e.getPosts.push).toBe(e.getPosts.push);
    const collection = e.getPosts.schema;
    expect(e.getPosts.push.schema).toBe(collection.push);
    expect(e.getPosts.unshift.schema).toBe(collection.unshift);
    expect(e.getPosts.remove.schema).toBe(collection.remove);
    expect(e.getPosts.move.schema).toBe(collection.move);
    expect(new RestEndpoint({ path: '/m', schema: new Collection(new Values(Article)) }).assign.method).toBe('POST');
  });

  test('bad set-up and bad args throw clear errors', () => {
    expect(() => new RestEndpoint({ path: '/x/:' })).toThrow(/not a valid template[\s\S]*:name segments/);
    expect(() => e.getPost.push).toThrow(
      expect.objectContaining({
        code: ErrorCode.INVALID_SCHEMA,
        message: expect.stringMatching(/needs a Collection schema/),
      }),
    );
    expect(() => e.getPost.url({} as never)).toThrow(
      /could not be filled[\s\S]*Missing parameters: id[\s\S]*\{ id: '…' \}/,
    );
    expect(() => e.getPost.url({ id: { nested: true } } as never)).toThrow(
      /must be a string or a number, but received object \{nested\}/,
    );
    expect(() => (e.getPost.url as unknown as (id: string) => string)('1')).toThrow(
      /must be its params object, but received string "1"/,
    );
  });
});

describe('fetch()', () => {
  test('GET resolves to the parsed body; process runs with the args', async () => {
    server.on('GET /tickers/:id', (_, url) => ({ json: { product_id: url.pathname.split('/')[2], price: 10 } }));
    const ticker = new RestEndpoint({
      urlPrefix: server.origin,
      path: '/tickers/:product_id',
      process: (value: { price: number }, params: object) => ({ ...value, params }),
    });
    await expect(ticker.fetch({ product_id: 'ETH-USD' })).resolves.toEqual({
      product_id: 'ETH-USD',
      price: 10,
      params: { product_id: 'ETH-USD' },
    });
  });

  test('a mutation sends args[1] as JSON', async () => {
    server.on('POST /:group/posts', request => ({ status: 201, json: { id: '9', ...(request.body as object) } }));
    const create = exampleEndpoints(server.origin).getPosts.push;
    await expect(create.fetch({ group: 'react' }, { title: 'New' })).resolves.toEqual({ id: '9', title: 'New' });
    const last = server.requests[server.requests.length - 1]!;
    expect(last).toMatchObject({ method: 'POST', url: '/react/posts', body: { title: 'New' } });
  });

  test('a non-2xx answer rejects with NetworkError: status, parsed body, and a message that says what to check', async () => {
    server.on('GET /broken', () => ({ status: 500, json: { message: 'database down' } }));
    const broken = new RestEndpoint({ urlPrefix: server.origin, path: '/broken' });
    const error = await broken.fetch().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toBeInstanceOf(LensCacheError);
    expect(error).toMatchObject({
      code: 'NETWORK_ERROR',
      status: 500,
      body: { message: 'database down' },
      name: 'NetworkError',
    });
    expect((error as NetworkError).response.status).toBe(500);
    expect((error as Error).message).toMatch(
      /GET http:\/\/127\.0\.0\.1:\d+\/broken answered 500 Internal Server Error; a 2xx status was expected/,
    );
    // The JSON body's message is quoted: what the server says went wrong.
    expect((error as Error).message).toContain('The server said: "database down".');
    server.on('GET /broken-text', () => ({ status: 502, raw: 'bad gateway', contentType: 'text/plain' }));
    const text = await new RestEndpoint({ urlPrefix: server.origin, path: '/broken-text' }).fetch().catch(e => e);
    expect((text as Error).message).toContain('Body: string "bad gateway".');
  });

  test('malformed JSON on a 2xx rejects with INVALID_RESPONSE; text bodies are returned as text; empty as null', async () => {
    server.on('GET /raw/truncated', () => ({ raw: '{"id": "1", "title": ' }));
    server.on('GET /raw/text', () => ({ raw: 'plain words', contentType: 'text/plain' }));
    server.on('GET /raw/empty', () => ({ status: 204, raw: '' }));
    const { getRaw } = exampleEndpoints(server.origin);
    await expect(getRaw.fetch({ name: 'truncated' })).rejects.toMatchObject({
      code: ErrorCode.INVALID_RESPONSE,
      message: expect.stringMatching(/not valid JSON/),
    });
    await expect(getRaw.fetch({ name: 'text' })).resolves.toBe('plain words');
    await expect(getRaw.fetch({ name: 'empty' })).resolves.toBeNull();
  });

  test('an aborted request rejects with the abort reason', async () => {
    let release!: () => void;
    server.on('GET /raw/slow', () => ({ json: 1, hold: new Promise<void>(resolve => (release = resolve)) }));
    const controller = new AbortController();
    const pending = exampleEndpoints(server.origin).getRaw.request([{ name: 'slow' }], controller.signal);
    await new Promise(resolve => setTimeout(resolve, 20));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    release();
  });
});

test('bad expiry lengths are refused where the endpoint is made', () => {
  for (const options of [{ errorExpiryLength: NaN }, { dataExpiryLength: -1 }, { dataExpiryLength: '5' as never }])
    expect(() => new RestEndpoint({ path: '/posts', ...options })).toThrow(
      expect.objectContaining({ code: 'INVALID_SCHEMA' }),
    );
  expect(new RestEndpoint({ path: '/posts', dataExpiryLength: Infinity }).dataExpiryLength).toBe(Infinity);
});

test('a bad method or paginationField is refused where the endpoint is made, naming the option', () => {
  for (const options of [
    { method: 'FETCH' },
    { method: 5 },
    { method: null },
    { paginationField: '' },
    { paginationField: 2 },
  ])
    expect(() => new RestEndpoint({ path: '/posts', ...(options as object) })).toThrow(
      expect.objectContaining({ code: 'INVALID_SCHEMA', message: expect.stringContaining(Object.keys(options)[0]!) }),
    );
  expect(new RestEndpoint({ path: '/posts', method: 'patch' as 'PATCH' }).method).toBe('PATCH');
  expect(new RestEndpoint({ path: '/posts', method: 'patch' as 'PATCH' }).sideEffect).toBe(true);
});

test('an endpoint object whose sideEffect is not true or false is refused at the fetch, nothing sent', () => {
  const { cache, store } = makeStore();
  let sent = 0;
  const odd = { key: () => 'POST /posts', sideEffect: 'yes' as never, fetch: () => (sent++, Promise.resolve(null)) };
  const before = store.getState();
  expect(() => store.dispatch(cache.fetch(odd))).toThrow(
    expect.objectContaining({ code: 'INVALID_SCHEMA', message: expect.stringContaining('sideEffect') }),
  );
  expect(sent).toBe(0);
  expect(store.getState()).toBe(before);
});
