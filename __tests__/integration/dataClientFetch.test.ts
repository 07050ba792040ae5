/**
 * The data-client request behaviors its users rely on (issue 29), against a real local server:
 * each test is named after the behavior.
 */
import { ErrorCode, NetworkError, RestEndpoint } from '../../src/index';
import { startServer, type TestServer } from '../fixtures/server';
import { makeStore, snapshot } from '../fixtures/store';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

test('a 2xx answer whose body claims JSON but does not parse is an error with status 400', async () => {
  server.on('GET /broken/:name', () => ({ raw: '{"id": "1", "title": ', contentType: 'application/json' }));
  const getBroken = new RestEndpoint({
    urlPrefix: server.origin,
    path: '/broken/:name',
    retry: { attempts: 3, delay: () => 0 },
  });
  const direct = await getBroken.fetch({ name: 'direct' }).catch((error: unknown) => error);
  expect(direct).toBeInstanceOf(NetworkError);
  expect(direct).toMatchObject({ status: 400, code: ErrorCode.INVALID_RESPONSE, body: '{"id": "1", "title": ' });
  expect((direct as NetworkError).response.status).toBe(200);
  expect((direct as Error).message).toMatch(/not valid JSON/);

  const { cache, store } = makeStore();
  const before = snapshot(store.getState());
  const error = await store.dispatch(cache.fetch(getBroken, { name: 'stored' })).catch((caught: unknown) => caught);
  expect(error).toMatchObject({ status: 400, code: ErrorCode.INVALID_RESPONSE });
  // A malformed answer would be malformed again: it is not retried.
  expect(server.count('GET /broken/stored')).toBe(1);
  const key = getBroken.key({ name: 'stored' });
  const state = store.getState().cache;
  expect(state.meta[key]?.error).toMatchObject({ name: 'NetworkError', status: 400, code: 'INVALID_RESPONSE' });
  expect(cache.selectResponse(store.getState(), getBroken, { name: 'stored' }).error).toBe(error);
  // Only the error record was written.
  expect(snapshot(state.entities)).toEqual((before as { cache: { entities: unknown } }).cache.entities);
  expect(state.endpoints[key]).toBeUndefined();
});
