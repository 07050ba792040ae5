/**
 * Server state into the browser's store (docs/server-rendering.md): `serializeState` is safe in a
 * `<script>`; `hydrate` merges state from outside under the ordering rules and refuses hostile
 * input with the store unchanged; `streamState` and `receiveState` carry a streamed render's
 * writes, part by part, into another store, which then fetches nothing. Real requests to a local
 * server.
 */
import { createCache, Entity, hydrate, receiveState, RestEndpoint, serializeState, streamState } from '../../src/index';
import type { CacheState } from '../../src/index';
import { startServer, type TestServer } from '../fixtures/server';
import { makeStore, snapshot } from '../fixtures/store';

class Product extends Entity {
  id = '';
  name = '';
  static override key = 'Product';
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  server.on('GET /products/:id', request => ({
    json: { id: request.url.split('/')[2], name: `p${request.url.split('/')[2]}` },
  }));
  server.on('GET /hostile', () => ({ json: { id: 'x', name: '</script><script>window.__pwned = 1</script>\u2028' } }));
});
afterAll(() => server.close());

const sliceOf = (state: unknown) => (state as { cache: CacheState }).cache;

describe('serializeState', () => {
  test('escapes what could end a script, and reads back as the same value', () => {
    const value = { name: '</script><script>window.__pwned = 1</script>', amp: 'a & b > c', line: 'x\u2028y\u2029z' };
    const text = serializeState(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(text).toContain('\\u003c/script\\u003e');
    expect(JSON.parse(text)).toEqual(value);
    // As a JavaScript literal too.
    expect(new Function(`return ${text}`)()).toEqual(value);
    expect(serializeState(undefined)).toBe('null');
  });
});

describe('hydrate', () => {
  test("merges a server's slice: what the store lacks or holds older is taken; what it holds newer stays", async () => {
    const endpoint = new RestEndpoint({ urlPrefix: server.origin, path: '/products/:id', schema: Product });
    const serverSide = makeStore();
    await serverSide.store.dispatch(serverSide.cache.fetch(endpoint, { id: '1' }));
    await serverSide.store.dispatch(serverSide.cache.fetch(endpoint, { id: '2' }));
    const sent = JSON.parse(serializeState(sliceOf(serverSide.store.getState())));
    // The browser's store wrote product 2 after the server did.
    const browser = makeStore();
    await new Promise(resolve => setTimeout(resolve, 2));
    browser.store.dispatch(browser.cache.set(Product, { id: '2', name: 'newer in the browser' }));
    browser.store.dispatch(hydrate(browser.cache, sent));
    const state = browser.store.getState();
    expect(browser.cache.selectQuery(state, Product, '1')).toMatchObject({ name: 'p1' });
    expect(browser.cache.selectQuery(state, Product, '2')).toMatchObject({ name: 'newer in the browser' });
    // The responses came with their expiry: valid in the browser as on the server.
    expect(browser.cache.selectResponse(state, endpoint, { id: '1' })).toMatchObject({ expiryStatus: 'valid' });
    expect(sliceOf(state).meta[endpoint.key({ id: '1' })]).toEqual(
      sliceOf(serverSide.store.getState()).meta[endpoint.key({ id: '1' })],
    );
    // The same state again writes nothing.
    browser.store.dispatch(hydrate(browser.cache, sent));
    expect(browser.store.getState()).toBe(state);
  });

  const now = Date.now();
  const meta = { fetchedAt: now, date: now, expiresAt: now + 60_000 };
  const cyclic: Record<string, unknown> = { id: 'c', name: 'loop' };
  cyclic.self = cyclic;
  const hostile: Array<[string, unknown]> = [
    ['not an object', 'state'],
    ['a map that is not an object', { entities: 5 }],
    ['a table that is not an object', { entities: { Product: [1] } }],
    ['a row with a cycle', { entities: { Product: { c: cyclic } }, entitiesMeta: { Product: { c: meta } } }],
    ['a row holding a function', { entities: { Product: { f: { id: 'f', name: () => 1 } } } }],
    ['a stamp beyond safe integers', { meta: { k: { ...meta, fetchedAt: 1e300 } }, endpoints: { k: 'x' } }],
    [
      'a stamp far in the future',
      {
        entities: { Product: { p: { id: 'p' } } },
        entitiesMeta: { Product: { p: { ...meta, fetchedAt: now + 10 * 86_400_000 } } },
      },
    ],
    ['a meta that is not an object', { meta: { k: 7 } }],
    ['NaN in a row', { entities: { Product: { n: { id: 'n', name: Number.NaN } } } }],
  ];
  test.each(hostile)('%s is UNEXPECTED_INPUT, and the store is unchanged', (_, value) => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Product, { id: 'kept', name: 'kept' }));
    const before = store.getState();
    expect(() => store.dispatch(hydrate(cache, value))).toThrow(expect.objectContaining({ code: 'UNEXPECTED_INPUT' }));
    expect(store.getState()).toBe(before);
  });

  test('a __proto__ key is a row like any other: no prototype is written', () => {
    const { cache, store } = makeStore();
    const text = `{"entities":{"Product":{"__proto__":{"id":"__proto__","name":"polluted","isAdmin":true}}},"entitiesMeta":{"Product":{"__proto__":${JSON.stringify(meta)}}},"meta":{"__proto__":${JSON.stringify(meta)}},"endpoints":{"__proto__":"__proto__"}}`;
    store.dispatch(hydrate(cache, JSON.parse(text)));
    expect(({} as { isAdmin?: boolean }).isAdmin).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('name', 'polluted');
    expect(cache.selectQuery(store.getState(), Product, '__proto__')).toMatchObject({ name: 'polluted' });
  });

  test("a server's clock ahead of the browser's: the browser's next request still wins over what it took", async () => {
    let served = 0;
    server.on('GET /clock/:id', request => ({ json: { id: request.url.split('/')[2], name: `browser ${++served}` } }));
    const getClock = new RestEndpoint({ urlPrefix: server.origin, path: '/clock/:id', schema: Product });
    const { cache, store } = makeStore();
    const ahead = Date.now() + 10 * 60_000;
    const aheadMeta = { fetchedAt: ahead, date: ahead, expiresAt: ahead + 60_000 };
    const key = getClock.key({ id: '1' });
    store.dispatch(
      hydrate(cache, {
        entities: { Product: { '1': { id: '1', name: 'server' } } },
        entitiesMeta: { Product: { '1': aheadMeta } },
        endpoints: { [key]: '1' },
        meta: { [key]: aheadMeta },
      }),
    );
    await store.dispatch(cache.fetch(getClock, { id: '1' }));
    expect(cache.selectQuery(store.getState(), Product, '1')).toMatchObject({ name: 'browser 1' });
  });

  test('a store without the cache middleware is MIDDLEWARE_MISSING', () => {
    const cache = createCache();
    const dispatch = () => undefined;
    const run = hydrate(cache, {}) as unknown as (d: typeof dispatch, g: () => unknown) => void;
    expect(() => run(dispatch, () => ({}))).toThrow(expect.objectContaining({ code: 'MIDDLEWARE_MISSING' }));
  });
});

describe('streamState and receiveState', () => {
  afterEach(() => {
    delete (globalThis as Record<string, unknown>).__LENSCACHE__;
  });

  /** Runs a script `streamState` wrote, as the browser would. */
  function run(script: string): void {
    const match = /^<script(?: nonce="[^"]*")?>([\s\S]*)<\/script>$/.exec(script);
    expect(match).not.toBeNull();
    new Function('self', match![1]!)(globalThis);
  }

  test("a streamed render's writes reach the browser's store part by part; it then fetches nothing", async () => {
    const getProduct = new RestEndpoint({ urlPrefix: server.origin, path: '/products/:id', schema: Product });
    const cache = createCache();
    const serverSide = makeStore({}, { cache });
    const stream = streamState(serverSide.store, cache);
    await serverSide.store.dispatch(cache.fetch(getProduct, { id: '1' }));
    const first = stream.next();
    expect(stream.next()).toBe('');
    await serverSide.store.dispatch(cache.fetch(getProduct, { id: '2' }));
    const second = stream.next();
    // The second part holds only what the second boundary's data wrote.
    expect(second).toContain('p2');
    expect(second).not.toContain('p1');

    // The browser: the first script ran before the app's code, the second after.
    run(first);
    const browser = makeStore({}, { cache });
    const stop = receiveState(browser.store, cache);
    expect(cache.selectQuery(browser.store.getState(), Product, '1')).toMatchObject({ name: 'p1' });
    run(second);
    expect(cache.selectQuery(browser.store.getState(), Product, '2')).toMatchObject({ name: 'p2' });
    stop();
    const sent = server.count();
    await browser.store.dispatch(cache.fetchIfStale(getProduct, { id: '1' }));
    await browser.store.dispatch(cache.fetchIfStale(getProduct, { id: '2' }));
    expect(server.count()).toBe(sent);
    expect(snapshot(sliceOf(browser.store.getState()).entities)).toEqual(
      snapshot(sliceOf(serverSide.store.getState()).entities),
    );
  });

  test('a hostile name stays text in the script; a nonce is set, and a bad one refused', async () => {
    const getHostile = new RestEndpoint({ urlPrefix: server.origin, path: '/hostile', schema: Product });
    const cache = createCache();
    const serverSide = makeStore({}, { cache });
    await serverSide.store.dispatch(cache.fetch(getHostile));
    const script = streamState(serverSide.store, cache, { nonce: 'abc123' }).next();
    expect(script.startsWith('<script nonce="abc123">')).toBe(true);
    // One script: the name's </script> is escaped.
    expect(script.match(/<\/script>/g)).toHaveLength(1);
    run(script);
    const browser = makeStore({}, { cache });
    receiveState(browser.store, cache)();
    expect(cache.selectQuery(browser.store.getState(), Product, 'x')?.name).toBe(
      '</script><script>window.__pwned = 1</script>\u2028',
    );
    expect(() => streamState(serverSide.store, cache, { nonce: '"><script>' })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION' }),
    );
  });

  test('code() is the script without its tags, for a framework that writes the element; it shares what was sent with next()', async () => {
    const getProduct = new RestEndpoint({ urlPrefix: server.origin, path: '/products/:id', schema: Product });
    const getHostile = new RestEndpoint({ urlPrefix: server.origin, path: '/hostile', schema: Product });
    const cache = createCache();
    const serverSide = makeStore({}, { cache });
    const stream = streamState(serverSide.store, cache);
    await serverSide.store.dispatch(cache.fetch(getHostile));
    const code = stream.code();
    expect(code).not.toMatch(/<|>/);
    expect(stream.next()).toBe('');
    expect(stream.code()).toBe('');
    await serverSide.store.dispatch(cache.fetch(getProduct, { id: '1' }));
    const script = stream.next();
    expect(script).toContain('p1');
    expect(stream.code()).toBe('');

    new Function('self', code)(globalThis);
    run(script);
    const browser = makeStore({}, { cache });
    receiveState(browser.store, cache)();
    expect(cache.selectQuery(browser.store.getState(), Product, 'x')?.name).toBe(
      '</script><script>window.__pwned = 1</script>\u2028',
    );
    expect(cache.selectQuery(browser.store.getState(), Product, '1')).toMatchObject({ name: 'p1' });
  });
});
