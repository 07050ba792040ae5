/**
 * An endpoint's own key (docs/RestEndpoint.md, "Keys of your own"): a subclass overrides `key()`
 * to leave a param out of it; the param is still sent, the cache stores and reads one answer for
 * the args that differ only in it, and the endpoints the subclass derives (getPage) key the same way.
 */
import { Collection, Entity, RestEndpoint, type RestArgs, type RestEndpointOptions } from '../../src/index';
import { requestsSince, startServer, type TestServer } from '../fixtures/server';
import { makeStore } from '../fixtures/store';

class Note extends Entity {
  id = '';
  text = '';
  static override key = 'KeyedNote';
}

/** Leaves the `trace` param (a request id for the server's logs) out of every key. */
class UntracedEndpoint<const O extends RestEndpointOptions = RestEndpointOptions> extends RestEndpoint<O> {
  override key(...args: RestArgs<O>): string {
    const [params, ...rest] = args as unknown as [Record<string, unknown> | undefined, ...unknown[]];
    const { trace: _trace, ...kept } = params ?? {};
    return super.key(...([kept, ...rest] as unknown as RestArgs<O>));
  }
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  server.on('GET /notes', (_, url) => {
    const start = Number(url.searchParams.get('cursor') ?? 0);
    return {
      json: {
        results: [{ id: String(start + 1), text: `note ${start + 1}` }],
        nextCursor: start < 2 ? String(start + 1) : null,
      },
    };
  });
});
afterAll(() => server.close());

function endpoint() {
  return new UntracedEndpoint({
    urlPrefix: server.origin,
    path: '/notes',
    searchParams: {} as { trace?: string; cursor?: string },
    // The list's own key (its Collection's argsKey) leaves the trace out too.
    schema: { results: new Collection([Note], { argsKey: () => ({}) }), nextCursor: null as string | null },
    paginationField: 'cursor',
  });
}

test('a param the key leaves out is sent, and args that differ only in it share one stored answer', async () => {
  const getNotes = endpoint();
  expect(getNotes.key({ trace: 'a' })).toBe(getNotes.key({ trace: 'b' }));
  expect(getNotes.url({ trace: 'a' })).toContain('trace=a');
  const { cache, store } = makeStore();
  const sent = requestsSince(server);
  await store.dispatch(cache.fetch(getNotes, { trace: 'a' }));
  expect(sent()).toEqual(['/notes?trace=a']);
  // Another trace: the same key, fresh, nothing fetched, the same data.
  await store.dispatch(cache.fetchIfStale(getNotes, { trace: 'b' }));
  expect(sent()).toHaveLength(1);
  const a = cache.selectResponse(store.getState(), getNotes, { trace: 'a' });
  const b = cache.selectResponse(store.getState(), getNotes, { trace: 'b' });
  expect(b.expiryStatus).toBe('valid');
  expect(b.data).toBe(a.data);
  expect(Object.keys(store.getState().cache.endpoints)).toEqual([getNotes.key({})]);
});

test('the endpoints a subclass derives key the same way: a page loaded with one trace continues the list read with another', async () => {
  const getNotes = endpoint();
  expect(getNotes.getPage).toBeInstanceOf(UntracedEndpoint);
  expect(getNotes.getPage.key({ trace: 'x', cursor: '1' })).toBe(getNotes.getPage.key({ cursor: '1' }));
  const { cache, store } = makeStore();
  await store.dispatch(cache.fetch(getNotes, { trace: 'a' }));
  await store.dispatch(cache.fetch(getNotes.getPage, { trace: 'b', cursor: '1' }));
  const read = cache.selectResponse(store.getState(), getNotes, { trace: 'c' });
  expect(read.data?.results.map(note => note.id)).toEqual(['1', '2']);
  // (Members beside the list are the first page's: docs/pagination.md.)
  expect(read.data?.nextCursor).toBe('1');
});
