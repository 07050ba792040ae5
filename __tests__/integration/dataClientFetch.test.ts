/**
 * The data-client request behaviors its users rely on (issue 29), against a real local server:
 * each test is named after the behavior.
 */
import { Entity, ErrorCode, NetworkError, resource, RestEndpoint } from '../../src/index';
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

test('FormData, Blob, URLSearchParams and ArrayBuffer bodies are sent untouched by RestEndpoint', async () => {
  server.on('POST /uploads/:kind', request => ({
    json: { id: request.url, type: request.headers['content-type'] ?? null, text: request.text },
  }));
  const upload = new RestEndpoint({
    urlPrefix: server.origin,
    path: '/uploads/:kind',
    method: 'POST',
    headers: { 'X-Trace': 't1' },
  });
  type Echo = { type: string | null; text: string };
  const send = async (kind: string, body: unknown) => (await upload.fetch({ kind }, body as never)) as Echo;

  const form = new FormData();
  form.append('title', 'Report');
  form.append('file', new Blob(['file body'], { type: 'text/plain' }), 'report.txt');
  const sentForm = await send('form', form);
  // fetch gives a form its multipart type and boundary; the parts are the form's, not JSON.
  expect(sentForm.type).toMatch(/^multipart\/form-data; boundary=/);
  expect(sentForm.text).toContain('name="title"\r\n\r\nReport');
  expect(sentForm.text).toContain('filename="report.txt"');
  expect(sentForm.text).toContain('file body');

  const blob = await send('blob', new Blob(['<svg/>'], { type: 'image/svg+xml' }));
  expect(blob).toMatchObject({ type: 'image/svg+xml', text: '<svg/>' });

  const search = await send('search', new URLSearchParams({ q: 'a b', page: '2' }));
  expect(search).toMatchObject({ type: 'application/x-www-form-urlencoded;charset=UTF-8', text: 'q=a+b&page=2' });

  const bytes = await send('bytes', new TextEncoder().encode('raw bytes').buffer);
  expect(bytes).toMatchObject({ type: null, text: 'raw bytes' });
  const view = await send('view', new TextEncoder().encode('a view'));
  expect(view).toMatchObject({ type: null, text: 'a view' });

  // The endpoint's own headers still go; a plain object is still JSON.
  const last = server.requests.at(-1)!;
  expect(last.headers['x-trace']).toBe('t1');
  const json = await send('json', { title: 'x' });
  expect(json).toMatchObject({ type: 'application/json', text: '{"title":"x"}' });

  // Such a body is not written into the request key (bytes would make a large key).
  expect(upload.key({ kind: 'view' }, new Uint8Array(1_000) as never)).toBe(`POST ${server.origin}/uploads/view`);
  // Through the cache as well.
  const { cache, store } = makeStore();
  const stored = (await store.dispatch(cache.fetch(upload, { kind: 'cached' }, form as never))) as Echo;
  expect(stored.type).toMatch(/^multipart\/form-data; boundary=/);
});

test('resource().delete resolves to the deleted item the answer names, and the item leaves the cache', async () => {
  class Memo extends Entity {
    id = '';
    title = '';
    group = '';
    static override key = 'Memo';
  }
  const memos = resource({ urlPrefix: server.origin, path: '/:group/memos/:id', schema: Memo });
  server.on('GET /:group/memos', () => ({
    json: [
      { id: '1', title: 'One', group: 'a' },
      { id: '2', title: 'Two', group: 'a' },
      { id: '3', title: 'Three', group: 'a' },
    ],
  }));
  // One server answers a delete with no body, another with the deleted item.
  server.on('DELETE /:group/memos/:id', (request, url) =>
    url.pathname.endsWith('/3') ? { json: { id: '3', title: 'Three', group: 'a' } } : { status: 204, raw: '' },
  );
  const { cache, store } = makeStore();
  await store.dispatch(cache.fetch(memos.getList, { group: 'a' }));

  // No body: the params name the item, and it resolves to it as a Memo (defaults for the rest).
  const deleted = await store.dispatch(cache.fetch(memos.delete, { group: 'a', id: '2' }));
  expect(deleted).toBeInstanceOf(Memo);
  expect(deleted).toMatchObject({ id: '2', group: 'a', title: '' });
  expect(Object.isFrozen(deleted)).toBe(true);
  // The answer as sent, with its fields.
  const sent = await store.dispatch(cache.fetch(memos.delete, { group: 'a', id: '3' }));
  expect(sent).toMatchObject({ id: '3', title: 'Three' });

  // The items are gone from the cache: from the list, and their get reads nothing.
  const state = store.getState();
  expect(cache.selectResponse(state, memos.getList, { group: 'a' }).data!.map(memo => memo.id)).toEqual(['1']);
  expect(cache.selectQuery(state, Memo, '2')).toBeUndefined();
  expect(state.cache.entities.Memo!['2']).toBeNull();
  expect(cache.selectResponse(state, memos.get, { group: 'a', id: '3' }).expiryStatus).toBe('invalid');
  // Reading the delete's own answer gives what the call resolved to.
  const answer = cache.selectResponse(state, memos.delete, { group: 'a', id: '2' });
  expect(answer.data).toBe(deleted);
  expect(answer.expiryStatus).toBe('valid');
});
