/**
 * Fault injection against the real local server: timeouts, aborts, connection resets, 5xx,
 * truncated and malformed JSON, and answers arriving in every order. Nothing is lost, the newest
 * data wins, errors are stored and readable, and no rejection goes unhandled.
 */
import { ErrorCode, RestEndpoint, type CacheState } from '../../src/index';
import { Article } from '../fixtures/endpoints';
import { gate, startServer, type TestServer } from '../fixtures/server';
import { jsonProblems } from '../fixtures/recording';
import { makeStore, snapshot } from '../fixtures/store';

let server: TestServer;
let getPost: RestEndpoint<{
  urlPrefix: string;
  path: '/posts/:id';
  searchParams: { v?: number };
  schema: typeof Article;
}>;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  server = await startServer();
  getPost = new RestEndpoint({
    urlPrefix: server.origin,
    path: '/posts/:id',
    searchParams: {} as { v?: number },
    schema: Article,
  });
  process.on('unhandledRejection', onUnhandled);
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await server.close();
});
afterEach(async () => {
  // Give any stray rejection a chance to surface, then require none.
  await new Promise(resolve => setTimeout(resolve, 10));
  expect(unhandled).toEqual([]);
});

const post = (id: string, title: string) => ({
  id,
  title,
  group: 'g',
  author: { id: 'u1', name: 'Ann', isAdmin: false },
});

/** A store holding one good post, to check that a failure loses nothing. */
async function seeded() {
  const setup = makeStore();
  server.on('GET /posts/:id', request => ({ json: post(request.url.split('/').pop()!.split('?')[0]!, 'kept') }));
  await setup.store.dispatch(setup.cache.fetch(getPost, { id: 'keep' }));
  return { ...setup, slice: () => setup.store.getState().cache as CacheState };
}

/** Everything but the failed request's meta entry, as JSON. */
function allBut(state: CacheState, key: string) {
  const { [key]: _failed, ...meta } = snapshot(state.meta) as Record<string, unknown>;
  return { ...(snapshot(state) as object), meta };
}

const faults: Array<[string, () => Parameters<TestServer['on']>[1], (error: unknown) => void]> = [
  [
    'a 500',
    () => () => ({ status: 500, json: { message: 'boom' } }),
    error => expect(error).toMatchObject({ code: ErrorCode.NETWORK_ERROR, status: 500 }),
  ],
  [
    'a 503 with an HTML body',
    () => () => ({ status: 503, raw: '<h1>down</h1>', contentType: 'text/html' }),
    error => expect(error).toMatchObject({ status: 503 }),
  ],
  ['a connection reset', () => () => ({ reset: true }), error => expect(error).toMatchObject({ name: 'TypeError' })],
  [
    'truncated JSON',
    () => () => ({ raw: '{"id":"x","title":"cut', contentType: 'application/json' }),
    error => expect(error).toMatchObject({ code: ErrorCode.INVALID_RESPONSE }),
  ],
  [
    'malformed JSON',
    () => () => ({ raw: "{id: 'x'}", contentType: 'application/json' }),
    error => expect(error).toMatchObject({ code: ErrorCode.INVALID_RESPONSE }),
  ],
  [
    'JSON of the wrong shape',
    () => () => ({ json: [1, 2, 3] }),
    error => expect(error).toMatchObject({ code: ErrorCode.UNEXPECTED_INPUT }),
  ],
  [
    'an entity without its pk',
    () => () => ({ json: { title: 'no id' } }),
    error => expect(error).toMatchObject({ code: ErrorCode.MISSING_PK }),
  ],
];

describe.each(faults)('%s', (_name, route, expectError) => {
  test('rejects, stores only the error record, and the error reads back as the same instance', async () => {
    const { cache, store, slice } = await seeded();
    server.on('GET /posts/:id', route());
    const before = slice();
    const key = getPost.key({ id: 'x' });
    const error = await store.dispatch(cache.fetch(getPost, { id: 'x' })).catch((caught: unknown) => caught);
    expectError(error);
    // Nothing else changed: entities and results are the very same objects.
    expect(slice().entities).toBe(before.entities);
    expect(slice().endpoints).toBe(before.endpoints);
    expect(allBut(slice(), key)).toEqual(allBut(before, key));
    const response = cache.selectResponse(store.getState(), getPost, { id: 'x' });
    expect(response.error).toBe(error);
    expect(response.data).toBeUndefined();
    // The good post is still there.
    expect(cache.selectQuery(store.getState(), Article, 'keep')?.title).toBe('kept');
    // The record in state is plain JSON (no undefined fields, no Error object).
    expect(jsonProblems(slice().meta[key]!.error)).toEqual([]);
  });
});

test('a timeout (abort with a TimeoutError) is stored and readable, and the late answer changes nothing', async () => {
  const { cache, store, slice } = await seeded();
  const held = gate();
  server.on('GET /posts/:id', () => ({ json: post('slow', 'late'), hold: held.promise }));
  const request = store.dispatch(cache.fetch(getPost, { id: 'slow' }));
  const timer = setTimeout(
    () => request.abort(new DOMException('The request took longer than 50 ms.', 'TimeoutError')),
    50,
  );
  const error = await request.catch((caught: unknown) => caught);
  clearTimeout(timer);
  expect(error).toMatchObject({ name: 'TimeoutError' });
  const afterTimeout = slice();
  held.open();
  await new Promise(resolve => setTimeout(resolve, 50));
  expect(slice()).toBe(afterTimeout);
  expect(cache.selectResponse(store.getState(), getPost, { id: 'slow' }).error).toBe(error);
});

/** All orders of n items. */
function permutations(n: number): number[][] {
  if (n === 1) return [[0]];
  return permutations(n - 1).flatMap(order =>
    Array.from({ length: n }, (_, at) => [...order.slice(0, at), n - 1, ...order.slice(at)]),
  );
}

describe('answers in every order: the newest request wins', () => {
  const orders = permutations(4);
  test.each(orders.map(order => [order.join('')]))('arrival order %s', async name => {
    const order = [...name].map(Number);
    let clock = 1_800_000_000_000;
    const now = jest.spyOn(Date, 'now').mockImplementation(() => ++clock);
    try {
      const { cache, store } = makeStore();
      // Four requests for post 1, started one after the other (v=0 is the oldest), one of them fails.
      const gates = order.map(() => gate());
      server.on('GET /posts/:id', (_request, url) => {
        const v = Number(url.searchParams.get('v'));
        return v === 2
          ? { status: 500, json: {}, hold: gates[v]!.promise }
          : { json: post('1', `v${v}`), hold: gates[v]!.promise };
      });
      const requests = [0, 1, 2, 3].map(v => store.dispatch(cache.fetch(getPost, { id: '1', v })));
      for (const v of order) {
        gates[v]!.open();
        await requests[v]!.catch(() => undefined);
      }
      // The newest successful answer (v3) is the row, whatever order they came in.
      expect(cache.selectQuery(store.getState(), Article, '1')?.title).toBe('v3');
      // Each request's own entry: data or error, readable.
      for (const v of [0, 1, 3])
        expect(cache.selectResponse(store.getState(), getPost, { id: '1', v }).data?.title).toBe('v3');
      expect(cache.selectResponse(store.getState(), getPost, { id: '1', v: 2 }).error).toMatchObject({ status: 500 });
    } finally {
      now.mockRestore();
    }
  });
});

test('an old request failing after a newer one succeeded does not hide the newer data', async () => {
  let clock = 1_900_000_000_000;
  const now = jest.spyOn(Date, 'now').mockImplementation(() => ++clock);
  try {
    const { cache, store } = makeStore();
    const slow = gate();
    let calls = 0;
    server.on('GET /posts/:id', () =>
      ++calls === 1 ? { status: 502, json: {}, hold: slow.promise } : { json: post('2', 'fresh') },
    );
    const old = store.dispatch(cache.fetch(getPost, { id: '2' }));
    // Invalidate: the next fetch starts anew instead of joining the old request.
    store.dispatch(cache.invalidate(getPost, { id: '2' }));
    await store.dispatch(cache.fetch(getPost, { id: '2' }));
    slow.open();
    await old.catch(() => undefined);
    const response = cache.selectResponse(store.getState(), getPost, { id: '2' });
    expect(response.data?.title).toBe('fresh');
    expect(response.error).toBeUndefined();
    expect(response.expiryStatus).toBe('valid');
  } finally {
    now.mockRestore();
  }
});
