/**
 * Polling through `cache.subscribe` (docs/live-data.md#polling), on a fake clock against the real
 * local server: one poller per request key at the shortest frequency asked, stopped by the last
 * unsubscribe, never overlapping a request in flight, writing nothing new for identical answers,
 * and keeping the data when a poll fails.
 */

import { configureStore } from '@reduxjs/toolkit';
import { Entity, ErrorCode, RestEndpoint } from '../../src/index';
import { advance, until, useLiveClock } from '../fixtures/liveClock';
import { gate, startServer, type TestServer } from '../fixtures/server';
import { makeStore, snapshot } from '../fixtures/store';
import { runtimeOf, pollersOf, pollPeriodOf } from '../fixtures/runtime';

class Price extends Entity {
  id = '';
  value = 0;
  static override key = 'Price';
}

let server: TestServer;
/** The value the server answers with for each product (a test changes it to see a change). */
const values: Record<string, number> = {};
let failNext = 0;
let held: Promise<void> | undefined;

beforeAll(async () => {
  server = await startServer();
  server.on('GET /prices/:id', (_request, url) => {
    const id = url.pathname.split('/').pop()!;
    if (failNext > 0) {
      failNext--;
      return { status: 503, json: { message: 'busy' } };
    }
    return { json: { id, value: values[id] ?? 1 }, ...(held ? { hold: held } : {}) };
  });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  failNext = 0;
  held = undefined;
  for (const id of Object.keys(values)) delete values[id];
});
useLiveClock();

const endpointAt = (pollFrequency?: number) =>
  new RestEndpoint({ urlPrefix: server.origin, path: '/prices/:id', schema: Price, pollFrequency });

function setup() {
  const { cache, store } = makeStore();
  const runtime = runtimeOf(cache, store);
  const key = endpointAt().key({ id: 'a' });
  const polls = () => server.count('GET /prices/a');
  /** Waits until the request in flight for the key (if any) is answered and written. */
  const idle = () => until(() => runtime.requests.pending(key) === undefined, `${key} to be answered`);
  return { cache, store, runtime, key, polls, idle };
}

test('one subscriber: a poll at once when nothing is stored, then one per period; none after unsubscribe', async () => {
  const { cache, store, runtime, key, polls, idle } = setup();
  const unsubscribe = cache.subscribe(store, endpointAt(1_000), { id: 'a' });
  expect(pollPeriodOf(runtime, key)).toBe(1_000);
  expect(runtime.subscriptions.count('subscription', key)).toBe(1);
  expect(runtime.subscriptions.count('request', key)).toBe(1);
  await advance(0);
  await idle();
  expect(polls()).toBe(1);
  expect(cache.selectResponse(store.getState(), endpointAt(), { id: 'a' }).data).toEqual(
    expect.objectContaining({ id: 'a', value: 1 }),
  );
  await advance(999);
  expect(polls()).toBe(1);
  await advance(1);
  await idle();
  expect(polls()).toBe(2);
  await advance(1_000);
  await idle();
  expect(polls()).toBe(3);
  unsubscribe();
  unsubscribe();
  expect(pollersOf(runtime).pollers.size).toBe(0);
  expect(runtime.subscriptions.count('subscription', key)).toBe(0);
  expect(runtime.subscriptions.count('request', key)).toBe(0);
  await advance(10_000);
  expect(polls()).toBe(3);
});

test('two and three subscribers at different frequencies: one poller at the shortest, back to the longer ones as they leave', async () => {
  const { cache, store, runtime, key, polls, idle } = setup();
  const slow = cache.subscribe(store, endpointAt(3_000), { id: 'a' });
  await advance(0);
  await idle();
  expect(polls()).toBe(1); // t = 0
  await advance(3_000);
  await idle();
  expect(polls()).toBe(2); // t = 3000
  // A second subscriber asking every second: one poller, now at 1 s, counted from the last answer.
  const fast = cache.subscribe(store, endpointAt(1_000), { id: 'a' });
  expect(pollersOf(runtime).pollers.size).toBe(1);
  expect(pollPeriodOf(runtime, key)).toBe(1_000);
  for (let i = 0; i < 3; i++) {
    await advance(1_000);
    await idle();
  }
  expect(polls()).toBe(5); // t = 4000, 5000, 6000
  // A third at 2 s changes nothing while the 1 s one is there.
  const middle = cache.subscribe(store, endpointAt(2_000), { id: 'a' });
  expect(pollPeriodOf(runtime, key)).toBe(1_000);
  expect(runtime.subscriptions.count('subscription', key)).toBe(3);
  await advance(1_000);
  await idle();
  expect(polls()).toBe(6); // t = 7000
  fast();
  expect(pollPeriodOf(runtime, key)).toBe(2_000);
  await advance(1_000);
  expect(polls()).toBe(6); // t = 8000: not due before 9000
  await advance(1_000);
  await idle();
  expect(polls()).toBe(7); // t = 9000
  middle();
  expect(pollPeriodOf(runtime, key)).toBe(3_000);
  await advance(2_999);
  expect(polls()).toBe(7);
  await advance(1);
  await idle();
  expect(polls()).toBe(8); // t = 12000
  slow();
  expect(pollPeriodOf(runtime, key)).toBeUndefined();
  await advance(30_000);
  expect(polls()).toBe(8);
});

test('each request key has its own poller', async () => {
  const { cache, store, runtime } = setup();
  const a = cache.subscribe(store, endpointAt(1_000), { id: 'a' });
  const b = cache.subscribe(store, endpointAt(2_000), { id: 'b' });
  expect(pollersOf(runtime).pollers.size).toBe(2);
  const idleBoth = () =>
    until(
      () =>
        runtime.requests.pending(endpointAt().key({ id: 'a' })) === undefined &&
        runtime.requests.pending(endpointAt().key({ id: 'b' })) === undefined,
      'a and b answered',
    );
  await advance(0);
  await idleBoth();
  for (let i = 0; i < 4; i++) {
    await advance(1_000);
    await idleBoth();
  }
  expect(server.count('GET /prices/a')).toBe(5); // t = 0, 1000, 2000, 3000, 4000
  expect(server.count('GET /prices/b')).toBe(3); // t = 0, 2000, 4000
  a();
  expect(pollPeriodOf(runtime, endpointAt().key({ id: 'b' }))).toBe(2_000);
  b();
  expect(pollersOf(runtime).pollers.size).toBe(0);
});

test('a poll never overlaps a slow request: the next poll is one period after its answer', async () => {
  const { cache, store, polls, idle } = setup();
  const slow = gate();
  held = slow.promise;
  const unsubscribe = cache.subscribe(store, endpointAt(1_000), { id: 'a' });
  await advance(0);
  await until(() => polls() === 1, 'the first poll to reach the server');
  // Ten periods pass while the server holds the answer: no second request.
  await advance(10_000);
  expect(polls()).toBe(1);
  held = undefined;
  slow.open();
  await idle();
  await advance(999);
  expect(polls()).toBe(1);
  await advance(1);
  await idle();
  expect(polls()).toBe(2);
  unsubscribe();
});

test('a poll due while another request for the key is in flight joins it instead of sending another', async () => {
  const { cache, store, polls, idle } = setup();
  const unsubscribe = cache.subscribe(store, endpointAt(1_000), { id: 'a' });
  await advance(0);
  await idle();
  const slow = gate();
  held = slow.promise;
  // Someone refetches just before the poll is due, and the server is slow to answer.
  await advance(900);
  void store.dispatch(cache.fetch(endpointAt(), { id: 'a' }));
  await until(() => polls() === 2, 'the refetch to reach the server');
  await advance(5_000);
  expect(polls()).toBe(2);
  held = undefined;
  slow.open();
  await idle();
  await advance(999);
  expect(polls()).toBe(2);
  await advance(1);
  await idle();
  expect(polls()).toBe(3);
  unsubscribe();
});

test('an answer from elsewhere counts as a poll: the next one is a period after it', async () => {
  const { cache, store, polls, idle } = setup();
  const unsubscribe = cache.subscribe(store, endpointAt(1_000), { id: 'a' });
  await advance(0);
  await idle();
  await advance(600);
  await store.dispatch(cache.fetch(endpointAt(), { id: 'a' }));
  expect(polls()).toBe(2);
  await advance(400); // the timer set for t = 1000 finds the key answered at t = 600
  expect(polls()).toBe(2);
  await advance(600);
  await idle();
  expect(polls()).toBe(3);
  unsubscribe();
});

test('an identical answer changes no stored object: the result and the row stay the same objects', async () => {
  const { cache, store, idle, key } = setup();
  const unsubscribe = cache.subscribe(store, endpointAt(1_000), { id: 'a' });
  await advance(0);
  await idle();
  const before = (store.getState() as any).cache;
  const data = cache.selectResponse(store.getState(), endpointAt(), { id: 'a' }).data;
  await advance(1_000);
  await idle();
  const after = (store.getState() as any).cache;
  expect(after.entities.Price).toBe(before.entities.Price);
  expect(after.endpoints[key]).toBe(before.endpoints[key]);
  // Only the entry's meta moved forward (its expiry).
  expect(after.meta[key].date).toBeGreaterThan(before.meta[key].date);
  expect(cache.selectResponse(store.getState(), endpointAt(), { id: 'a' }).data).toBe(data);
  // A changed answer is written.
  values.a = 2;
  await advance(1_000);
  await idle();
  expect(cache.selectResponse(store.getState(), endpointAt(), { id: 'a' }).data).toEqual(
    expect.objectContaining({ value: 2 }),
  );
  unsubscribe();
});

test('a failing poll stores its error and keeps the data; the next good poll clears it', async () => {
  const { cache, store, idle, key } = setup();
  const unsubscribe = cache.subscribe(store, endpointAt(1_000), { id: 'a' });
  await advance(0);
  await idle();
  const data = cache.selectResponse(store.getState(), endpointAt(), { id: 'a' }).data;
  const stored = (store.getState() as any).cache.endpoints[key];
  failNext = 1;
  await advance(1_000);
  await idle();
  const failed = cache.selectResponse(store.getState(), endpointAt(), { id: 'a' });
  expect(failed.error).toMatchObject({ status: 503, code: ErrorCode.NETWORK_ERROR });
  expect(failed.data).toBe(data);
  expect((store.getState() as any).cache.endpoints[key]).toBe(stored);
  await advance(1_000);
  await idle();
  const recovered = cache.selectResponse(store.getState(), endpointAt(), { id: 'a' });
  expect(recovered.error).toBeUndefined();
  expect(recovered.data).toBe(data);
  unsubscribe();
});

test('a stored answer delays the first poll by one period from when it was written', async () => {
  const { cache, store, polls, idle } = setup();
  await store.dispatch(cache.fetch(endpointAt(), { id: 'a' }));
  await advance(400);
  const unsubscribe = cache.subscribe(store, endpointAt(1_000), { id: 'a' });
  await advance(599);
  expect(polls()).toBe(1);
  await advance(1);
  await idle();
  expect(polls()).toBe(2);
  unsubscribe();
});

test('an answer dated ahead of this clock (state from a server whose clock runs ahead) does not hold polls back', async () => {
  const first = setup();
  await first.store.dispatch(first.cache.fetch(endpointAt(), { id: 'a' }));
  const state = snapshot(first.store.getState()) as { cache: { meta: Record<string, { date: number }> } };
  state.cache.meta[first.key]!.date = Date.now() + 3_600_000;
  const { cache, store } = makeStore({}, { preloadedState: state });
  const runtime = runtimeOf(cache, store);
  const polls = () => server.count('GET /prices/a');
  const idle = () => until(() => runtime.requests.pending(first.key) === undefined, 'the poll');
  const unsubscribe = cache.subscribe(store, endpointAt(1_000), { id: 'a' });
  await advance(999);
  expect(polls()).toBe(1);
  await advance(1);
  await idle();
  expect(polls()).toBe(2);
  await advance(1_000);
  await idle();
  expect(polls()).toBe(3);
  unsubscribe();
});

test('null params subscribe to nothing; a mutation, a bad pollFrequency or a store without the cache is refused with nothing registered', () => {
  const { cache, store, runtime } = setup();
  const none = cache.subscribe(store, endpointAt(1_000), null);
  expect(pollersOf(runtime).pollers.size).toBe(0);
  none();
  const create = new RestEndpoint({ urlPrefix: server.origin, path: '/prices', method: 'POST', pollFrequency: 1_000 });
  const before = snapshot(store.getState());
  expect(() => cache.subscribe(store, create, {})).toThrow(
    expect.objectContaining({
      code: ErrorCode.MUTATION_IN_HOOK,
      message: expect.stringMatching(/useMutation\(endpoint\).*controller\.fetch\(endpoint/),
    }),
  );
  for (const bad of [0, -1, Infinity, NaN, '1000']) {
    expect(() => endpointAt(bad as number)).toThrow(expect.objectContaining({ code: ErrorCode.INVALID_SCHEMA }));
    const plain = { key: () => 'GET /plain', pollFrequency: bad as number, fetch: async () => 1 };
    expect(() => cache.subscribe(store, plain)).toThrow(expect.objectContaining({ code: ErrorCode.INVALID_SCHEMA }));
  }
  const cannotFetch = { key: () => 'GET /nothing', pollFrequency: 1_000 };
  expect(() => cache.subscribe(store, cannotFetch)).toThrow(/neither request\(\) nor fetch\(\)/);
  expect(pollersOf(runtime).pollers.size).toBe(0);
  expect(runtime.subscriptions.held('subscription')).toEqual([]);
  expect(runtime.subscriptions.held('request')).toEqual([]);
  expect(snapshot(store.getState())).toEqual(before);
  // A store the cache is not mounted in is refused at once, not when the first poll runs.
  const elsewhere = { getState: () => ({}), dispatch: () => undefined };
  expect(() => cache.subscribe(elsewhere, endpointAt(1_000), { id: 'a' })).toThrow(
    expect.objectContaining({ code: ErrorCode.MIDDLEWARE_MISSING }),
  );
  // Its middleware without its reducer: refused too.
  const noSlice = configureStore({
    reducer: { other: () => 0 },
    middleware: getDefault => getDefault().concat(cache.middleware),
  });
  expect(() => cache.subscribe(noSlice, endpointAt(1_000), { id: 'a' })).toThrow(
    expect.objectContaining({ code: ErrorCode.CACHE_NOT_MOUNTED }),
  );
  expect(pollersOf(runtimeOf(cache, noSlice)).pollers.size).toBe(0);
});

test('without pollFrequency a subscription holds the key and polls nothing (with a development warning)', async () => {
  const { cache, store, runtime, key, polls } = setup();
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    const unsubscribe = cache.subscribe(store, endpointAt(), { id: 'a' });
    expect(runtime.subscriptions.count('request', key)).toBe(1);
    expect(pollersOf(runtime).pollers.size).toBe(0);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('polls nothing'));
    await advance(60_000);
    expect(polls()).toBe(0);
    unsubscribe();
    expect(runtime.subscriptions.count('request', key)).toBe(0);
  } finally {
    warn.mockRestore();
  }
});
