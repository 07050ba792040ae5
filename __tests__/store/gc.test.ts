/**
 * Garbage collection (docs/gc.md): retention, gcTime sweeps on a timer, what a sweep removes
 * (responses, then rows no kept read reaches, then tombstones no request in flight needs), and the
 * one `cache/gc` action with its patches.
 */
import { applyPatches as immerApplyPatches, enablePatches, type Patch as ImmerPatch } from 'immer';
import {
  All,
  Collection,
  createCache,
  Entity,
  Invalidate,
  Lazy,
  Query,
  Scalar,
  Values,
  type CacheState,
} from '../../src/index';
import { Post, User } from '../fixtures/schemas';
import { makeRecordingStore } from '../fixtures/recording';
import { makeStore, snapshot } from '../fixtures/store';
import { runtimeOf, collectorOf } from '../fixtures/runtime';

enablePatches();

const GC = 60_000;

beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
afterEach(() => jest.useRealTimers());

function setup(options = {}, checks = true) {
  const { cache, store, actions } = makeRecordingStore({ gcTime: GC, ...options }, checks);
  const slice = () => store.getState().cache as CacheState;
  return { cache, store, slice, actions };
}

const post = (id: string, author = `u${id}`) => ({
  id,
  title: `post ${id}`,
  author: { id: author, name: `user ${author}` },
  comments: [],
});
const getPost = {
  key: (id: string) => `GET /posts/${id}`,
  schema: Post,
  fetch: (id: string) => Promise.resolve(post(id)),
};
const getUser = { key: (id: string) => `GET /users/${id}`, schema: User };

test('a retained response and its rows survive any number of sweeps; an unretained one goes after gcTime', () => {
  const { cache, store, slice } = setup();
  store.dispatch(cache.setResponse(getPost, '1', post('1')));
  store.dispatch(cache.setResponse(getPost, '2', post('2')));
  const release = cache.retain(store, getPost, '1');
  for (let i = 0; i < 5; i++) {
    jest.advanceTimersByTime(GC);
    expect(cache.gc(store)).toEqual({ requests: 0, rows: 0 });
  }
  // The timer swept '2' once gcTime had passed, with the rows only it reached.
  expect(Object.keys(slice().endpoints)).toEqual(['GET /posts/1']);
  expect(Object.keys(slice().meta)).toEqual(['GET /posts/1']);
  expect(Object.keys(slice().entities.Post!)).toEqual(['1']);
  expect(Object.keys(slice().entities.User!)).toEqual(['u1']);
  expect(Object.keys(slice().entitiesMeta.User!)).toEqual(['u1']);
  expect(cache.selectResponse(store.getState(), getPost, '1').data).toMatchObject({ title: 'post 1' });

  release();
  release(); // a second call does nothing
  jest.advanceTimersByTime(GC - 1);
  expect(slice().endpoints['GET /posts/1']).toBeDefined();
  jest.advanceTimersByTime(1);
  expect(Object.keys(slice().endpoints)).toEqual([]);
  expect(Object.keys(slice().entities.Post!)).toEqual([]);
  expect(Object.keys(slice().entities.User!)).toEqual([]);
});

test('a row another kept response reaches stays when the response that wrote it goes', () => {
  const { cache, store, slice } = setup();
  store.dispatch(cache.setResponse(getPost, '1', post('1', 'ann')));
  store.dispatch(cache.setResponse(getUser, 'ann', { id: 'ann', name: 'Ann' }));
  store.dispatch(cache.setResponse(getPost, '2', post('2', 'bob')));
  const release = cache.retain(store, getUser, 'ann');
  jest.advanceTimersByTime(GC);
  expect(Object.keys(slice().endpoints)).toEqual(['GET /users/ann']);
  expect(Object.keys(slice().entities.User!)).toEqual(['ann']);
  expect(Object.keys(slice().entities.Post!)).toEqual([]);
  release();
});

test('nested entities, collections, Scalar cells and All are reached through kept reads', () => {
  class Company extends Entity {
    id = '';
    name = '';
    weight = 0;
    static override key = 'Company';
  }
  const Weight = new Scalar({
    lens: (args: readonly unknown[]) => (args[0] as { p?: string })?.p,
    key: 'w',
    entity: Company,
  });
  Company.schema = { weight: Weight };
  const list = new Collection([Company], { argsKey: () => ({}) });
  const getList = { key: (a: { p: string }) => `GET /companies?p=${a.p}`, schema: list };
  const columns = { key: (a: { p: string }) => `GET /columns?p=${a.p}`, schema: new Values(Weight) };
  const { cache, store, slice } = setup();
  const companies = [
    { id: 'a', name: 'A', weight: 1 },
    { id: 'b', name: 'B', weight: 2 },
  ];
  store.dispatch(cache.setResponse(getList, { p: 'x' }, companies));
  store.dispatch(cache.setResponse(columns, { p: 'y' }, { a: { weight: 9 }, b: { weight: 8 } }));
  // A company only an unretained response reached, with its cell.
  store.dispatch(
    cache.setResponse({ key: () => 'GET /c', schema: Company }, { p: 'x' }, { id: 'c', name: 'C', weight: 3 }),
  );
  expect(slice().entities['Scalar(w)']!['Company|c|x']).toBeDefined();
  const release = cache.retain(store, getList, { p: 'x' });
  const releaseColumns = cache.retain(store, columns, { p: 'y' });
  jest.advanceTimersByTime(GC);
  expect(Object.keys(slice().endpoints).sort()).toEqual(['GET /columns?p=y', 'GET /companies?p=x']);
  expect(Object.keys(slice().entities.Company!).sort()).toEqual(['a', 'b']);
  // The cells each kept read reads stay (lens x through the list, lens y through the columns).
  expect(Object.keys(slice().entities['Scalar(w)']!).sort()).toEqual([
    'Company|a|x',
    'Company|a|y',
    'Company|b|x',
    'Company|b|y',
  ]);
  expect(Object.keys(slice().entities['[Company]']!)).toEqual(['{}']);
  expect(cache.selectQuery(store.getState(), list, { p: 'y' })?.map(c => c.weight)).toEqual([9, 8]);
  // Nothing reads lens y any more: its cells go, while the companies stay.
  releaseColumns();
  jest.advanceTimersByTime(GC);
  expect(Object.keys(slice().entities['Scalar(w)']!).sort()).toEqual(['Company|a|x', 'Company|b|x']);
  expect(Object.keys(slice().entities.Company!).sort()).toEqual(['a', 'b']);
  expect(cache.selectQuery(store.getState(), list, { p: 'x' })?.map(c => c.weight)).toEqual([1, 2]);
  release();

  // A Query over All, held as useQuery holds it, keeps the whole table.
  const all = new Query(new All(Company), rows => rows.length);
  store.dispatch(
    cache.setResponse({ key: () => 'GET /d', schema: Company }, { p: 'x' }, { id: 'd', name: 'D', weight: 4 }),
  );
  expect(slice().entities.Company!.d).toBeDefined();
  const runtime = runtimeOf(cache, store);
  const unhold = runtime.subscriptions.retain('query', runtime.subscriptions.queryKey(all, '[]'), {
    target: all,
    args: [],
  });
  jest.advanceTimersByTime(GC * 2);
  expect(Object.keys(slice().endpoints)).toEqual([]);
  expect(Object.keys(slice().entities.Company!).sort()).toEqual(['a', 'b', 'd']);
  expect(cache.selectQuery(store.getState(), all)).toBe(3);
  unhold();
  jest.advanceTimersByTime(GC);
  expect(Object.keys(slice().entities.Company!)).toEqual([]);
  expect(Object.keys(slice().entities['Scalar(w)']!)).toEqual([]);
});

test('a tombstone stays while a request that started before it is in flight', async () => {
  let answer!: (value: unknown) => void;
  const slow = { key: () => 'GET /slow', schema: [Post], fetch: () => new Promise(resolve => (answer = resolve)) };
  const { cache, store, slice } = setup();
  store.dispatch(cache.setResponse(getPost, '1', post('1')));
  const request = store.dispatch(cache.fetch(slow));
  jest.advanceTimersByTime(1);
  store.dispatch(cache.setResponse({ key: () => 'DELETE /posts/1', schema: new Invalidate(Post) }, { id: '1' }));
  expect(slice().entities.Post!['1']).toBeNull();
  jest.advanceTimersByTime(GC * 2);
  expect(cache.gc(store).requests).toBe(0);
  // The response went, but the tombstone waits for the request that started before it.
  expect(Object.keys(slice().endpoints)).toEqual([]);
  expect(slice().entities.Post!['1']).toBeNull();
  // That request answers with the deleted post, and a new one it reaches: the deletion wins,
  // and the sweep lost nothing the request wrote.
  while (!answer) await Promise.resolve();
  answer([post('1'), post('3')]);
  await request;
  expect(slice().entities.Post!['1']).toBeNull();
  expect(cache.selectResponse(store.getState(), slow).data?.map(p => p.id)).toEqual(['3']);
  cache.gc(store);
  expect(slice().endpoints['GET /slow']).toBeDefined();
  expect(slice().entities.Post!['3']).toBeDefined();
  jest.advanceTimersByTime(GC);
  expect(slice().entities.Post!['1']).toBeUndefined();
  expect(Object.keys(slice().entities.Post!)).toEqual([]);
});

test('a response collected is fetched again, and reads as missing until then', async () => {
  let calls = 0;
  const endpoint = { ...getPost, fetch: (id: string) => (calls++, Promise.resolve(post(id))) };
  const { cache, store } = setup();
  await store.dispatch(cache.fetch(endpoint, '1'));
  jest.advanceTimersByTime(GC);
  expect(cache.selectResponse(store.getState(), endpoint, '1')).toMatchObject({
    data: undefined,
    expiryStatus: 'invalid',
  });
  const data = await store.dispatch(cache.fetchIfStale(endpoint, '1'));
  expect(calls).toBe(2);
  expect(data).toMatchObject({ id: '1', author: { id: 'u1' } });
});

test('one sweep is one cache/gc action whose patches Immer replays, and whose inverse undoes it', () => {
  const { cache, store, slice, actions } = setup();
  for (let i = 0; i < 6; i++)
    store.dispatch(cache.setResponse(getPost, String(i), post(String(i), i < 3 ? 'ann' : `u${i}`)));
  store.dispatch(cache.setError(getUser, 'x', new Error('gone')));
  const release = cache.retain(store, getPost, '0');
  jest.advanceTimersByTime(GC - 1);
  const before = slice();
  actions.length = 0;
  jest.advanceTimersByTime(1);
  expect(actions.map(a => a.type)).toEqual(['cache/gc']);
  const { patches, inversePatches } = (
    actions[0] as unknown as { payload: { patches: ImmerPatch[]; inversePatches: ImmerPatch[] } }
  ).payload;
  expect(snapshot(immerApplyPatches(snapshot(before) as object, patches))).toEqual(snapshot(slice()));
  expect(snapshot(immerApplyPatches(snapshot(slice()) as object, inversePatches))).toEqual(snapshot(before));
  expect(Object.keys(slice().meta)).toEqual(['GET /posts/0']);
  expect(Object.keys(slice().entities.User!)).toEqual(['ann']);
  // Nothing to collect: no action at all.
  actions.length = 0;
  expect(cache.gc(store)).toEqual({ requests: 0, rows: 0 });
  store.dispatch(cache.gc());
  expect(actions).toEqual([]);
  release();
});

test('gcTime Infinity keeps everything; a bad gcTime is refused', () => {
  const { cache, store, slice } = setup({ gcTime: Infinity });
  store.dispatch(cache.setResponse(getPost, '1', post('1')));
  store.dispatch(cache.set(User, { id: 'loose', name: 'L' }));
  jest.advanceTimersByTime(GC * 1000);
  expect(cache.gc(store)).toEqual({ requests: 0, rows: 0 });
  expect(Object.keys(slice().entities.User!).sort()).toEqual(['loose', 'u1']);
  expect(jest.getTimerCount()).toBe(0);
  for (const gcTime of [-1, Number.NaN, '5m'])
    expect(() => createCache({ gcTime: gcTime as number })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION' }),
    );
});

test('state the runtime never saw (restored) is kept for gcTime, and no row goes while its reads are unknown', () => {
  const first = setup();
  first.store.dispatch(first.cache.setResponse(getPost, '1', post('1')));
  first.store.dispatch(first.cache.set(User, { id: 'loose', name: 'L' }));
  const restored = snapshot(first.store.getState());
  const { cache, store, slice } = (() => {
    const made = makeStore({ gcTime: GC }, { preloadedState: restored });
    return { ...made, slice: () => made.store.getState().cache as CacheState };
  })();
  jest.advanceTimersByTime(GC * 2);
  expect(cache.gc(store)).toEqual({ requests: 0, rows: 0 });
  expect(Object.keys(slice().entities.User!).sort()).toEqual(['loose', 'u1']);
  // That sweep started their time: the timer collects them gcTime later.
  jest.advanceTimersByTime(GC);
  expect(Object.keys(slice().endpoints)).toEqual([]);
  expect(Object.keys(slice().entities.User!)).toEqual([]);
  expect(Object.keys(slice().entities.Post!)).toEqual([]);
});

test('a mutation result is dropped at the next sweep once nothing retains it', async () => {
  const update = {
    key: (id: string, body: object) => `PUT /posts/${id} ${JSON.stringify(body)}`,
    schema: Post,
    sideEffect: true as const,
    fetch: (id: string, body: object) => Promise.resolve({ ...post(id), ...body }),
  };
  const { cache, store, slice } = setup();
  const release = cache.retain(store, getPost, '1');
  for (let i = 0; i < 50; i++) await store.dispatch(cache.fetch(update, '1', { title: `t${i}` }));
  expect(Object.keys(slice().endpoints)).toHaveLength(50);
  jest.advanceTimersByTime(10_000);
  expect(Object.keys(slice().endpoints)).toEqual([]);
  // The post stays: a retained read reaches it.
  store.dispatch(cache.setResponse(getPost, '1', post('1')));
  jest.advanceTimersByTime(GC * 2);
  expect(slice().entities.Post!['1']).toBeDefined();
  release();
});

test('bounded: 10,000 distinct keys written and released leave only what gcTime covers', () => {
  // Without RTK's development checks, which walk the whole state on every action.
  const gcTime = 5_000;
  const { cache, store, slice } = setup({ gcTime }, false);
  const runtime = runtimeOf(cache, store);
  const unusedSize = () => (collectorOf(runtime) as unknown as { unused: Map<string, unknown> }).unused.size;
  let most = 0;
  for (let i = 0; i < 10_000; i++) {
    const release = cache.retain(store, getPost, String(i));
    store.dispatch(cache.setResponse(getPost, String(i), post(String(i))));
    release();
    jest.advanceTimersByTime(100);
    most = Math.max(most, Object.keys(slice().endpoints).length);
  }
  // At most gcTime plus one sweep gap (gcTime again, when shorter than 10 s) of keys, 100 ms apart.
  expect(most).toBeLessThanOrEqual((gcTime * 2) / 100 + 1);
  expect(most).toBeGreaterThan(gcTime / 100 - 1);
  jest.advanceTimersByTime(gcTime * 2);
  expect(Object.keys(slice().endpoints)).toHaveLength(0);
  expect(Object.keys(slice().entities.Post!)).toHaveLength(0);
  expect(unusedSize()).toBe(0);
  expect(jest.getTimerCount()).toBe(0);
});

test('a store listener that throws during a sweep: the sweep is applied, what it dropped is forgotten, the error reaches the caller, the next sweep works', () => {
  const { cache, store, slice } = setup();
  const runtime = runtimeOf(cache, store);
  const unused = () => [...(collectorOf(runtime) as unknown as { unused: Map<string, unknown> }).unused.keys()];
  store.dispatch(cache.setResponse(getPost, '1', post('1')));
  store.dispatch(cache.setResponse(getPost, '2', post('2')));
  const release = cache.retain(store, getPost, '1');
  // Past gcTime without running the timer: the sweep below is the caller's.
  jest.setSystemTime(Date.now() + GC);
  expect(unused()).toContain('request:GET /posts/2');
  const broken = new Error('listener broke');
  const unsubscribe = store.subscribe(() => {
    throw broken;
  });
  expect(() => cache.gc(store)).toThrow(broken);
  unsubscribe();
  // The sweep's action was applied: '2' and the rows only it reached are gone.
  expect(Object.keys(slice().endpoints)).toEqual(['GET /posts/1']);
  expect(Object.keys(slice().meta)).toEqual(['GET /posts/1']);
  expect(Object.keys(slice().entities.Post!)).toEqual(['1']);
  expect(Object.keys(slice().entities.User!)).toEqual(['u1']);
  // And what it dropped is forgotten: no record left to leak or to sweep again.
  expect(unused()).not.toContain('request:GET /posts/2');
  // The next sweep works: '1', released and past gcTime, goes with its rows.
  release();
  jest.setSystemTime(Date.now() + GC);
  expect(cache.gc(store)).toEqual({ requests: 1, rows: 2 });
  expect(Object.keys(slice().endpoints)).toEqual([]);
  expect(Object.keys(slice().entities.Post!)).toEqual([]);
  expect(Object.keys(slice().entities.User!)).toEqual([]);
  expect(unused()).toEqual([]);
});

test('a kept read that throws while walked keeps every row, and the sweep still drops responses', () => {
  class Odd extends Entity {
    id = '';
    when = '';
    static override key = 'Odd';
    static override schema = {
      when: (value: string) => {
        if (value === 'bad') throw new Error('cannot parse');
        return value;
      },
    };
  }
  const getOdd = { key: (id: string) => `GET /odd/${id}`, schema: Odd };
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
  const { cache, store, slice } = setup();
  store.dispatch(cache.setResponse(getOdd, '1', { id: '1', when: 'bad' }));
  store.dispatch(cache.setResponse(getOdd, '2', { id: '2', when: 'ok' }));
  const release = cache.retain(store, getOdd, '1');
  jest.advanceTimersByTime(GC);
  expect(Object.keys(slice().endpoints)).toEqual(['GET /odd/1']);
  expect(Object.keys(slice().entities.Odd!).sort()).toEqual(['1', '2']);
  expect(warn.mock.calls.some(([message]) => String(message).includes('kept every row'))).toBe(true);
  warn.mockRestore();
  release();
});

test('rows behind a Lazy field of a kept entity stay: a later read of the field needs them', () => {
  class Building extends Entity {
    id = '';
    name = '';
    static override key = 'Building';
  }
  class Department extends Entity {
    id = '';
    buildings: string[] = [];
    static override key = 'Department';
    static override schema = { buildings: new Lazy(() => [Building]) };
  }
  const getDepartment = { key: (id: string) => `GET /departments/${id}`, schema: Department };
  const { cache, store, slice } = setup();
  store.dispatch(
    cache.setResponse(getDepartment, 'd1', {
      id: 'd1',
      buildings: [
        { id: 'b1', name: 'One' },
        { id: 'b2', name: 'Two' },
      ],
    }),
  );
  store.dispatch(cache.set(Building, { id: 'b3', name: 'Elsewhere' }));
  const release = cache.retain(store, getDepartment, 'd1');
  jest.advanceTimersByTime(GC);
  expect(Object.keys(slice().entities.Building!).sort()).toEqual(['b1', 'b2']);
  const department = cache.selectResponse(store.getState(), getDepartment, 'd1').data!;
  expect(cache.selectQuery(store.getState(), Department.schema.buildings.query, department.buildings)).toHaveLength(2);
  release();
});

test('two kept reads of one entity under two lenses keep the cells of both', () => {
  class Fund extends Entity {
    id = '';
    share = 0;
    static override key = 'Fund';
  }
  const Share = new Scalar({
    lens: (args: readonly unknown[]) => (args[0] as { p?: string })?.p,
    key: 'share',
    entity: Fund,
  });
  Fund.schema = { share: Share };
  const getFund = { key: (a: { p: string }) => `GET /fund?p=${a.p}`, schema: Fund };
  const { cache, store, slice } = setup();
  for (const p of ['x', 'y', 'z']) {
    store.dispatch(cache.setResponse(getFund, { p }, { id: 'f', share: p.charCodeAt(0) }));
  }
  const releases = ['x', 'y'].map(p => cache.retain(store, getFund, { p }));
  jest.advanceTimersByTime(GC);
  expect(Object.keys(slice().entities['Scalar(share)']!).sort()).toEqual(['Fund|f|x', 'Fund|f|y']);
  expect(cache.selectResponse(store.getState(), getFund, { p: 'y' }).data?.share).toBe(121);
  for (const release of releases) release();
});

test('the memo forgets what it kept for a collected response', () => {
  const { cache, store, slice } = setup();
  store.dispatch(cache.setResponse(getPost, '1', post('1')));
  const before = store.getState();
  const response = cache.selectResponse(before, getPost, '1');
  expect(cache.selectResponse(before, getPost, '1')).toBe(response);
  jest.advanceTimersByTime(GC);
  expect(slice().endpoints).toEqual({});
  // The old state read again is built anew: the memo no longer held its entry.
  const again = cache.selectResponse(before, getPost, '1');
  expect(again).not.toBe(response);
  expect(again).toEqual(response);
});
