/**
 * Nothing waits forever (docs/RestEndpoint.md, "Timeouts"; docs/gc.md): a request that does not
 * answer in its `timeout` (the endpoint's, or the cache's) fails with TIMEOUT, stored as the key's
 * error; retries send it again as after a network failure; bad values are refused where given.
 * Real requests to a real local server that holds its answers.
 */
import { createCache, Entity, LensCacheError, RestEndpoint, type CacheState } from '../../src/index';
import { gate, startServer, type TestServer } from '../fixtures/server';
import { makeStore, snapshot } from '../fixtures/store';
import { expectRejected } from '../fixtures/writes';

let server: TestServer;
/** Held answers are let go at the end, so the server can close. */
const never = gate();
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => {
  never.open();
  return server.close();
});

class Item extends Entity {
  id = '';
  name = '';
  static override key = 'Item';
}

/** A route that holds its first `hung` answers until the end of the file, then answers. */
function route(hung: number) {
  const base = `/t${Math.random().toString(36).slice(2, 8)}`;
  let calls = 0;
  server.on(`GET ${base}/items/:id`, (_request, url) => {
    calls++;
    const id = url.pathname.split('/').pop()!;
    return { json: { id, name: `item ${id}` }, ...(calls <= hung ? { hold: never.promise } : {}) };
  });
  return { urlPrefix: server.origin + base, calls: () => calls };
}

test("a request with no answer in the endpoint's timeout fails with TIMEOUT, stored as its key's error", async () => {
  const { urlPrefix } = route(1);
  const getItem = new RestEndpoint({ urlPrefix, path: '/items/:id', schema: Item, timeout: 50 });
  const { cache, store } = makeStore();
  const before = snapshot((store.getState() as { cache: CacheState }).cache.entities);
  const error = await store.dispatch(cache.fetch(getItem, { id: '1' })).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(LensCacheError);
  expect(error).toMatchObject({ code: 'TIMEOUT' });
  expect((error as Error).message).toContain('50 ms');
  const response = cache.selectResponse(store.getState(), getItem, { id: '1' });
  expect(response.error).toBe(error);
  expect(snapshot((store.getState() as { cache: CacheState }).cache.entities)).toEqual(before);
});

test("the cache's timeout applies to endpoints without their own", async () => {
  const { urlPrefix } = route(1);
  const getItem = new RestEndpoint({ urlPrefix, path: '/items/:id', schema: Item });
  const { cache, store } = makeStore({ timeout: 50 });
  await expect(store.dispatch(cache.fetch(getItem, { id: '1' }))).rejects.toMatchObject({ code: 'TIMEOUT' });
  // The next request is a new one, and answers.
  await expect(store.dispatch(cache.fetch(getItem, { id: '1' }))).resolves.toMatchObject({ name: 'item 1' });
});

test('retries treat a timeout as a network failure: the read is sent again', async () => {
  const { urlPrefix, calls } = route(1);
  const getItem = new RestEndpoint({
    urlPrefix,
    path: '/items/:id',
    schema: Item,
    timeout: 50,
    retry: { attempts: 2, delay: () => 0 },
  });
  const { cache, store } = makeStore();
  await expect(store.dispatch(cache.fetch(getItem, { id: '2' }))).resolves.toMatchObject({ name: 'item 2' });
  expect(calls()).toBe(2);
});

test('an abort still ends a request that has a timeout, with its own reason', async () => {
  const { urlPrefix } = route(1);
  const getItem = new RestEndpoint({ urlPrefix, path: '/items/:id', schema: Item, timeout: 60_000 });
  const { cache, store } = makeStore();
  const request = store.dispatch(cache.fetch(getItem, { id: '3' }));
  request.abort(new Error('left the page'));
  await expect(request).rejects.toThrow('left the page');
});

test.each([0, -1, NaN, '10' as unknown as number])('a timeout of %p is refused where it is given', bad => {
  // As the endpoint's other options: INVALID_SCHEMA; the cache's, as its others: INVALID_OPTION.
  expect(() => new RestEndpoint({ path: '/items/:id', timeout: bad })).toThrow(
    expect.objectContaining({ code: 'INVALID_SCHEMA', message: expect.stringContaining('timeout') }),
  );
  expect(() => createCache({ timeout: bad })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
});

test.each([0, -1, NaN, '10' as unknown as number])(
  'an endpoint object with a timeout of %p is refused at the fetch and the subscribe: nothing sent, the store as it was',
  bad => {
    const { cache, store } = makeStore();
    let sent = 0;
    const getItem = {
      key: (params: { id: string }) => `GET /items/${params.id}`,
      schema: Item,
      timeout: bad,
      fetch: () => (sent++, Promise.resolve({ id: '1', name: 'one' })),
    };
    expectRejected(store, () => store.dispatch(cache.fetch(getItem, { id: '1' })), 'INVALID_SCHEMA');
    expectRejected(store, () => cache.subscribe(store, getItem, { id: '1' }), 'INVALID_SCHEMA');
    expect(sent).toBe(0);
  },
);
