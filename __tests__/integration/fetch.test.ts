/**
 * The fetch thunks end to end (writes, requests and errors as docs/store.md states them): a real
 * store, real requests to a real local server. Requests are counted at the server; answers are
 * held back to choose their order.
 */
import { configureStore } from '@reduxjs/toolkit';
import { isNetworkError, NetworkError, type CacheState } from '../../src/index';
import { companies, Company } from '../fixtures/company';
import { Article, exampleEndpoints } from '../fixtures/endpoints';
import { gate, startServer, type TestServer } from '../fixtures/server';
import { makeStore, snapshot } from '../fixtures/store';

let server: TestServer;
let api: ReturnType<typeof exampleEndpoints>;
beforeAll(async () => {
  server = await startServer();
  api = exampleEndpoints(server.origin);
});
afterAll(() => server.close());

const posts = [
  { id: '1', title: 'Banana', group: 'react', author: { id: 'u1', name: 'Ann', isAdmin: true } },
  { id: '2', title: 'Apple', group: 'react', author: { id: 'u2', name: 'Bo', isAdmin: false } },
];

function setup() {
  const { cache, store } = makeStore();
  const slice = () => store.getState().cache as CacheState;
  return { cache, store, slice };
}

/** The slice apart from `meta[key]`: what a failed request must leave untouched. */
function allButMeta(state: CacheState, key: string) {
  const { [key]: _dropped, ...meta } = snapshot(state.meta) as Record<string, unknown>;
  return { ...(snapshot(state) as object), meta };
}

describe('cache.fetch', () => {
  test('resolves to the denormalized response, stored and valid', async () => {
    server.on('GET /:group/posts', () => ({ json: posts }));
    const { cache, store } = setup();
    const data = await store.dispatch(cache.fetch(api.getPosts, { group: 'react' }));
    expect(data.map(post => post.title)).toEqual(['Banana', 'Apple']);
    expect(data[0]).toBeInstanceOf(Article);
    expect(data[0]!.author.name).toBe('Ann');
    const response = cache.selectResponse(store.getState(), api.getPosts, { group: 'react' });
    expect(response.expiryStatus).toBe('valid');
    expect(response.data).toBe(cache.selectResponse(store.getState(), api.getPosts, { group: 'react' }).data);
    expect(response.data![1]).toBe(data[1]);
    expect(response.expiresAt).toBeGreaterThan(Date.now());
  });

  test('two concurrent identical fetches make one request and share its promise; mutations always run', async () => {
    const held = gate();
    server.on('GET /tickers/:id', () => ({ json: { product_id: 'DEDUPE', price: 1 }, hold: held.promise }));
    const { cache, store } = setup();
    const before = server.count('GET /tickers/DEDUPE');
    const first = store.dispatch(cache.fetch(api.getTicker, { product_id: 'DEDUPE' }));
    const second = store.dispatch(cache.fetch(api.getTicker, { product_id: 'DEDUPE' }));
    expect(second).toBe(first);
    held.open();
    const [a, b] = await Promise.all([first, second]);
    expect(a).toBe(b);
    expect(server.count('GET /tickers/DEDUPE') - before).toBe(1);
    // Once settled, a new fetch is a new request.
    await store.dispatch(cache.fetch(api.getTicker, { product_id: 'DEDUPE' }));
    expect(server.count('GET /tickers/DEDUPE') - before).toBe(2);

    server.on('POST /:group/posts', request => ({
      json: { id: `new-${server.count()}`, ...(request.body as object) },
    }));
    const postsBefore = server.count('POST /react/posts');
    await Promise.all([
      store.dispatch(cache.fetch(api.getPosts.push, { group: 'react' }, { title: 'same' })),
      store.dispatch(cache.fetch(api.getPosts.push, { group: 'react' }, { title: 'same' })),
    ]);
    expect(server.count('POST /react/posts') - postsBefore).toBe(2);
  });

  test('bad args, or an endpoint that cannot fetch, throw out of dispatch with the store unchanged and no request', () => {
    const { cache, store } = setup();
    const state = store.getState();
    const requests = server.count();
    expect(() => store.dispatch(cache.fetch(api.getPost, {} as never))).toThrow(
      expect.objectContaining({ code: 'UNEXPECTED_INPUT', message: expect.stringMatching(/Missing parameters: id/) }),
    );
    expect(() => store.dispatch(cache.fetch({ key: () => 'GET /nothing' }))).toThrow(
      expect.objectContaining({ code: 'INVALID_SCHEMA', message: expect.stringMatching(/without fetch\(\)/) }),
    );
    expect(store.getState()).toBe(state);
    expect(server.count()).toBe(requests);
  });

  test('one cache in two stores keeps their requests apart', async () => {
    const held = gate();
    server.on('GET /tickers/:id', () => ({ json: { product_id: 'TWO', price: 5 }, hold: held.promise }));
    const { cache, store } = setup();
    const second = configureStore({ reducer: { cache: cache.reducer }, middleware: d => d().concat(cache.middleware) });
    const before = server.count('GET /tickers/TWO');
    const a = store.dispatch(cache.fetch(api.getTicker, { product_id: 'TWO' }));
    const b = second.dispatch(cache.fetch(api.getTicker, { product_id: 'TWO' }));
    expect(b).not.toBe(a);
    held.open();
    await Promise.all([a, b]);
    expect(server.count('GET /tickers/TWO') - before).toBe(2);
    expect(cache.selectQuery(second.getState(), api.getTicker.schema, { product_id: 'TWO' })?.price).toBe(5);
  });

  test('an abort frees the key at once; a fetch that throws synchronously is not kept in flight', async () => {
    const held = gate();
    server.on('GET /tickers/:id', () => ({ json: { product_id: 'AB', price: 6 }, hold: held.promise }));
    const { cache, store } = setup();
    const first = store.dispatch(cache.fetch(api.getTicker, { product_id: 'AB' }));
    first.abort();
    const second = store.dispatch(cache.fetch(api.getTicker, { product_id: 'AB' }));
    expect(second).not.toBe(first);
    await expect(first).rejects.toMatchObject({ name: 'AbortError' });
    held.open();
    await expect(second).resolves.toMatchObject({ price: 6 });

    let calls = 0;
    const throwing = {
      key: () => 'sync',
      schema: undefined,
      fetch: () => {
        calls++;
        if (calls === 1) throw new Error('bad config');
        return Promise.resolve('ok');
      },
    };
    const state = store.getState();
    const failed = store.dispatch(cache.fetch(throwing));
    // Starting a fetch dispatches nothing, even when it fails at once.
    expect(store.getState()).toBe(state);
    await expect(failed).rejects.toThrow('bad config');
    await expect(store.dispatch(cache.fetch(throwing))).resolves.toBe('ok');
  });

  test('an answer to a request started before invalidate does not make the entry valid again', async () => {
    const held = gate();
    server.on('GET /stats/:id', () => ({ json: { product_id: 'INV', last: 1 }, hold: held.promise }));
    const { cache, store } = setup();
    store.dispatch(cache.setResponse(api.getStats, { product_id: 'INV' }, { product_id: 'INV', last: 0 }));
    const before = store.dispatch(cache.fetch(api.getStats, { product_id: 'INV' }));
    await new Promise(resolve => setTimeout(resolve, 5));
    store.dispatch(cache.invalidate(api.getStats, { product_id: 'INV' }));
    const state = store.getState();
    store.dispatch(cache.invalidate(api.getStats, { product_id: 'INV' }));
    expect(store.getState()).toBe(state);
    held.open();
    await before;
    expect(cache.selectResponse(store.getState(), api.getStats, { product_id: 'INV' }).expiryStatus).toBe('invalid');
    server.on('GET /stats/:id', () => ({ json: { product_id: 'INV', last: 2 } }));
    await store.dispatch(cache.fetch(api.getStats, { product_id: 'INV' }));
    expect(cache.selectResponse(store.getState(), api.getStats, { product_id: 'INV' })).toMatchObject({
      expiryStatus: 'valid',
      data: { last: 2 },
    });
  });

  test('an answer that arrives after a newer one changes nothing: entity, cells, collection row and endpoint entry', async () => {
    const { cache, store, slice } = setup();
    // The old list (at portfolio A) is requested first and answered last.
    const slowList = gate();
    server.on('GET /companies', (_, url) =>
      url.searchParams.get('portfolio') === 'A'
        ? { json: [{ ...companies[0], name: 'Old name', shares: 1 }], hold: slowList.promise }
        : { json: [companies[1], { ...companies[0], name: 'New name', shares: 2 }] },
    );
    const older = store.dispatch(cache.fetch(api.getCompanies, { portfolio: 'A' }));
    await new Promise(resolve => setTimeout(resolve, 10));
    await store.dispatch(cache.fetch(api.getCompanies, { portfolio: 'B' }));
    const list = cache.selectQuery(store.getState(), api.getCompanies.schema, { portfolio: 'B' })!;
    expect(list.map(company => company.name)).toEqual(['Globex', 'New name']);
    slowList.open();
    await older;
    // The shared list row, Company 1 and its fields keep the newer answer.
    expect(cache.selectQuery(store.getState(), api.getCompanies.schema, { portfolio: 'B' })).toBe(list);
    expect(slice().entities.Company!['1']).toMatchObject({ name: 'New name' });
    // A's cells come only from A's answer: they are written, as nothing newer exists at A.
    expect(slice().entities['Scalar(portfolio)']!['Company|1|A']).toMatchObject({ shares: 1 });

    // Scalar cells: B's columns, requested first and answered last, lose to the newer list at B.
    const slowColumns = gate();
    server.on('GET /companies/columns', () => ({
      json: { 1: { pct_equity: 0.01, shares: 1 } },
      hold: slowColumns.promise,
    }));
    const olderColumns = store.dispatch(cache.fetch(api.getColumns, { portfolio: 'B' }));
    await new Promise(resolve => setTimeout(resolve, 10));
    server.on('GET /companies', () => ({ json: [{ ...companies[0], pct_equity: 0.9, shares: 900 }] }));
    await store.dispatch(cache.fetch(api.getCompanies, { portfolio: 'B' }));
    const cell = slice().entities['Scalar(portfolio)']!['Company|1|B'];
    expect(cell).toMatchObject({ pct_equity: 0.9, shares: 900 });
    slowColumns.open();
    await olderColumns;
    expect(slice().entities['Scalar(portfolio)']!['Company|1|B']).toBe(cell);
    expect(cache.selectQuery(store.getState(), Company, { id: '1', portfolio: 'B' })?.shares).toBe(900);

    // The endpoint entry: a newer write of the same request wins over the slow answer.
    const slowTicker = gate();
    server.on('GET /tickers/:id', () => ({ json: { product_id: 'ORDER', price: 1 }, hold: slowTicker.promise }));
    const slow = store.dispatch(cache.fetch(api.getTicker, { product_id: 'ORDER' }));
    await new Promise(resolve => setTimeout(resolve, 10));
    store.dispatch(cache.setResponse(api.getTicker, { product_id: 'ORDER' }, { product_id: 'ORDER', price: 2 }));
    const meta = slice().meta[api.getTicker.key({ product_id: 'ORDER' })];
    slowTicker.open();
    const resolved = await slow;
    expect(resolved?.price).toBe(2);
    expect(slice().meta[api.getTicker.key({ product_id: 'ORDER' })]).toBe(meta);
    expect(cache.selectResponse(store.getState(), api.getTicker, { product_id: 'ORDER' }).data?.price).toBe(2);
  });

  describe('failures are stored as the request error and change nothing else', () => {
    async function failing(answer: Parameters<TestServer['on']>[1], name: string) {
      server.on(`GET /raw/${name}`, answer);
      const { cache, store, slice } = setup();
      await store.dispatch(cache.fetch(api.getPosts, { group: 'react' })).catch(() => undefined);
      store.dispatch(cache.setResponse(api.getRaw, { name }, { kept: true }));
      const key = api.getRaw.key({ name });
      const before = slice();
      const beforeSnapshot = allButMeta(before, key);
      const fetching = store.dispatch(cache.fetch(api.getRaw, { name }));
      return { cache, store, slice, key, before, beforeSnapshot, fetching };
    }

    test.each([
      [
        '404',
        { status: 404, json: { message: 'no such thing' } },
        { name: 'NetworkError', status: 404, code: 'NETWORK_ERROR' },
      ],
      ['500', { status: 500, json: { message: 'down' } }, { name: 'NetworkError', status: 500, code: 'NETWORK_ERROR' }],
      ['malformed JSON', { raw: '[{"id": 1,' }, { code: 'INVALID_RESPONSE' }],
      ['connection reset', { reset: true }, { name: 'TypeError' }],
    ])('%s', async (name, answer, expected) => {
      const { cache, store, slice, key, before, beforeSnapshot, fetching } = await failing(
        () => answer,
        name.replace(/\W/g, '-'),
      );
      const error = await fetching.catch((caught: unknown) => caught);
      expect(error).toMatchObject(expected);
      const after = slice();
      expect(after.entities).toBe(before.entities);
      expect(after.endpoints).toBe(before.endpoints);
      expect(allButMeta(after, key)).toEqual(beforeSnapshot);
      expect(after.meta[key]!.error).toMatchObject(expected);
      expect(after.meta[key]!.error).toEqual(JSON.parse(JSON.stringify(after.meta[key]!.error)));
      const response = cache.selectResponse(store.getState(), api.getRaw, { name: name.replace(/\W/g, '-') });
      // The original instance is readable; the stored data stays readable beside it.
      expect(response.error).toBe(error);
      expect(response.data).toEqual({ kept: true });
    });

    test('a slow request aborted: the promise rejects with the AbortError, and nothing is written', async () => {
      const held = gate();
      const { cache, store, slice, before, fetching } = await failing(
        () => ({ json: { late: true }, hold: held.promise }),
        'slow',
      );
      await new Promise(resolve => setTimeout(resolve, 10));
      fetching.abort();
      await expect(fetching).rejects.toMatchObject({ name: 'AbortError' });
      // The answer, released after the abort, must not land: give it time to arrive.
      held.open();
      await new Promise(resolve => setTimeout(resolve, 50));
      // The app stopped a request it no longer needed: no failure of the key to show.
      expect(slice()).toBe(before);
      expect(cache.selectResponse(store.getState(), api.getRaw, { name: 'slow' })).toMatchObject({
        error: undefined,
        data: { kept: true },
      });
    });

    test('an abort with a reason of its own (a timeout) is a failure, stored as it was given', async () => {
      const held = gate();
      const { cache, store, slice, key, fetching } = await failing(
        () => ({ json: { late: true }, hold: held.promise }),
        'timed-out',
      );
      const reason = new DOMException('The request took too long.', 'TimeoutError');
      fetching.abort(reason);
      await expect(fetching).rejects.toBe(reason);
      held.open();
      expect(slice().meta[key]!.error).toMatchObject({ name: 'TimeoutError' });
      expect(cache.selectResponse(store.getState(), api.getRaw, { name: 'timed-out' }).error).toBe(reason);
    });

    test('a response that fails to normalize: the error stored, no entity written', async () => {
      server.on('GET /posts/:id', () => ({ json: { title: 'no id' } }));
      const { cache, store, slice } = setup();
      const before = slice();
      const error = await store.dispatch(cache.fetch(api.getPost, { id: '5' })).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'MISSING_PK', status: 400 });
      expect(slice().entities).toBe(before.entities);
      expect(slice().endpoints).toBe(before.endpoints);
      expect(cache.selectResponse(store.getState(), api.getPost, { id: '5' })).toMatchObject({
        error,
        data: undefined,
      });
    });

    test('a store subscriber reads the error the request failed with from the notification that stores it', async () => {
      server.on('GET /raw/refused', () => ({ status: 422, json: { message: 'title taken' } }));
      const { cache, store } = setup();
      const seen: unknown[] = [];
      const unsubscribe = store.subscribe(() => {
        const { error } = cache.selectResponse(store.getState(), api.getRaw, { name: 'refused' });
        if (error) seen.push(error);
      });
      const error = await store
        .dispatch(cache.fetch(api.getRaw, { name: 'refused' }))
        .catch((caught: unknown) => caught);
      unsubscribe();
      const isRefusal = (body: unknown): body is { message: string } =>
        typeof (body as { message?: unknown } | null)?.message === 'string';
      expect(isNetworkError(error, isRefusal)).toBe(true);
      // The first notification already gives the original: a NetworkError with its status and body.
      expect(seen.length).toBeGreaterThan(0);
      expect(seen[0]).toBe(error);
      expect(isNetworkError(seen[0], isRefusal) && seen[0].body.message).toBe('title taken');
      expect(cache.selectResponse(store.getState(), api.getRaw, { name: 'refused' }).error).toBe(error);
    });
  });

  test('a create through endpoint.push appears in every matching cached list, without a refetch', async () => {
    server.on('GET /:group/posts', (_, url) => ({ json: url.pathname === '/vue/posts' ? [] : posts }));
    server.on('POST /:group/posts', request => ({
      status: 201,
      json: { id: '3', group: 'react', author: { id: 'u1', name: 'Ann', isAdmin: true }, ...(request.body as object) },
    }));
    const { cache, store } = setup();
    await store.dispatch(cache.fetch(api.getPosts, { group: 'react' }));
    await store.dispatch(cache.fetch(api.getPosts, { group: 'react', orderBy: 'title' }));
    await store.dispatch(cache.fetch(api.getPosts, { group: 'vue' }));
    const vue = cache.selectResponse(store.getState(), api.getPosts, { group: 'vue' }).data;
    const gets = server.count('GET /react/posts');

    const created = await store.dispatch(cache.fetch(api.getPosts.push, { group: 'react' }, { title: 'Cherry' }));
    // One item sent, one item back (a list sent gives a list).
    expect(created).toBeInstanceOf(Article);
    expect((created as Article).id).toBe('3');
    const ids = (params: object) =>
      cache.selectResponse(store.getState(), api.getPosts, params as never).data!.map(post => post.id);
    expect(ids({ group: 'react' })).toEqual(['1', '2', '3']);
    expect(ids({ group: 'react', orderBy: 'title' })).toEqual(['1', '2', '3']);
    expect(cache.selectResponse(store.getState(), api.getPosts, { group: 'vue' }).data).toBe(vue);
    expect(server.count('GET /react/posts')).toBe(gets);
    expect(server.requests[server.requests.length - 1]).toMatchObject({
      method: 'POST',
      url: '/react/posts',
      body: { title: 'Cherry' },
    });
  });
});

describe('expiry, invalidation and reset', () => {
  test('selectResponse reports valid, stale after expireAll, invalid after invalidate; fetchIfStale fetches only then', async () => {
    server.on('GET /stats/:id', () => ({ json: { product_id: 'S', last: server.count() } }));
    const { cache, store } = setup();
    const args = { product_id: 'S' } as const;
    expect(cache.selectResponse(store.getState(), api.getStats, args).expiryStatus).toBe('invalid');
    const fetched = await store.dispatch(cache.fetchIfStale(api.getStats, args));
    const count = server.count('GET /stats/S');
    expect(cache.selectResponse(store.getState(), api.getStats, args).expiryStatus).toBe('valid');
    expect(store.dispatch(cache.fetchIfStale(api.getStats, args))).toBe(fetched);
    expect(server.count('GET /stats/S')).toBe(count);

    store.dispatch(cache.expireAll({ testKey: key => key.includes('/stats/') }));
    const stale = cache.selectResponse(store.getState(), api.getStats, args);
    expect(stale.expiryStatus).toBe('stale');
    expect(stale.data).toBe(fetched);
    await store.dispatch(cache.fetchIfStale(api.getStats, args));
    expect(server.count('GET /stats/S')).toBe(count + 1);
    expect(cache.selectResponse(store.getState(), api.getStats, args).expiryStatus).toBe('valid');

    store.dispatch(cache.invalidate(api.getStats, args));
    expect(cache.selectResponse(store.getState(), api.getStats, args)).toMatchObject({
      expiryStatus: 'invalid',
      data: undefined,
    });
    const invalidated = store.getState();
    store.dispatch(cache.invalidate(api.getStats, null));
    expect(store.getState()).toBe(invalidated);
    await store.dispatch(cache.fetchIfStale(api.getStats, args));
    expect(server.count('GET /stats/S')).toBe(count + 2);
  });

  test('a Collection with a stable pk is valid at a new lens without its own entry', async () => {
    server.on('GET /companies', () => ({ json: companies }));
    const { cache, store } = setup();
    await store.dispatch(cache.fetch(api.getCompanies, { portfolio: 'A' }));
    const atA = cache.selectResponse(store.getState(), api.getCompanies, { portfolio: 'A' });
    const atB = cache.selectResponse(store.getState(), api.getCompanies, { portfolio: 'B' });
    expect(atB.expiryStatus).toBe('valid');
    expect(atB.data!.map(company => company.name)).toEqual(['Acme', 'Globex']);
    expect(atB.data![0]).toBeInstanceOf(Company);
    // A → B → A, and a meta-only write elsewhere: the very same data and response objects.
    store.dispatch(cache.expireAll({ testKey: key => key.includes('/tickers/') }));
    store.dispatch(cache.setError(api.getTicker, { product_id: 'ELSEWHERE' }, new Error('elsewhere')));
    expect(cache.selectResponse(store.getState(), api.getCompanies, { portfolio: 'A' })).toBe(atA);
    expect(cache.selectResponse(store.getState(), api.getCompanies, { portfolio: 'B' }).data).toBe(atB.data);
  });

  test('invalidateAll reaches the keys testKey accepts; resetEntireStore drops answers to requests started before', async () => {
    server.on('GET /tickers/:id', (_, url) => ({ json: { product_id: url.pathname.split('/')[2], price: 3 } }));
    const { cache, store, slice } = setup();
    await store.dispatch(cache.fetch(api.getTicker, { product_id: 'X' }));
    await store.dispatch(cache.fetch(api.getTicker, { product_id: 'Y' }));
    store.dispatch(cache.invalidateAll({ testKey: key => key.endsWith('/X') }));
    expect(cache.selectResponse(store.getState(), api.getTicker, { product_id: 'X' }).expiryStatus).toBe('invalid');
    expect(cache.selectResponse(store.getState(), api.getTicker, { product_id: 'Y' }).expiryStatus).toBe('valid');

    const held = gate();
    server.on('GET /tickers/:id', () => ({ json: { product_id: 'Z', price: 4 }, hold: held.promise }));
    const pending = store.dispatch(cache.fetch(api.getTicker, { product_id: 'Z' }));
    const beforeReset = Date.now();
    store.dispatch(cache.resetEntireStore());
    const reset = slice();
    expect(snapshot(reset)).toEqual({
      entities: {},
      entitiesMeta: {},
      endpoints: {},
      meta: {},
      lastReset: reset.lastReset,
    });
    expect(reset.lastReset).toBeGreaterThanOrEqual(beforeReset);
    held.open();
    await expect(pending).resolves.toBeUndefined();
    expect(slice()).toBe(reset);
    // A failure from before the reset rejects, and is not stored either.
    const failing = gate();
    server.on('GET /tickers/:id', () => ({ status: 500, json: {}, hold: failing.promise }));
    const doomed = store.dispatch(cache.fetch(api.getTicker, { product_id: 'W' }));
    store.dispatch(cache.resetEntireStore());
    const resetAgain = slice();
    failing.open();
    await expect(doomed).rejects.toMatchObject({ status: 500 });
    expect(slice()).toBe(resetAgain);
    // A resolve whose request started before the reset is dropped.
    const state = store.getState();
    store.dispatch(
      cache.resolve(api.getTicker, {
        args: [{ product_id: 'V' }],
        response: { product_id: 'V', price: 1 },
        fetchedAt: resetAgain.lastReset - 1,
      }),
    );
    expect(store.getState()).toBe(state);
  });
});

describe('controller', () => {
  test('binds reads and writes to one store; the same object per store', async () => {
    server.on('GET /users', () => ({ json: [{ id: 'u9', name: 'Cy', isAdmin: false }] }));
    const { cache, store } = setup();
    const controller = cache.controller(store);
    expect(cache.controller(store)).toBe(controller);
    const users = await controller.fetch(api.getUsers);
    expect(users.map(user => user.name)).toEqual(['Cy']);
    expect(controller.getResponse(api.getUsers).data).toBe(users);
    controller.set(api.getUsers.schema.schema[0], { id: 'u9', name: 'Cyd' });
    expect(controller.get(api.getUsers.schema.schema[0], { id: 'u9' })?.name).toBe('Cyd');
    controller.setError(api.getUsers, new NetworkError('GET', '/users', new Response('', { status: 503 }), ''));
    expect(controller.getResponse(api.getUsers).error).toMatchObject({ status: 503 });
    controller.resetEntireStore();
    expect(controller.get(api.getUsers.schema.schema[0], { id: 'u9' })).toBeUndefined();
  });
});
