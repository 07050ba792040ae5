/**
 * Retries (docs/live-data.md#retries), on a fake clock against the real local server: reads are
 * sent again after network failures and 5xx (never 4xx, never mutations), as one request in
 * flight, after the endpoint's delays; an abort or a reset during the wait stops them; the error
 * stored is the last one.
 */
import { Entity, ErrorCode, RestEndpoint, type RetryOptions } from '../../src/index';
import { defaultRetryDelay, isRetryable } from '../../src/base/endpointOptions';
import { startTimer } from '../../src/base/timers';
import { advance, until, useLiveClock } from '../fixtures/liveClock';
import { startServer, type Answer, type TestServer } from '../fixtures/server';
import { makeStore, snapshot } from '../fixtures/store';
import { runtimeOf } from '../fixtures/runtime';

class Item extends Entity {
  id = '';
  n = 0;
  static override key = 'Item';
}

let server: TestServer;
/** What the server answers, in order; after the list, 200 with the request's number. */
let answers: Answer[] = [];

beforeAll(async () => {
  server = await startServer();
  const answer = () => {
    const n = server.count('GET /items/1');
    return answers[n - 1] ?? { json: { id: '1', n } };
  };
  server.on('GET /items/:id', answer);
  server.on('POST /items', () => answers[server.count('POST /items') - 1] ?? { json: { id: '1', n: 0 } });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  answers = [];
});
useLiveClock();

const failure = (status: number, message = `failed with ${status}`): Answer => ({ status, json: { message } });
const getItem = (retry?: RetryOptions) =>
  new RestEndpoint({ urlPrefix: server.origin, path: '/items/:id', schema: Item, retry });
const linear: RetryOptions = { attempts: 3, delay: attempt => 100 * attempt };

function setup() {
  const { cache, store } = makeStore();
  const runtime = runtimeOf(cache, store);
  const key = getItem().key({ id: '1' });
  const sent = () => server.count('GET /items/1');
  return { cache, store, runtime, key, sent };
}

test('5xx answers are retried after each delay, as one request in flight; the answer that succeeds is stored', async () => {
  const { cache, store, runtime, key, sent } = setup();
  answers = [failure(503), failure(502)];
  const promise = store.dispatch(cache.fetch(getItem(linear), { id: '1' }));
  const outcome = promise.then(
    value => ({ value }),
    error => ({ error }),
  );
  await until(() => sent() === 1, 'the first request');
  await advance(99);
  expect(sent()).toBe(1);
  // One entry in flight while waiting: a second fetch joins it and sends nothing.
  expect(runtime.requests.pending(key)).toBe(promise);
  expect(store.dispatch(cache.fetch(getItem(linear), { id: '1' }))).toBe(promise);
  await advance(1);
  await until(() => sent() === 2, 'the first retry');
  await advance(199);
  expect(sent()).toBe(2);
  await advance(1);
  await until(() => runtime.requests.pending(key) === undefined, 'the second retry to be answered');
  expect(sent()).toBe(3);
  expect(await outcome).toEqual({ value: expect.objectContaining({ id: '1', n: 3 }) });
  const response = cache.selectResponse(store.getState(), getItem(), { id: '1' });
  expect(response.error).toBeUndefined();
  expect(response.data).toEqual(expect.objectContaining({ n: 3 }));
});

test('when the attempts are spent, the error stored (and rejected) is the last one', async () => {
  const { cache, store, runtime, key, sent } = setup();
  answers = [failure(500, 'first'), failure(500, 'second'), failure(503, 'third')];
  const outcome = store.dispatch(cache.fetch(getItem({ attempts: 2, delay: () => 50 }), { id: '1' })).catch(e => e);
  await until(() => sent() === 1, 'the first request');
  await advance(50);
  await until(() => sent() === 2, 'the first retry');
  await advance(50);
  await until(() => runtime.requests.pending(key) === undefined, 'the last retry');
  expect(sent()).toBe(3);
  const error = await outcome;
  expect(error).toMatchObject({ status: 503, body: { message: 'third' } });
  expect(cache.selectResponse(store.getState(), getItem(), { id: '1' }).error).toBe(error);
  await advance(10_000);
  expect(sent()).toBe(3);
});

test('4xx answers are never retried', async () => {
  for (const status of [400, 401, 404, 429]) {
    server.requests.length = 0;
    const { cache, store, sent } = setup();
    answers = [failure(status)];
    const error = await store.dispatch(cache.fetch(getItem(linear), { id: '1' })).catch(e => e);
    expect(error).toMatchObject({ status });
    await advance(10_000);
    expect(sent()).toBe(1);
  }
});

test('a connection that fails without an answer is retried', async () => {
  const { cache, store, runtime, key, sent } = setup();
  answers = [{ reset: true }];
  const outcome = store.dispatch(cache.fetch(getItem(linear), { id: '1' }));
  await until(() => sent() === 1, 'the first request');
  await until(() => jest.getTimerCount() === 1, 'the wait before the retry');
  await advance(100);
  await until(() => runtime.requests.pending(key) === undefined, 'the retry');
  expect(sent()).toBe(2);
  expect(await outcome).toEqual(expect.objectContaining({ n: 2 }));
});

test('an abort during the wait stops the retries', async () => {
  const { cache, store, runtime, key, sent } = setup();
  answers = [failure(503), failure(503)];
  const promise = store.dispatch(cache.fetch(getItem({ attempts: 5, delay: () => 1_000 }), { id: '1' }));
  const outcome = promise.catch(e => e);
  await until(() => sent() === 1, 'the first request');
  await advance(500);
  promise.abort();
  expect(await outcome).toMatchObject({ name: 'AbortError' });
  expect(runtime.requests.pending(key)).toBeUndefined();
  await advance(60_000);
  expect(sent()).toBe(1);
});

test('resetEntireStore during the wait stops the retries and writes nothing', async () => {
  const { cache, store, runtime, key, sent } = setup();
  answers = [failure(503, 'before the reset')];
  const outcome = store.dispatch(cache.fetch(getItem({ attempts: 5, delay: () => 1_000 }), { id: '1' })).catch(e => e);
  await until(() => sent() === 1, 'the first request');
  await advance(10);
  store.dispatch(cache.resetEntireStore());
  const afterReset = snapshot(store.getState());
  expect(await outcome).toMatchObject({ status: 503, body: { message: 'before the reset' } });
  await advance(60_000);
  expect(sent()).toBe(1);
  expect(runtime.requests.pending(key)).toBeUndefined();
  expect(snapshot(store.getState())).toEqual(afterReset);
});

test('mutations are never retried, even with retry set', async () => {
  const { cache, store } = setup();
  answers = [failure(503)];
  const create = new RestEndpoint({ urlPrefix: server.origin, path: '/items', method: 'POST', retry: linear });
  const error = await store.dispatch(cache.fetch(create, {}, { n: 1 })).catch(e => e);
  expect(error).toMatchObject({ status: 503 });
  await advance(10_000);
  expect(server.count('POST /items')).toBe(1);
});

test('without retry a failure is final; attempts: 0 is the same', async () => {
  for (const retry of [undefined, { attempts: 0 }]) {
    server.requests.length = 0;
    const { cache, store, sent } = setup();
    answers = [failure(503)];
    await expect(store.dispatch(cache.fetch(getItem(retry), { id: '1' }))).rejects.toMatchObject({ status: 503 });
    await advance(60_000);
    expect(sent()).toBe(1);
  }
});

test('the default delay doubles from 1 s up to 30 s', async () => {
  expect([1, 2, 3, 4, 5, 6, 7].map(defaultRetryDelay)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  const { cache, store, runtime, key, sent } = setup();
  answers = [failure(500), failure(500)];
  const outcome = store.dispatch(cache.fetch(getItem({ attempts: 2 }), { id: '1' }));
  await until(() => sent() === 1, 'the first request');
  await advance(999);
  expect(sent()).toBe(1);
  await advance(1);
  await until(() => sent() === 2, 'the first retry');
  await advance(1_999);
  expect(sent()).toBe(2);
  await advance(1);
  await until(() => runtime.requests.pending(key) === undefined, 'the second retry');
  expect(await outcome).toEqual(expect.objectContaining({ n: 3 }));
});

test('which failures are worth another try', () => {
  expect(isRetryable({ status: 500 })).toBe(true);
  expect(isRetryable({ status: 503 })).toBe(true);
  expect(isRetryable({ status: 404 })).toBe(false);
  expect(isRetryable(new TypeError('fetch failed'))).toBe(true);
  expect(isRetryable({ name: 'AbortError', message: 'aborted' })).toBe(false);
});

test('bad retry options are refused where the endpoint is made', () => {
  for (const retry of [null, 3, {}, { attempts: -1 }, { attempts: 1.5 }, { attempts: 2, delay: 100 }]) {
    expect(() => getItem(retry as unknown as RetryOptions)).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_SCHEMA }),
    );
  }
});

test('the timers of retries and polls do not keep Node running', () => {
  jest.useRealTimers();
  const made = jest.spyOn(globalThis, 'setTimeout');
  try {
    const cancel = startTimer(() => undefined, 60_000);
    const timer = made.mock.results[0]!.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    cancel();
  } finally {
    made.mockRestore();
  }
});
