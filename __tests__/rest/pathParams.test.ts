/**
 * Path params never climb out of their path: `.` and `..` segments are refused in single params
 * and in wildcards, also percent-encoded or between backslashes, before any request is sent.
 * Checked against a real local server, where a traversal would have reached another route.
 */
import { ErrorCode, LensCacheError, RestEndpoint } from '../../src/index';
import { startServer, type TestServer } from '../fixtures/server';
import { makeStore } from '../fixtures/store';
import { expectRejected } from '../fixtures/writes';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  server.on('GET /api/admin', () => ({ json: { secret: true } }));
  server.on('GET /api/files/:a', request => ({ json: { url: request.url } }));
  server.on('GET /api/files/:a/:b', request => ({ json: { url: request.url } }));
  server.on('GET /api/files/:a/:b/:c', request => ({ json: { url: request.url } }));
});
afterAll(() => server.close());

const files = () => new RestEndpoint({ urlPrefix: `${server.origin}/api`, path: '/files/*path' });
const file = () => new RestEndpoint({ urlPrefix: `${server.origin}/api`, path: '/files/:name' });

const TRAVERSALS: unknown[][] = [
  ['..', '..', 'admin'],
  ['docs', '.', 'x'],
  ['%2e%2e', '%2E%2E', 'admin'],
  ['.%2E', 'admin'],
  ['..\\..\\admin'],
  ['..%5C..%5Cadmin'],
  ['../../admin'],
  ['a', ''],
  ['a', { toString: () => '..' }],
];

describe('a wildcard param', () => {
  test.each(TRAVERSALS.map(segments => [JSON.stringify(segments), segments]))(
    '%s is refused before any request, the store unchanged',
    async (_, segments) => {
      const endpoint = files();
      const { cache, store } = makeStore();
      const before = server.count();
      const error = expectRejected(
        store,
        () => store.dispatch(cache.fetch(endpoint, { path: segments } as never)),
        ErrorCode.UNEXPECTED_INPUT,
      );
      expect(error.message).toMatch(/path param "path"/);
      await expect(endpoint.fetch({ path: segments } as never)).rejects.toMatchObject({
        code: ErrorCode.UNEXPECTED_INPUT,
      });
      expect(() => endpoint.url({ path: segments } as never)).toThrow(LensCacheError);
      expect(server.count()).toBe(before);
    },
  );

  test('ordinary segments, dots inside names included, reach the server encoded', async () => {
    const endpoint = files();
    const { cache, store } = makeStore();
    const body = await store.dispatch(cache.fetch(endpoint, { path: ['docs', 'v1.2', '...'] } as never));
    expect(body).toEqual({ url: '/api/files/docs/v1.2/...' });
    expect(endpoint.url({ path: ['a b', 'c/d'] } as never)).toBe(`${server.origin}/api/files/a%20b/c%2Fd`);
  });
});

describe('a single param', () => {
  test.each(['..', '.', '%2e%2e', '.%2E', '..\\admin', '../admin', ''])(
    '%p is refused before any request',
    async name => {
      const endpoint = file();
      const before = server.count();
      expect(() => endpoint.url({ name })).toThrow(expect.objectContaining({ code: ErrorCode.UNEXPECTED_INPUT }));
      await expect(endpoint.fetch({ name })).rejects.toMatchObject({ code: ErrorCode.UNEXPECTED_INPUT });
      expect(server.count()).toBe(before);
    },
  );

  test('a name with dots in it is an ordinary value', async () => {
    await expect(file().fetch({ name: 'report.v2.pdf' })).resolves.toEqual({ url: '/api/files/report.v2.pdf' });
  });
});
