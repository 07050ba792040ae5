/**
 * `content` (docs/RestEndpoint.md#downloads): each way of reading a body against a real local
 * server, the option's checks, and a download through the cache, which answers the caller and
 * writes nothing to the slice.
 */
import { Entity, ErrorCode, RestEndpoint, type EndpointLike } from '../../src/index';
import { startServer, type TestServer } from '../fixtures/server';
import { makeStore } from '../fixtures/store';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  server.on('GET /files/:id', () => ({ raw: 'PNG-bytes', contentType: 'application/octet-stream' }));
  server.on('GET /notes/json', () => ({ raw: '{"a": 1}', contentType: 'text/plain' }));
  server.on('GET /notes/text', () => ({ raw: '{"a": 1}', contentType: 'application/json' }));
  server.on('GET /notes/words', () => ({ raw: 'just words', contentType: 'application/json' }));
  server.on('GET /notes/empty', () => ({ status: 200, raw: '', contentType: 'text/plain' }));
});
afterAll(() => server.close());

const files = <C extends 'blob' | 'arrayBuffer' | 'stream'>(content: C) =>
  new RestEndpoint({ urlPrefix: server.origin, path: '/files/:id', content });

class Post extends Entity {
  id = '';
}

describe('content reads the body', () => {
  test("'blob' resolves to a Blob", async () => {
    const blob = await files('blob').fetch({ id: 1 });
    expect(blob).toBeInstanceOf(Blob);
    expect(await blob.text()).toBe('PNG-bytes');
  });

  test("'arrayBuffer' resolves to the bytes", async () => {
    const bytes = await files('arrayBuffer').fetch({ id: 1 });
    expect(bytes).toBeInstanceOf(ArrayBuffer);
    expect(Buffer.from(bytes).toString()).toBe('PNG-bytes');
  });

  test("'stream' resolves to the unread body stream", async () => {
    const stream = await files('stream').fetch({ id: 1 });
    expect(stream).toBeInstanceOf(ReadableStream);
    expect(await new Response(stream).text()).toBe('PNG-bytes');
  });

  test("'json' parses whatever the content type, and refuses a body that is not JSON", async () => {
    const json = new RestEndpoint({ urlPrefix: server.origin, path: '/notes/:name', content: 'json' });
    await expect(json.fetch({ name: 'json' })).resolves.toEqual({ a: 1 });
    await expect(json.fetch({ name: 'words' })).rejects.toMatchObject({
      code: ErrorCode.INVALID_RESPONSE,
      status: 400,
    });
    // Text-typed, not looking like JSON: without `content` it would be returned as text.
    server.on('GET /notes/plain', () => ({ raw: 'hello', contentType: 'text/plain' }));
    await expect(json.fetch({ name: 'plain' })).rejects.toMatchObject({ code: ErrorCode.INVALID_RESPONSE });
  });

  test("'text' never parses: a JSON body and an empty one come back as their text", async () => {
    const text = new RestEndpoint({ urlPrefix: server.origin, path: '/notes/:name', content: 'text' });
    await expect(text.fetch({ name: 'text' })).resolves.toBe('{"a": 1}');
    await expect(text.fetch({ name: 'empty' })).resolves.toBe('');
  });

  test('extend carries content, and a download is never shared nor a read', () => {
    const base = new RestEndpoint({ path: '/files/:id' });
    expect(base.sideEffect).toBe(false);
    const blob = base.extend({ content: 'blob' });
    expect(blob.content).toBe('blob');
    expect(blob.sideEffect).toBe(true);
    expect(base.extend({ content: 'text' }).sideEffect).toBe(false);
  });
});

describe('the option is checked', () => {
  test.each([['xml'], [1], [null], ['Blob']])('content %p is INVALID_SCHEMA', content => {
    expect(() => new RestEndpoint({ path: '/x', content: content as never })).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_SCHEMA, message: expect.stringMatching(/content of GET \/x/) }),
    );
  });

  test.each([['text'], ['blob'], ['arrayBuffer'], ['stream']])('content %p with a schema is INVALID_SCHEMA', c => {
    expect(() => new RestEndpoint({ path: '/x', schema: Post, content: c as never })).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_SCHEMA, message: expect.stringMatching(/has a schema/) }),
    );
    expect(new RestEndpoint({ path: '/x', schema: Post, content: 'json' }).content).toBe('json');
  });

  test('a download takes no getOptimisticResponse: nothing is stored, so no guess would ever be taken back', () => {
    const guess = () => new Blob([]);
    expect(() => new RestEndpoint({ path: '/x', content: 'blob', getOptimisticResponse: guess })).toThrow(
      expect.objectContaining({
        code: ErrorCode.INVALID_SCHEMA,
        message: expect.stringMatching(/getOptimisticResponse/),
      }),
    );
    expect(new RestEndpoint({ path: '/x', content: 'text', getOptimisticResponse: () => 'x' }).content).toBe('text');
  });

  test('an endpoint object of your own is checked before anything is sent or written', () => {
    const { cache, store } = makeStore();
    const before = store.getState();
    const odd: EndpointLike = { key: () => 'GET /odd', content: 'pdf' as never, fetch: async () => 1 };
    expect(() => store.dispatch(cache.fetch(odd))).toThrow(expect.objectContaining({ code: ErrorCode.INVALID_SCHEMA }));
    expect(store.getState()).toBe(before);
    expect(server.count('GET /odd')).toBe(0);
  });
});

describe('a download through the cache', () => {
  test('cache.fetch resolves to the Blob, each call is its own request, and the slice is untouched', async () => {
    const { cache, store } = makeStore();
    const before = store.getState();
    const download = files('blob');
    const count = server.count('GET /files/7');
    const [a, b] = await Promise.all([
      store.dispatch(cache.fetch(download, { id: 7 })),
      cache.controller(store).fetch(download, { id: 7 }),
    ]);
    expect(a).toBeInstanceOf(Blob);
    expect(await b.text()).toBe('PNG-bytes');
    expect(server.count('GET /files/7')).toBe(count + 2);
    expect(store.getState()).toBe(before);
    expect(cache.selectResponse(store.getState(), download, { id: 7 }).data).toBeUndefined();
  });

  test('a stream is handed over unread; a failed download rejects and stores no error', async () => {
    const { cache, store } = makeStore();
    const before = store.getState();
    const stream = await store.dispatch(cache.fetch(files('stream'), { id: 2 }));
    expect(await new Response(stream).text()).toBe('PNG-bytes');
    server.on('GET /missing/:id', () => ({ status: 404, json: { message: 'gone' } }));
    const missing = new RestEndpoint({ urlPrefix: server.origin, path: '/missing/:id', content: 'blob' });
    await expect(store.dispatch(cache.fetch(missing, { id: 1 }))).rejects.toMatchObject({ status: 404 });
    expect(store.getState()).toBe(before);
  });

  test('a download is not subscribed to (as a mutation is not): nothing would hold it', () => {
    const { cache, store } = makeStore();
    expect(() => cache.subscribe(store, files('blob'), { id: 1 })).toThrow(
      expect.objectContaining({ code: ErrorCode.MUTATION_IN_HOOK }),
    );
  });

  test("a 'text' endpoint is stored as any schema-less read", async () => {
    const { cache, store } = makeStore();
    const text = new RestEndpoint({ urlPrefix: server.origin, path: '/notes/:name', content: 'text' });
    await expect(store.dispatch(cache.fetch(text, { name: 'text' }))).resolves.toBe('{"a": 1}');
    expect(cache.selectResponse(store.getState(), text, { name: 'text' }).data).toBe('{"a": 1}');
  });
});
