/**
 * @jest-environment ./__tests__/fixtures/jsdomWithFetch.js
 */
/**
 * Polls wait while the page is hidden or the browser is offline, and the waiting poll is sent as
 * soon as the page is visible and online again (docs/live-data.md#polling), on a fake clock
 * against the real local server.
 */
import { Entity, RestEndpoint } from '../../src/index';
import { advance, until, useLiveClock } from '../fixtures/liveClock';
import { pollersOf, runtimeOf } from '../fixtures/runtime';
import { startServer, type TestServer } from '../fixtures/server';
import { makeStore } from '../fixtures/store';

class Quote extends Entity {
  id = '';
  value = 0;
  static override key = 'PausedQuote';
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  server.on('GET /quotes/:id', (_request, url) => ({ json: { id: url.pathname.split('/').pop(), value: 1 } }));
});
afterAll(() => server.close());
useLiveClock();

let visibility: 'visible' | 'hidden' = 'visible';
let online = true;
beforeEach(() => {
  server.requests.length = 0;
  visibility = 'visible';
  online = true;
  jest.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
  jest.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
});
afterEach(() => jest.restoreAllMocks());

function setup() {
  const { cache, store } = makeStore();
  const runtime = runtimeOf(cache, store);
  const endpoint = new RestEndpoint({
    urlPrefix: server.origin,
    path: '/quotes/:id',
    schema: Quote,
    pollFrequency: 1_000,
  });
  const key = endpoint.key({ id: 'a' });
  const polls = () => server.count('GET /quotes/a');
  const idle = () => until(() => runtime.requests.pending(key) === undefined, `${key} to be answered`);
  return { cache, store, runtime, endpoint, polls, idle };
}

test.each([
  [
    'hidden',
    () => (visibility = 'hidden'),
    () => ((visibility = 'visible'), document.dispatchEvent(new Event('visibilitychange'))),
  ],
  ['offline', () => (online = false), () => ((online = true), window.dispatchEvent(new Event('online')))],
])('while %s, no poll is sent; coming back sends the one that came due, then polls go on', async (_, pause, resume) => {
  const { cache, store, endpoint, polls, idle } = setup();
  const unsubscribe = cache.subscribe(store, endpoint, { id: 'a' });
  await advance(0);
  await idle();
  expect(polls()).toBe(1);
  pause();
  await advance(5_000);
  expect(polls()).toBe(1);
  resume();
  await advance(0);
  await idle();
  expect(polls()).toBe(2);
  await advance(1_000);
  await idle();
  expect(polls()).toBe(3);
  unsubscribe();
});

test('an event while still paused (visible but offline) sends nothing; leaving while paused removes the wait', async () => {
  const { cache, store, runtime, endpoint, polls, idle } = setup();
  const unsubscribe = cache.subscribe(store, endpoint, { id: 'a' });
  await advance(0);
  await idle();
  visibility = 'hidden';
  online = false;
  await advance(2_000);
  visibility = 'visible';
  document.dispatchEvent(new Event('visibilitychange'));
  await advance(0);
  expect(polls()).toBe(1);
  const removed = jest.spyOn(window, 'removeEventListener');
  unsubscribe();
  expect(pollersOf(runtime).pollers.size).toBe(0);
  // The listeners that ended the wait go with the last waiting key.
  expect(removed).toHaveBeenCalledWith('online', expect.any(Function));
  online = true;
  window.dispatchEvent(new Event('online'));
  await advance(2_000);
  expect(polls()).toBe(1);
});
