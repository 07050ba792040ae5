/**
 * Bursts of answers (the bursts feature, src/store/features/bursts, docs/architecture.md "Bursts
 * of answers"): the answers of requests that land in one task are one write action, under every
 * rule a single answer follows. Without the feature, each answer is its own action.
 */

import { configureStore, type Middleware } from '@reduxjs/toolkit';
import {
  bursts,
  createLeanCache,
  garbageCollection,
  liveData,
  optimisticUpdates,
  pagination,
  RestEndpoint,
  retries,
  type BurstOptions,
  type CacheOptions,
  type CacheState,
  type EndpointLike,
} from '../../src/index';
import { ledgerOf, runtimeOf } from '../fixtures/runtime';
import { startServer, type TestServer } from '../fixtures/server';
import { Post } from '../fixtures/countedPost';

/**
 * A store whose cache (every feature createCache installs, and bursts unless `joined` is false)
 * has its write actions recorded; endpoints whose calls wait for the test.
 */
function setup(options: CacheOptions = {}, joined = true) {
  const features = [garbageCollection, liveData, optimisticUpdates, retries, pagination];
  const cache = createLeanCache({ ...options, features: joined ? [...features, bursts()] : features });
  const writes: { type: string; meta: { start?: number; key?: string } }[] = [];
  const record: Middleware = () => next => action => {
    if (String((action as { type?: unknown }).type).startsWith('cache/')) writes.push(action as never);
    return next(action);
  };
  const store = configureStore({
    reducer: { [cache.reducerPath]: cache.reducer },
    middleware: getDefault => getDefault().concat(record, cache.middleware),
  });
  const calls: { resolve(value: unknown): void; reject(error: unknown): void }[] = [];
  const call = () => new Promise((resolve, reject) => calls.push({ resolve, reject }));
  const endpoint = (name: string, extra: Partial<EndpointLike> = {}): EndpointLike => ({
    key: (...args: unknown[]) => `${name} ${JSON.stringify(args)}`,
    schema: Post,
    fetch: call,
    ...extra,
  });
  const api = {
    getPost: endpoint('getPost'),
    rename: endpoint('rename', {
      sideEffect: true,
      getOptimisticResponse: (_snap: unknown, { id }: { id: string }, { title }: { title: string }) => ({ id, title }),
    }),
    increment: endpoint('increment', {
      sideEffect: true,
      getOptimisticResponse: (snap: any, { id }: { id: string }) => ({ id, count: snap.get(Post, { id }).count + 1 }),
    }),
  };
  const post = (id: string) => cache.selectQuery(store.getState(), Post, { id }) as Post | undefined;
  const slice = () => (store.getState() as Record<string, CacheState>)[cache.reducerPath]!;
  const fetch = (endpoint: EndpointLike, ...args: unknown[]) => store.dispatch(cache.fetch(endpoint, ...args));
  /** The write actions dispatched while `act` runs and its answers land. */
  const count = async (act: () => void) => {
    await flush();
    const before = writes.length;
    act();
    await flush();
    return writes.slice(before);
  };
  return { cache, store, api, calls, post, slice, fetch, count, writes };
}

const flush = () => new Promise<void>(resolve => setImmediate(resolve));

test('answers that land in one task are one write action: every row written, each request gets its own result', async () => {
  const { api, calls, post, fetch, count } = setup();
  const requests = ['1', '2', '3'].map(id => fetch(api.getPost, { id }));
  await flush();
  const joined = await count(() => calls.forEach((call, i) => call.resolve({ id: String(i + 1), title: `t${i + 1}` })));
  expect(joined).toHaveLength(1);
  expect(joined[0]!.type).toBe('cache/resolve');
  expect(['1', '2', '3'].map(id => post(id)?.title)).toEqual(['t1', 't2', 't3']);
  const results = (await Promise.all(requests)) as Post[];
  expect(results.map(result => result.title)).toEqual(['t1', 't2', 't3']);
  expect(results[0]).toBeInstanceOf(Post);
});

test('without the bursts feature, three answers in one task are three actions, each with its key and start', async () => {
  const { api, calls, post, fetch, count } = setup({}, false);
  const requests = ['1', '2', '3'].map(id => fetch(api.getPost, { id }));
  await flush();
  const writes = await count(() => calls.forEach((call, i) => call.resolve({ id: String(i + 1), title: `t${i + 1}` })));
  expect(writes.map(write => [write.type, write.meta.key])).toEqual(
    ['1', '2', '3'].map(id => ['cache/resolve', `getPost [{"id":"${id}"}]`]),
  );
  expect(writes.every(write => typeof write.meta.start === 'number')).toBe(true);
  expect(['1', '2', '3'].map(id => post(id)?.title)).toEqual(['t1', 't2', 't3']);
  const results = (await Promise.all(requests)) as Post[];
  expect(results.map(result => result.title)).toEqual(['t1', 't2', 't3']);
});

test('an answer alone is written as before: one action with its key and start', async () => {
  const { api, calls, fetch, count } = setup();
  const request = fetch(api.getPost, { id: '1' });
  await flush();
  const alone = await count(() => calls[0]!.resolve({ id: '1', title: 'one' }));
  expect(alone).toHaveLength(1);
  expect(alone[0]!.meta).toMatchObject({ key: 'getPost [{"id":"1"}]', start: expect.any(Number) });
  await expect(request).resolves.toMatchObject({ title: 'one' });
});

test('two answers of a burst writing different fields of one row keep both, and the joined write carries the highest start', async () => {
  const { api, calls, post, fetch, count, slice } = setup();
  fetch(api.getPost, { id: '1' });
  fetch(api.getPost, { id: '1', view: 'body' });
  await flush();
  const joined = await count(() => {
    calls[0]!.resolve({ id: '1', title: 'title' });
    calls[1]!.resolve({ id: '1', body: 'body' });
  });
  expect(joined).toHaveLength(1);
  expect(post('1')).toMatchObject({ title: 'title', body: 'body' });
  const starts = Object.values(slice().meta).map(meta => meta!.fetchedAt);
  expect(joined[0]!.meta.start).toBe(Math.max(...starts));
  expect(joined[0]!.meta.key).toBeUndefined();
});

test('an older answer in a burst does not overwrite the row a newer one wrote', async () => {
  const { api, calls, post, fetch, count } = setup();
  fetch(api.getPost, { id: '1' });
  fetch(api.getPost, { id: '1', again: true });
  await flush();
  // The newer request's answer lands first in the burst, the older one's after it.
  const joined = await count(() => {
    calls[1]!.resolve({ id: '1', title: 'newer' });
    calls[0]!.resolve({ id: '1', title: 'older' });
  });
  expect(joined).toHaveLength(1);
  expect(post('1')?.title).toBe('newer');
});

test('a guess pending under a burst is shown over it, and each answer takes its own guess place', async () => {
  const { store, cache, api, calls, post, fetch, count } = setup();
  store.dispatch(cache.setResponse(api.getPost, { id: '1' }, { id: '1', title: 'one', count: 0 }));
  store.dispatch(cache.setResponse(api.getPost, { id: '2' }, { id: '2', title: 'two', count: 0 }));
  const renames = [
    fetch(api.rename, { id: '1' }, { title: 'guess 1' }),
    fetch(api.rename, { id: '2' }, { title: 'guess 2' }),
  ];
  const increment = fetch(api.increment, { id: '1' });
  await flush();
  expect(post('1')).toMatchObject({ title: 'guess 1', count: 1 });
  const ledger = ledgerOf(runtimeOf(cache, store));
  expect(ledger.layers).toHaveLength(3);
  const joined = await count(() => {
    calls[0]!.resolve({ id: '1', title: 'saved 1' });
    calls[1]!.resolve({ id: '2', title: 'saved 2' });
  });
  expect(joined).toHaveLength(1);
  // Both answers replaced their guesses; the pending increment is still shown over them.
  expect(post('1')).toMatchObject({ title: 'saved 1', count: 1 });
  expect(post('2')).toMatchObject({ title: 'saved 2' });
  expect(ledger.layers).toHaveLength(1);
  await expect(Promise.all(renames)).resolves.toMatchObject([{ title: 'saved 1' }, { title: 'saved 2' }]);
  calls[2]!.resolve({ id: '1', count: 1 });
  await increment;
  expect(post('1')).toMatchObject({ title: 'saved 1', count: 1 });
  expect(ledger.layers).toHaveLength(0);
});

test('an answer that fails to normalize in a burst records its error; the others land', async () => {
  const { api, calls, post, fetch, count, slice } = setup();
  const good = fetch(api.getPost, { id: '1' });
  const bad = fetch(api.getPost, { id: 'bad' });
  const other = fetch(api.getPost, { id: '2' });
  bad.catch(() => undefined);
  await flush();
  const joined = await count(() => {
    calls[0]!.resolve({ id: '1', title: 'one' });
    calls[1]!.resolve({ title: 'no pk' });
    calls[2]!.resolve({ id: '2', title: 'two' });
  });
  expect(joined).toHaveLength(1);
  expect([post('1')?.title, post('2')?.title]).toEqual(['one', 'two']);
  await expect(bad).rejects.toThrow();
  expect(slice().meta['getPost [{"id":"bad"}]']?.error).toBeDefined();
  await expect(good).resolves.toMatchObject({ title: 'one' });
  await expect(other).resolves.toMatchObject({ title: 'two' });
});

test('a 401 in a burst: the answers before it are written and returned, the store reset, the answers after it dropped', async () => {
  const onUnauthorized = jest.fn();
  const { api, calls, post, fetch, count, slice } = setup({ onUnauthorized });
  const before = fetch(api.getPost, { id: '1' });
  const refused = fetch(api.getPost, { id: '2' });
  const after = fetch(api.getPost, { id: '3' });
  refused.catch(() => undefined);
  await flush();
  const writes = await count(() => {
    calls[0]!.resolve({ id: '1', title: 'one' });
    calls[1]!.reject(Object.assign(new Error('Unauthorized'), { status: 401 }));
    calls[2]!.resolve({ id: '3', title: 'three' });
  });
  expect(onUnauthorized).toHaveBeenCalledTimes(1);
  await expect(before).resolves.toMatchObject({ title: 'one' });
  await expect(refused).rejects.toThrow('Unauthorized');
  await expect(after).resolves.toBeUndefined();
  expect([post('1'), post('3')]).toEqual([undefined, undefined]);
  expect(Object.keys(slice().meta)).toEqual([]);
  // The first two answers as one write, then the reset.
  expect(writes.map(write => write.type)).toEqual(['cache/resolve', 'cache/reset']);
});

test('a reset before a burst is written drops the answers of requests started before it', async () => {
  const { cache, store, api, calls, post, fetch } = setup();
  const requests = [fetch(api.getPost, { id: '1' }), fetch(api.getPost, { id: '2' })];
  await flush();
  calls[0]!.resolve({ id: '1', title: 'one' });
  calls[1]!.resolve({ id: '2', title: 'two' });
  store.dispatch(cache.resetEntireStore());
  await expect(Promise.all(requests)).resolves.toEqual([undefined, undefined]);
  expect([post('1'), post('2')]).toEqual([undefined, undefined]);
});

test('a write the working copy refuses is dispatched alone, after what was joined, and the burst goes on', async () => {
  const { cache, store, post, writes } = setup();
  const runtime = runtimeOf(cache, store);
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const setRow = (id: string) => () => {
    runtime.controller.set(Post, { id, title: id });
    return () => id;
  };
  const bad = () => {
    runtime.write('cache/set', () => ({
      patches: [{ op: 'add' as const, path: ['nope'], value: 1 }],
      inversePatches: [],
    }));
    return () => 'bad';
  };
  await flush();
  const before = writes.length;
  const burst = runtime.features.burst!;
  const landed = Promise.all([burst.land(setRow('1')), burst.land(bad), burst.land(setRow('2'))]);
  await expect(landed).resolves.toEqual(['1', 'bad', '2']);
  // The first write, then the refused one alone (the reducer warns and keeps the slice), then the third.
  expect(writes.slice(before).map(write => write.type)).toEqual(['cache/set', 'cache/set', 'cache/set']);
  expect(warn).toHaveBeenCalledWith(expect.stringContaining('INVALID_ACTION'));
  expect([post('1')?.title, post('2')?.title]).toEqual(['1', '2']);
  warn.mockRestore();
});

describe('answers from the network', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    server.on('GET /items/:id', (_request, url) => ({ json: { id: url.pathname.split('/')[2], title: 't' } }));
  });
  afterAll(() => server.close());

  /** Twenty reads sent at once to a real local server; the cache/resolve actions their answers made. */
  async function twenty(options?: BurstOptions): Promise<number> {
    const features = [garbageCollection, liveData, optimisticUpdates, retries, pagination, bursts(options)];
    const cache = createLeanCache({ features });
    let resolves = 0;
    const count: Middleware = () => next => action => {
      if ((action as { type?: unknown }).type === 'cache/resolve') resolves++;
      return next(action);
    };
    const store = configureStore({
      reducer: { [cache.reducerPath]: cache.reducer },
      middleware: getDefault => getDefault().concat(count, cache.middleware),
    });
    const getItem = new RestEndpoint({ urlPrefix: server.origin, path: '/items/:id', schema: Post });
    const ids = Array.from({ length: 20 }, (_, i) => `i${i}`);
    const read = await Promise.all(ids.map(id => store.dispatch(cache.fetch(getItem, { id }))));
    expect(read.map(item => (item as Post).id)).toEqual(ids);
    return resolves;
  }

  test('each answer lands in a task of its own, so without a window each is its own action', async () => {
    expect(await twenty()).toBe(20);
  });

  test('with a window, the answers that arrive within it are one action', async () => {
    // (A window long enough that a loaded machine still answers twenty local reads within it.)
    expect(await twenty({ window: 500 })).toBeLessThan(20);
  });

  test.each([-1, 1001, Number.NaN, '16'])('bursts({ window: %p }) is INVALID_OPTION', window => {
    expect(() => bursts({ window: window as number })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
  });
});
