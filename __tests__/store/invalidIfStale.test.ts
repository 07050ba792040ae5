/**
 * An endpoint's `invalidIfStale` (docs/store.md, "Reading a response"): past its expiry its
 * response reads as invalid, not stale, so readers suspend and fetch instead of showing it. The
 * clock is the test's.
 */
import { ErrorCode, RestEndpoint, resource } from '../../src/index';
import { Post, User } from '../fixtures/schemas';
import { makeStore, snapshot } from '../fixtures/store';

const payload = [{ id: 'p1', title: 'One', author: { id: 'u1', name: 'Ada' } }];

/** A plain endpoint object (any EndpointLike), counting its fetches. */
function endpoint(options: { invalidIfStale?: unknown } = {}) {
  const calls: unknown[] = [];
  return {
    calls,
    key: () => 'GET /posts',
    schema: [Post],
    dataExpiryLength: 1_000,
    errorExpiryLength: 500,
    fetch: async () => {
      calls.push(1);
      return payload;
    },
    ...(options as { invalidIfStale?: boolean }),
  };
}

let now = 10_000;
beforeEach(() => {
  now = 10_000;
  jest.spyOn(Date, 'now').mockImplementation(() => now);
});
afterEach(() => jest.restoreAllMocks());

test('invalidIfStale: valid until it expires, then invalid with no data (the rows stay in the store)', () => {
  const { cache, store } = makeStore();
  const strict = endpoint({ invalidIfStale: true });
  store.dispatch(cache.setResponse(strict, payload));
  const fresh = cache.selectResponse(store.getState(), strict);
  expect(fresh.expiryStatus).toBe('valid');
  expect(fresh.data?.[0]?.title).toBe('One');

  now = 11_000;
  expect(cache.selectResponse(store.getState(), strict).expiryStatus).toBe('valid');
  now = 11_001;
  expect(cache.selectResponse(store.getState(), strict)).toEqual({
    data: undefined,
    expiryStatus: 'invalid',
    expiresAt: 11_000,
    error: undefined,
  });
  // Only the response reads as invalid: its rows are still there for every other read.
  expect(cache.selectQuery(store.getState(), Post, 'p1')?.title).toBe('One');
});

test('without invalidIfStale the same response is stale, its data shown', () => {
  const { cache, store } = makeStore();
  const lenient = endpoint();
  store.dispatch(cache.setResponse(lenient, payload));
  now = 11_001;
  const stale = cache.selectResponse(store.getState(), lenient);
  expect(stale.expiryStatus).toBe('stale');
  expect(stale.data?.[0]?.title).toBe('One');
});

test('an expired error beside shown data: invalid with invalidIfStale, stale without', () => {
  const { cache, store } = makeStore();
  const strict = endpoint({ invalidIfStale: true });
  const lenient = endpoint();
  for (const e of [strict, lenient]) {
    store.dispatch(cache.setResponse(e, payload));
    now = 10_100;
    store.dispatch(cache.setError(e, Object.assign(new Error('bad gateway'), { status: 502 })));
  }
  now = 10_700; // past the error's 500 ms
  expect(cache.selectResponse(store.getState(), strict).expiryStatus).toBe('invalid');
  expect(cache.selectResponse(store.getState(), lenient).expiryStatus).toBe('stale');
});

test('a response read through its query key (no stored result) is invalid once its rows expire', () => {
  const { cache, store } = makeStore();
  const getUser = { key: (params: { id: string }) => `GET /users/${params.id}`, schema: User, invalidIfStale: true };
  store.dispatch(cache.set(User, { id: 'u1', name: 'Ada' }));
  expect(cache.selectResponse(store.getState(), getUser, { id: 'u1' }).expiryStatus).toBe('valid');
  now = 70_001; // `set` rows expire after 60 s
  expect(cache.selectResponse(store.getState(), getUser, { id: 'u1' }).expiryStatus).toBe('invalid');
});

test('fetchIfStale fetches an expired invalidIfStale response and returns the promise', async () => {
  const { cache, store } = makeStore();
  const strict = endpoint({ invalidIfStale: true });
  store.dispatch(cache.setResponse(strict, payload));
  expect(store.dispatch(cache.fetchIfStale(strict))).toBe(cache.selectResponse(store.getState(), strict).data);
  expect(strict.calls).toHaveLength(0);
  now = 11_001;
  const result = store.dispatch(cache.fetchIfStale(strict));
  expect(result).toBeInstanceOf(Promise);
  await result;
  expect(strict.calls).toHaveLength(1);
  expect(cache.selectResponse(store.getState(), strict).expiryStatus).toBe('valid');
});

test('RestEndpoint and resource take invalidIfStale, extend keeps it; anything but a boolean is refused', () => {
  const getPost = new RestEndpoint({ path: '/posts/:id', schema: Post, invalidIfStale: true });
  expect(getPost.invalidIfStale).toBe(true);
  expect(getPost.extend({ dataExpiryLength: 5 }).invalidIfStale).toBe(true);
  expect(new RestEndpoint({ path: '/posts/:id' }).invalidIfStale).toBe(false);
  const PostResource = resource({ path: '/posts/:id', schema: Post, invalidIfStale: true });
  expect(PostResource.get.invalidIfStale).toBe(true);
  expect(PostResource.getList.invalidIfStale).toBe(true);
  for (const bad of ['yes', 1, null])
    expect(() => new RestEndpoint({ path: '/posts', invalidIfStale: bad as never })).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_SCHEMA, message: expect.stringContaining('invalidIfStale') }),
    );
});

test('an endpoint object with a bad invalidIfStale is refused at the fetch: nothing sent, nothing written', () => {
  const { cache, store } = makeStore();
  const bad = endpoint({ invalidIfStale: 'yes' });
  const before = snapshot(store.getState());
  expect(() => store.dispatch(cache.fetch(bad))).toThrow(expect.objectContaining({ code: ErrorCode.INVALID_SCHEMA }));
  expect(bad.calls).toHaveLength(0);
  expect(snapshot(store.getState())).toEqual(before);
});
