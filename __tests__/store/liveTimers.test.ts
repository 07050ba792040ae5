/**
 * Timers and options of live data (docs/live-data.md): a poll period or a retry delay longer than
 * `setTimeout` holds is waited for in full; retry options are checked on any endpoint object, not
 * only on RestEndpoint; a bad delay is a coded error; a poll's retries stop when its last
 * subscriber leaves. Plain endpoint objects count their requests; the clock is fake.
 */
import { ErrorCode, type RetryOptions } from '../../src/index';
import { checkRetry } from '../../src/base/endpointOptions';
import { advance, useLiveClock } from '../fixtures/liveClock';
import { makeStore, snapshot } from '../fixtures/store';
import { runtimeOf } from '../fixtures/runtime';

useLiveClock();

const DAY = 24 * 60 * 60 * 1_000;
const busy = () => Object.assign(new Error('busy'), { status: 503 });

/** A read whose requests the test counts; each answers with `answer(n)` for request number n. */
function countedRead(
  options: { pollFrequency?: number; retry?: RetryOptions },
  answer: (n: number) => unknown = n => ({ n }),
) {
  const read = {
    sent: 0,
    key: () => 'GET /counted',
    fetch: async () => {
      read.sent++;
      const value = answer(read.sent);
      if (value instanceof Error) throw value;
      return value;
    },
    ...options,
  };
  return read;
}

function setup() {
  const { cache, store } = makeStore();
  return { cache, store, runtime: runtimeOf(cache, store) };
}

test('a 30-day pollFrequency polls once per 30 days, not once per millisecond', async () => {
  const { cache, store } = setup();
  const read = countedRead({ pollFrequency: 30 * DAY });
  const unsubscribe = cache.subscribe(store, read);
  await advance(0);
  expect(read.sent).toBe(1);
  await advance(1_000);
  expect(read.sent).toBe(1);
  await advance(30 * DAY - 1_000);
  expect(read.sent).toBe(2);
  unsubscribe();
});

test('a retry delay above 2^31−1 ms is waited for in full', async () => {
  const { cache, store } = setup();
  const read = countedRead({ retry: { attempts: 1, delay: () => 30 * DAY } }, n => (n === 1 ? busy() : { n }));
  const outcome = store.dispatch(cache.fetch(read));
  await advance(1_000);
  expect(read.sent).toBe(1);
  await advance(30 * DAY - 1_000);
  expect(read.sent).toBe(2);
  expect(await outcome).toEqual({ n: 2 });
});

test('a retry delay that is not a number of ms fails the run with a coded error; the failure is its cause', async () => {
  for (const bad of [NaN, -5, Infinity, '100', undefined]) {
    const { cache, store } = setup();
    const read = countedRead({ retry: { attempts: 3, delay: () => bad as number } }, () => busy());
    const error = (await store.dispatch(cache.fetch(read)).catch(e => e)) as { cause?: unknown };
    expect(error).toMatchObject({ code: ErrorCode.INVALID_SCHEMA, message: expect.stringContaining('retry.delay(1)') });
    expect(error.cause).toMatchObject({ message: 'busy', status: 503 });
    await advance(60_000);
    expect(read.sent).toBe(1);
  }
});

test('retry options of any endpoint object are checked: attempts must be a whole, finite number', () => {
  const bads = [{ attempts: Infinity }, { attempts: -1 }, { attempts: 1.5 }, { attempts: 2, delay: 100 }, null, 3];
  for (const retry of bads) {
    const read = countedRead({ retry: retry as unknown as RetryOptions });
    expect(() => checkRetry(read.retry, 'GET /counted')).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_SCHEMA }),
    );
    // Subscribing refuses it at once, with nothing held.
    const { cache, store, runtime } = setup();
    const before = snapshot(store.getState());
    expect(() => cache.subscribe(store, read)).toThrow(expect.objectContaining({ code: ErrorCode.INVALID_SCHEMA }));
    expect(runtime.subscriptions.held('request')).toEqual([]);
    expect(snapshot(store.getState())).toEqual(before);
  }
  for (const retry of [undefined, { attempts: 0 }, { attempts: 3, delay: () => 1 }]) {
    expect(() => checkRetry(retry, 'GET /counted')).not.toThrow();
  }
});

test('cache.fetch of a plain endpoint with attempts: Infinity is refused at the call: nothing sent, store unchanged', async () => {
  const { cache, store } = setup();
  const read = countedRead({ retry: { attempts: Infinity } }, () => busy());
  const before = snapshot(store.getState());
  expect(() => store.dispatch(cache.fetch(read))).toThrow(expect.objectContaining({ code: ErrorCode.INVALID_SCHEMA }));
  await advance(60_000);
  expect(read.sent).toBe(0);
  expect(snapshot(store.getState())).toEqual(before);
});

describe('a poll’s retries end with its last subscriber', () => {
  const flaky = () => countedRead({ pollFrequency: 1_000, retry: { attempts: 5, delay: () => 100 } }, () => busy());

  test('the retry waiting when the last subscriber leaves is never sent', async () => {
    const { cache, store, runtime } = setup();
    const read = flaky();
    const unsubscribe = cache.subscribe(store, read);
    await advance(0);
    expect(read.sent).toBe(1);
    await advance(100);
    expect(read.sent).toBe(2); // retried while subscribed
    unsubscribe();
    await advance(60_000);
    expect(read.sent).toBe(2);
    expect(runtime.requests.pending('GET /counted')).toBeUndefined();
    expect(cache.selectResponse(store.getState(), read).error).toMatchObject({ message: 'busy' });
  });

  test('while a subscriber is left, the retries go on', async () => {
    const { cache, store } = setup();
    const read = flaky();
    const first = cache.subscribe(store, read);
    const second = cache.subscribe(store, read);
    await advance(0);
    first();
    await advance(100);
    expect(read.sent).toBe(2);
    second();
    await advance(60_000);
    expect(read.sent).toBe(2);
  });

  test('a run the poll did not start (a fetch the poll joined) keeps its retries', async () => {
    const { cache, store } = setup();
    const read = flaky();
    const outcome = store.dispatch(cache.fetch(read)).catch(e => e);
    const unsubscribe = cache.subscribe(store, read);
    await advance(0);
    unsubscribe();
    await advance(60_000);
    expect(read.sent).toBe(6);
    expect(await outcome).toMatchObject({ message: 'busy' });
  });
});
