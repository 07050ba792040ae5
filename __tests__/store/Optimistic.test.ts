/**
 * The optimistic ledger and the order of answers (docs/mutations.md "How guesses are rebased",
 * docs/architecture.md "Ordering"): hand-picked cases; the seeded model test
 * (__tests__/reliability/writeOrder.model.test.ts) covers every order.
 */

import { createCache, Invalidate, type EndpointLike } from '../../src/index';
import { internalsOf } from '../../src/store/createCache';
import { makeStore, snapshot } from '../fixtures/store';
import { runtimeOf, ledgerOf } from '../fixtures/runtime';
import { Post } from '../fixtures/countedPost';

/** Endpoints whose requests wait for the test: `answer(i, value)` / `refuse(i)` settle the i-th call. */
function scripted() {
  const calls: { resolve(value: unknown): void; reject(error: unknown): void; args: unknown[] }[] = [];
  const call = (...args: unknown[]) => new Promise((resolve, reject) => calls.push({ resolve, reject, args }));
  const endpoint = (name: string, schema: unknown, extra: Partial<EndpointLike> = {}): EndpointLike => ({
    key: (...args: unknown[]) => `${name} ${JSON.stringify(args)}`,
    schema,
    fetch: call,
    ...extra,
  });
  return {
    calls,
    getPost: endpoint('getPost', Post),
    rename: endpoint('rename', Post, {
      sideEffect: true,
      getOptimisticResponse: (_snap: unknown, { id }: { id: string }, { title }: { title: string }) => ({ id, title }),
    }),
    increment: endpoint('increment', Post, {
      sideEffect: true,
      getOptimisticResponse: (snap: any, { id }: { id: string }) => ({ id, count: snap.get(Post, { id }).count + 1 }),
    }),
    remove: endpoint('remove', new Invalidate(Post), {
      sideEffect: true,
      getOptimisticResponse: (_snap: unknown, { id }: { id: string }) => ({ id }),
    }),
    patch: endpoint('patch', Post, { sideEffect: true }),
    removeNow: endpoint('removeNow', new Invalidate(Post), { sideEffect: true }),
  };
}

const flush = () => new Promise<void>(resolve => setImmediate(resolve));

async function setup() {
  const { cache, store } = makeStore();
  const api = scripted();
  const post = (id = '1') => cache.selectQuery(store.getState(), Post, { id });
  const slice = () => internalsOf(cache).slice(store.getState());
  store.dispatch(cache.setResponse(api.getPost, { id: '1' }, { id: '1', title: 'one', body: 'b', count: 0 }));
  return { cache, store, api, post, slice };
}

test('an updater edits the confirmed value: a refused guess under it leaves no trace', async () => {
  const { cache, store, api, post } = await setup();
  const renaming = store.dispatch(cache.fetch(api.rename, { id: '1' }, { title: 'guess' }));
  renaming.catch(() => undefined);
  store.dispatch(cache.set(Post, { id: '1' }, (draft: Post) => void (draft.body = 'edited')));
  expect(post()).toMatchObject({ title: 'guess', body: 'edited' });
  await flush();
  api.calls[0]!.reject(Object.assign(new Error('Unprocessable'), { status: 422 }));
  await expect(renaming).rejects.toThrow('Unprocessable');
  expect(post()).toMatchObject({ title: 'one', body: 'edited' });
});

test('guesses are computed again on each confirmed write: two increments answered out of order show both', async () => {
  const { cache, store, api, post } = await setup();
  const first = store.dispatch(cache.fetch(api.increment, { id: '1' }));
  const second = store.dispatch(cache.fetch(api.increment, { id: '1' }));
  expect(post()!.count).toBe(2);
  await flush();
  // The server applied the second first; its answer arrives first, and the first's guess is
  // computed again over it.
  api.calls[1]!.resolve({ id: '1', count: 1 });
  await second;
  expect(post()!.count).toBe(2);
  api.calls[0]!.resolve({ id: '1', count: 2 });
  await first;
  expect(post()!.count).toBe(2);
  expect(ledgerOf(runtimeOf(cache, store)).active).toBe(false);
});

test("a read that started before a mutation's answer arrived never overwrites it (a delete, a patch)", async () => {
  const { cache, store, api, post } = await setup();
  const deleting = store.dispatch(cache.fetch(api.removeNow, { id: '1' }));
  const reading = store.dispatch(cache.fetch(api.getPost, { id: '1' }));
  await flush();
  // The server served the read before applying the delete; the delete's answer arrives first.
  api.calls[0]!.resolve({ id: '1' });
  await deleting;
  api.calls[1]!.resolve({ id: '1', title: 'one', body: 'b', count: 0 });
  await reading;
  expect(post()).toBeUndefined();

  const second = await setup();
  const patching = second.store.dispatch(second.cache.fetch(second.api.patch, { id: '1' }, { title: 'new' }));
  const refetch = second.store.dispatch(second.cache.fetch(second.api.getPost, { id: '1' }));
  await flush();
  second.api.calls[0]!.resolve({ id: '1', title: 'new' });
  await patching;
  second.api.calls[1]!.resolve({ id: '1', title: 'one', body: 'b', count: 0 });
  await refetch;
  expect(second.post()!.title).toBe('new');
});

test('a pending optimistic delete does not make readers refetch; its failure brings the entity back', async () => {
  const { cache, store, api, post } = await setup();
  const deleting = store.dispatch(cache.fetch(api.remove, { id: '1' }));
  deleting.catch(() => undefined);
  const response = cache.selectResponse(store.getState(), api.getPost, { id: '1' });
  expect(response).toMatchObject({ data: undefined, expiryStatus: 'valid' });
  await flush();
  api.calls[0]!.reject(new Error('offline'));
  await expect(deleting).rejects.toThrow('offline');
  expect(post()!.title).toBe('one');
  // Once the server confirms a delete, the entity reads as invalid, as any deletion does.
  const confirmed = store.dispatch(cache.fetch(api.removeNow, { id: '1' }));
  await flush();
  api.calls[1]!.resolve({ id: '1' });
  await confirmed;
  expect(cache.selectResponse(store.getState(), api.getPost, { id: '1' }).expiryStatus).toBe('invalid');
});

test('a store listener that throws while the guess is dispatched: the guess goes, nothing is sent', async () => {
  const { cache, store, api, post, slice } = await setup();
  const before = snapshot(slice());
  const unsubscribe = store.subscribe(() => {
    throw new Error('quota exceeded');
  });
  const renaming = store.dispatch(cache.fetch(api.rename, { id: '1' }, { title: 'guess' }));
  unsubscribe();
  await expect(renaming).rejects.toThrow('quota exceeded');
  await flush();
  expect(api.calls).toHaveLength(0);
  expect(post()!.title).toBe('one');
  expect(snapshot(slice())).toEqual(before);
  expect(ledgerOf(runtimeOf(cache, store)).active).toBe(false);
});

describe('bad input is a coded error at the call; the store is unchanged', () => {
  test.each([
    ['errorExpiryLength: NaN', { errorExpiryLength: NaN }, 'INVALID_SCHEMA'],
    ['dataExpiryLength: -1', { dataExpiryLength: -1 }, 'INVALID_SCHEMA'],
    ['getOptimisticResponse: 5', { getOptimisticResponse: 5 }, 'INVALID_SCHEMA'],
  ])('%s', async (_, extra, code) => {
    const { cache, store, api, slice } = await setup();
    const before = snapshot(slice());
    const endpoint = { ...api.rename, ...extra } as EndpointLike;
    expect(() => store.dispatch(cache.fetch(endpoint, { id: '1' }, { title: 'x' }))).toThrow(
      expect.objectContaining({ code }),
    );
    await flush();
    expect(api.calls).toHaveLength(0);
    expect(snapshot(slice())).toEqual(before);
  });

  test('a guess that throws a non-Error, or returns a promise', async () => {
    const { cache, store, api, slice } = await setup();
    const before = snapshot(slice());
    const throwing = {
      ...api.rename,
      getOptimisticResponse: () => {
        throw 'nope';
      },
    };
    await expect(store.dispatch(cache.fetch(throwing, { id: '1' }, {}))).rejects.toMatchObject({
      code: 'NON_ERROR_THROWN',
    });
    const later = { ...api.rename, getOptimisticResponse: async () => ({ id: '1', title: 'x' }) };
    await expect(store.dispatch(cache.fetch(later, { id: '1' }, {}))).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    await flush();
    expect(api.calls).toHaveLength(0);
    expect(snapshot(slice())).toEqual(before);
  });

  test('an updater that returns a promise; resolve with a fetchedAt that is not finite', async () => {
    const { cache, store, api, slice } = await setup();
    const before = snapshot(slice());
    expect(() => store.dispatch(cache.set(Post, { id: '1' }, async (draft: Post) => void (draft.title = 'x')))).toThrow(
      expect.objectContaining({ code: 'UNEXPECTED_INPUT' }),
    );
    for (const fetchedAt of [Infinity, NaN]) {
      expect(() =>
        store.dispatch(cache.resolve(api.getPost, { args: [{ id: '1' }], response: { id: '1' }, fetchedAt })),
      ).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
    }
    expect(snapshot(slice())).toEqual(before);
  });
});

test('set works destructured from the cache, with an updater', () => {
  const cache = createCache();
  const { store } = makeStore({}, { cache });
  const { set } = cache;
  store.dispatch(set(Post, { id: '1', title: 'one' }));
  store.dispatch(set(Post, { id: '1' }, (draft: Post) => void (draft.title = 'two')));
  expect(cache.selectQuery(store.getState(), Post, { id: '1' })!.title).toBe('two');
});
