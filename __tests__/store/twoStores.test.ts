/**
 * One cache in two stores, as a server renders (one store per request): each store owns its
 * requests and its read memo (docs/architecture.md, "Who owns what"). A reset, a sweep or an
 * optimistic rollback in one leaves the other's reads the very same objects, and its requests
 * in flight untouched.
 */
import { createCache, type EndpointLike } from '../../src/index';
import { Post } from '../fixtures/schemas';
import { makeStore } from '../fixtures/store';

const post = (id: string, title = `post ${id}`) => ({ id, title, author: { id: `u${id}`, name: 'Ann' }, comments: [] });
const getPost = { key: (id: string) => `GET /posts/${id}`, schema: Post };
const flush = () => new Promise<void>(resolve => setImmediate(resolve));

function twoStores() {
  const cache = createCache({ gcTime: 0 });
  const a = makeStore({}, { cache }).store;
  const b = makeStore({}, { cache }).store;
  for (const store of [a, b]) {
    store.dispatch(cache.setResponse(getPost, '1', post('1')));
    store.dispatch(cache.setResponse(getPost, '2', post('2')));
  }
  /** The response object: the same object while nothing it shows changed. */
  const read = (store: typeof a, id = '1') => cache.selectResponse(store.getState(), getPost, id);
  return { cache, a, b, read };
}

test("a reset in one store leaves the other's reads the same objects and its requests in flight", async () => {
  const { cache, a, b, read } = twoStores();
  const before = read(b);
  const sent: Array<(value: unknown) => void> = [];
  const slow: EndpointLike = {
    key: () => 'GET /slow',
    schema: Post,
    fetch: () => new Promise(resolve => sent.push(resolve)),
  };
  const pending = b.dispatch(cache.fetch(slow));
  a.dispatch(cache.resetEntireStore());
  expect(read(a).data).toBeUndefined();
  expect(read(b)).toBe(before);
  await flush();
  sent[0]!(post('3'));
  await expect(pending).resolves.toMatchObject({ id: '3' });
  expect(cache.selectQuery(b.getState(), Post, '3')).toMatchObject({ title: 'post 3' });
});

test("a sweep in one store leaves the other's reads the same objects", () => {
  const { cache, a, b, read } = twoStores();
  const before = [read(b, '1'), read(b, '2')];
  jest.useFakeTimers({ now: Date.now() + 10_000 });
  try {
    expect(cache.gc(a).requests).toBeGreaterThan(0);
  } finally {
    jest.useRealTimers();
  }
  expect(read(b, '1')).toBe(before[0]);
  expect(read(b, '2')).toBe(before[1]);
});

test("an optimistic rollback in one store leaves the other's reads the same objects", async () => {
  const { cache, a, b, read } = twoStores();
  const before = read(b);
  const fail: Array<(error: Error) => void> = [];
  const rename: EndpointLike = {
    key: () => 'PATCH /posts/1',
    schema: Post,
    sideEffect: true,
    fetch: () => new Promise((_, reject) => fail.push(reject)),
    getOptimisticResponse: () => ({ id: '1', title: 'guess' }),
  };
  const renaming = a.dispatch(cache.fetch(rename));
  expect(read(a).data).toMatchObject({ title: 'guess' });
  await flush();
  fail[0]!(new Error('refused'));
  await expect(renaming).rejects.toThrow('refused');
  expect(read(a).data).toMatchObject({ title: 'post 1' });
  expect(read(b)).toBe(before);
});
