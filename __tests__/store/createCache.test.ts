/**
 * The store side of createCache (see docs/store.md and docs/architecture.md): the slice's
 * shape, one plain serializable action per write, no-op writes, several caches in one store, and
 * reads against a store without the slice.
 */
import { configureStore, findNonSerializableValue, type UnknownAction } from '@reduxjs/toolkit';
import { applyPatches as immerApplyPatches, enablePatches, type Patch as ImmerPatch } from 'immer';
import {
  createCache,
  createLeanCache,
  denormalize,
  Invalidate,
  LensCacheError,
  type WriteAction,
} from '../../src/index';
import { applyPatches } from '../../src/store/slice/applyPatches';
import { Post, User } from '../fixtures/schemas';
import { jsonProblems, makeRecordingStore } from '../fixtures/recording';
import { expectRejected } from '../fixtures/writes';
import { makeStore, snapshot } from '../fixtures/store';

enablePatches();

const getPosts = { key: (...args: unknown[]) => `GET /posts ${JSON.stringify(args[0] ?? {})}`, schema: [Post] };

const posts = [
  { id: 'p1', title: 'One', author: { id: 'u1', name: 'Ada' }, comments: [{ id: 'c1', body: 'hi', author: 'u2' }] },
  { id: 'p2', title: 'Two', author: { id: 'u2', name: 'Bob' } },
];

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

let now = 50_000;
beforeEach(() => {
  now = 50_000;
  jest.spyOn(Date, 'now').mockImplementation(() => now);
});
afterEach(() => {
  jest.restoreAllMocks();
});

describe('state shape', () => {
  test('the initial slice', () => {
    const { slice } = makeRecordingStore();
    expect(snapshot(slice())).toEqual({ entities: {}, entitiesMeta: {}, endpoints: {}, meta: {}, lastReset: 0 });
    expect(jsonProblems(slice())).toEqual([]);
  });

  test('the slice is mounted at a custom reducerPath', () => {
    const { cache, store } = makeRecordingStore({ reducerPath: 'data' as 'cache' });
    expect(cache.reducerPath).toBe('data');
    store.dispatch(cache.set(User, { id: '1', name: 'Ada' }));
    const state = store.getState() as unknown as Record<string, { entities: Record<string, unknown> }>;
    expect(state['data']?.entities['User']).toEqual({ '1': { id: '1', name: 'Ada' } });
    expect(cache.selectQuery(state, User, '1')?.name).toBe('Ada');
  });

  test('after every kind of write the state is plain JSON and serializable', () => {
    const { cache, store, slice } = makeRecordingStore();
    store.dispatch(cache.set([Post], posts));
    store.dispatch(cache.setResponse(getPosts, { page: 1 }, posts));
    store.dispatch(cache.resolve(getPosts, { args: [{ page: 2 }], response: [posts[1]], fetchedAt: 40_000 }));
    store.dispatch(cache.set(new Invalidate(User), 'u2'));
    store.dispatch(cache.set(User, { id: '__proto__', name: 'Proto' }));
    store.dispatch(cache.setError(getPosts, { page: 3 }, Object.assign(new Error('boom'), { status: 500 })));

    const state = slice();
    expect(jsonProblems(state)).toEqual([]);
    expect(findNonSerializableValue(store.getState())).toBe(false);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
    expect(state.entities['User']?.['u2']).toBeNull();
    expect(state.meta['GET /posts {"page":3}']?.error).toEqual({ name: 'Error', message: 'boom', status: 500 });
  });

  test('pks __proto__, constructor and prototype are own properties of a null-prototype table', () => {
    const { cache, store, slice } = makeRecordingStore();
    store.dispatch(
      cache.set(
        [User],
        [
          { id: '__proto__', name: 'Proto' },
          { id: 'constructor', name: 'Ctor' },
          { id: 'prototype', name: 'Prototype' },
        ],
      ),
    );
    const table = slice().entities['User'];
    expect(table).toBeDefined();
    expect(Object.keys(table ?? {})).toEqual(['__proto__', 'constructor', 'prototype']);
    expect(Object.prototype.hasOwnProperty.call(table, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(table)).toBeNull();
    expect(({} as Record<string, unknown>)['name']).toBeUndefined();
    const proto = cache.selectQuery(store.getState(), User, '__proto__');
    expect(proto).toBeInstanceOf(User);
    expect(proto?.name).toBe('Proto');
    expect(cache.selectQuery(store.getState(), User, 'constructor')?.name).toBe('Ctor');
    expect(cache.selectQuery(store.getState(), User, 'prototype')?.name).toBe('Prototype');
  });
});

describe('actions', () => {
  test('set, resolve, setResponse and setError each dispatch exactly one action of their type', () => {
    const { cache, store, actions } = makeRecordingStore();
    const cases: Array<[string, () => unknown]> = [
      ['cache/set', () => store.dispatch(cache.set([Post], posts))],
      ['cache/resolve', () => store.dispatch(cache.setResponse(getPosts, { page: 1 }, posts))],
      [
        'cache/resolve',
        () => store.dispatch(cache.resolve(getPosts, { args: [{ page: 2 }], response: posts, fetchedAt: 49_000 })),
      ],
      ['cache/setError', () => store.dispatch(cache.setError(getPosts, { page: 3 }, new Error('boom')))],
    ];
    for (const [type, write] of cases) {
      actions.length = 0;
      now += 1_000;
      write();
      expect(actions).toHaveLength(1);
      const action = actions[0] as unknown as WriteAction;
      expect(action.type).toBe(type);
      expect(action.meta).toEqual(expect.objectContaining({ reducerPath: 'cache' }));
      expect(Array.isArray(action.payload.patches)).toBe(true);
      expect(Array.isArray(action.payload.inversePatches)).toBe(true);
      expect(action.payload.patches.length).toBeGreaterThan(0);
    }
  });

  test('the payload is exactly { patches, inversePatches }', () => {
    const { cache, store, actions } = makeRecordingStore();
    store.dispatch(cache.set([Post], posts));
    store.dispatch(cache.setResponse(getPosts, { page: 1 }, posts));
    store.dispatch(cache.setError(getPosts, { page: 3 }, new Error('boom')));
    expect(actions.map(action => action.type)).toEqual(['cache/set', 'cache/resolve', 'cache/setError']);
    for (const action of actions) {
      expect(Object.keys(action['payload'] as object).sort()).toEqual(['inversePatches', 'patches']);
    }
  });

  test('every action is plain and serializable, and RTK logs nothing (setError included)', () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const warnings = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { cache, store, actions } = makeRecordingStore();
    store.dispatch(cache.set([Post], posts));
    store.dispatch(cache.setResponse(getPosts, { page: 1 }, posts));
    store.dispatch(cache.setError(getPosts, { page: 3 }, Object.assign(new Error('boom'), { code: 'E_BOOM' })));
    store.dispatch(cache.setResponse(getPosts, { page: 4 }, [{ title: 'no id' }]));
    expect(actions).toHaveLength(4);
    for (const action of actions) {
      expect(jsonProblems(action, `action ${action.type}`)).toEqual([]);
      expect(findNonSerializableValue(action)).toBe(false);
    }
    expect(errors).not.toHaveBeenCalled();
    expect(warnings).not.toHaveBeenCalled();
  });

  test('inversePatches undo the write, and the patches replay with Immer', () => {
    const { cache, store, actions, slice } = makeRecordingStore();
    store.dispatch(cache.set([Post], posts));
    const before = slice();
    const beforeJson = snapshot(before);
    now += 1_000;
    store.dispatch(
      cache.setResponse(getPosts, {}, [
        { id: 'p1', title: 'One changed', author: { id: 'u1', name: 'Ada L' } },
        { id: 'p3', title: 'Three', author: { id: 'u3', name: 'Cy' } },
      ]),
    );
    const after = slice();
    const action = actions[actions.length - 1] as unknown as WriteAction;
    expect(snapshot(applyPatches(after, action.payload.inversePatches))).toEqual(beforeJson);
    expect(snapshot(applyPatches(before, action.payload.patches))).toEqual(snapshot(after));
    const replayed = immerApplyPatches(beforeJson as object, action.payload.patches as ImmerPatch[]);
    expect(snapshot(replayed)).toEqual(snapshot(after));
  });

  test('a write the store already holds dispatches only meta, in the same millisecond or later', () => {
    const { cache, store, actions, slice } = makeRecordingStore();
    store.dispatch(cache.set([Post], posts));
    const entities = slice().entities;
    actions.length = 0;

    store.dispatch(cache.set([Post], posts));
    expect(actions).toHaveLength(1);
    for (const patch of (actions[0] as unknown as WriteAction).payload.patches)
      expect(patch.path[0]).toBe('entitiesMeta');
    expect(slice().entities).toBe(entities);

    actions.length = 0;
    now += 1_000;
    store.dispatch(cache.set([Post], posts));
    expect(actions.length).toBeLessThanOrEqual(1);
    for (const action of actions as unknown as WriteAction[]) {
      for (const patch of action.payload.patches) expect(['entitiesMeta', 'meta']).toContain(patch.path[0]);
    }
    expect(slice().entities).toBe(entities);
    expect(slice().entitiesMeta['Post']?.['p1']?.fetchedAt).toBe(now);

    store.dispatch(cache.setResponse(getPosts, {}, posts));
    const endpoints = slice().endpoints;
    actions.length = 0;
    store.dispatch(cache.setResponse(getPosts, {}, posts));
    expect(actions.length).toBeLessThanOrEqual(1);
    for (const action of actions as unknown as WriteAction[]) {
      for (const patch of action.payload.patches) expect(['entitiesMeta', 'meta']).toContain(patch.path[0]);
    }
    expect(slice().entities).toBe(entities);
    expect(slice().endpoints).toBe(endpoints);
  });

  test('a write that fails to normalize throws, dispatches nothing and leaves the store unchanged', () => {
    const { cache, store, actions } = makeRecordingStore();
    store.dispatch(cache.set([Post], posts));
    const before = store.getState();
    actions.length = 0;
    const error = thrown(() => store.dispatch(cache.set([Post], [{ id: 'p9', author: { name: 'no id' } }])));
    expect(error).toBeInstanceOf(LensCacheError);
    expect((error as LensCacheError).code).toBe('MISSING_PK');
    expect(actions).toHaveLength(0);
    expect(store.getState()).toBe(before);
  });

  test('thunks run in a store without the thunk middleware', () => {
    const cache = createCache();
    const store = configureStore({
      reducer: { [cache.reducerPath]: cache.reducer },
      middleware: getDefault => getDefault({ thunk: false }).concat(cache.middleware),
    });
    store.dispatch(cache.set(User, { id: '1', name: 'Ada' }) as unknown as UnknownAction);
    expect(cache.selectQuery(store.getState(), User, '1')?.name).toBe('Ada');
  });
});

describe('several caches and missing slices', () => {
  test('two caches with different reducerPaths in one store do not see each other', () => {
    const a = createCache({ reducerPath: 'a' });
    const b = createCache({ reducerPath: 'b' });
    const store = configureStore({
      reducer: { a: a.reducer, b: b.reducer },
      middleware: getDefault => getDefault().concat(a.middleware, b.middleware),
    });
    const bBefore = store.getState().b;
    store.dispatch(a.set(User, { id: '1', name: 'In A' }));
    expect(store.getState().b).toBe(bBefore);
    expect(a.selectQuery(store.getState(), User, '1')?.name).toBe('In A');
    expect(b.selectQuery(store.getState(), User, '1')).toBeUndefined();

    const aBefore = store.getState().a;
    store.dispatch(b.set(User, { id: '1', name: 'In B' }));
    expect(store.getState().a).toBe(aBefore);
    expect(a.selectQuery(store.getState(), User, '1')?.name).toBe('In A');
    expect(b.selectQuery(store.getState(), User, '1')?.name).toBe('In B');
  });

  test("one cache's actions leave another cache's reducer state as the same object", () => {
    const { cache, store, actions } = makeRecordingStore({ reducerPath: 'a' as 'cache' });
    store.dispatch(cache.set(User, { id: '1', name: 'In A' }));
    expect(actions).toHaveLength(1);
    expect((actions[0] as unknown as WriteAction).meta.reducerPath).toBe('a');
    const b = createCache({ reducerPath: 'b' });
    const stateB = b.reducer(undefined, { type: '@@init' });
    for (const action of actions) expect(b.reducer(stateB, action)).toBe(stateB);
  });

  test('selectQuery and selectResponse on a store without the slice throw CACHE_NOT_MOUNTED', () => {
    const cache = createCache();
    const store = configureStore({ reducer: { other: (state: number = 0) => state } });
    const query = thrown(() => cache.selectQuery(store.getState(), User, '1'));
    expect(query).toBeInstanceOf(LensCacheError);
    expect((query as LensCacheError).code).toBe('CACHE_NOT_MOUNTED');
    const response = thrown(() => cache.selectResponse(store.getState(), getPosts, {}));
    expect((response as LensCacheError).code).toBe('CACHE_NOT_MOUNTED');

    const elsewhere = createCache({ reducerPath: 'elsewhere' });
    const mounted = configureStore({ reducer: { cache: cache.reducer } });
    expect((thrown(() => elsewhere.selectQuery(mounted.getState(), User, '1')) as LensCacheError).code).toBe(
      'CACHE_NOT_MOUNTED',
    );
  });
});

describe('an endpoint whose key() returns no string', () => {
  test('is INVALID_OPTION wherever a key is computed, before anything is sent, read or written', () => {
    const { cache, store } = makeRecordingStore();
    let sent = 0;
    const fetch = () => (sent++, Promise.resolve([]));
    for (const key of [() => undefined, () => ({ group: 'a' }), () => 42]) {
      const endpoint = { key: key as unknown as () => string, fetch, schema: [Post] };
      const calls: Array<() => unknown> = [
        () => store.dispatch(cache.fetch(endpoint)),
        () => store.dispatch(cache.fetchIfStale(endpoint)),
        () => cache.selectResponse(store.getState(), endpoint),
        () => store.dispatch(cache.setResponse(endpoint, [])),
        () => store.dispatch(cache.setError(endpoint, new Error('down'))),
        () => store.dispatch(cache.resolve(endpoint, { args: [], response: [], fetchedAt: Date.now() })),
        () => store.dispatch(cache.invalidate(endpoint)),
        () => cache.retain(store, endpoint),
        () => cache.subscribe(store, endpoint),
        () => cache.controller(store).isFetching(endpoint),
      ];
      for (const call of calls) expectRejected(store, call, 'INVALID_OPTION');
    }
    // No key method at all.
    expectRejected(store, () => store.dispatch(cache.fetch({ fetch } as unknown as typeof getPosts)), 'INVALID_OPTION');
    expect(sent).toBe(0);
  });
});

describe('start stamps handed in', () => {
  const getPost = { key: (params: { id: string }) => `GET /posts/${params.id}`, schema: Post };
  const putPost = { ...getPost, key: (params: { id: string }) => `PUT /posts/${params.id}`, sideEffect: true };

  test('resolve refuses a fetchedAt or start past the safe integers or more than a day ahead, the store unchanged', () => {
    const { cache, store } = makeRecordingStore();
    store.dispatch(cache.setResponse(getPost, { id: 'p1' }, { id: 'p1', title: 'One' }));
    const day = 24 * 60 * 60 * 1000;
    for (const stamp of [2 ** 53, 2 ** 60, -(2 ** 60), Infinity, NaN, '1', now + day + 1]) {
      const input = { args: [{ id: 'p1' }], response: { id: 'p1', title: 'Late' } };
      for (const given of [
        { ...input, fetchedAt: stamp },
        { ...input, fetchedAt: now, start: stamp },
      ])
        expectRejected(store, () => store.dispatch(cache.resolve(getPost, given as never)), 'INVALID_OPTION');
    }
    // A clock a minute ahead, or a day, is fine.
    store.dispatch(
      cache.resolve(getPost, { args: [{ id: 'p1' }], response: { id: 'p1', title: 'Ahead' }, fetchedAt: now + day }),
    );
    expect(cache.selectQuery(store.getState(), Post, 'p1')?.title).toBe('Ahead');
  });

  test('a restored slice holding a stamp past the safe integers does not stop the clock: a read that started before a mutation answered never overwrites it', async () => {
    const first = makeRecordingStore();
    first.store.dispatch(first.cache.setResponse(getPost, { id: 'p1' }, { id: 'p1', title: 'Old' }));
    const restored = snapshot(first.store.getState()) as { cache: { meta: Record<string, { fetchedAt: number }> } };
    restored.cache.meta['GET /posts/p1']!.fetchedAt = 2 ** 60;
    const { cache, store } = makeStore({}, { preloadedState: restored });
    let answerRead!: (value: unknown) => void;
    const read = { ...getPost, fetch: () => new Promise(resolve => (answerRead = resolve)) };
    const write = { ...putPost, fetch: async () => ({ id: 'p1', title: 'Put' }) };
    const reading = store.dispatch(cache.fetch(read, { id: 'p1' }));
    await store.dispatch(cache.fetch(write, { id: 'p1' }));
    expect(cache.selectQuery(store.getState(), Post, 'p1')?.title).toBe('Put');
    // The read started before the mutation's answer arrived: the server may have served it first.
    answerRead({ id: 'p1', title: 'Old' });
    await reading;
    expect(cache.selectQuery(store.getState(), Post, 'p1')?.title).toBe('Put');
  });
});

describe('options are checked where they are given', () => {
  test('createCache and createLeanCache refuse a bad count, path or length with INVALID_OPTION naming the option', () => {
    const bad: Array<[string, unknown[]]> = [
      ['maxEntityDepth', [NaN, 0, -1, 2.5, Infinity, '64']],
      ['argsCacheSize', [NaN, 0, -5, 1.5, Infinity, '100']],
      ['lensCacheSize', [NaN, 0, -1, 0.5, Infinity, null]],
      ['reducerPath', ['', 5, null]],
      ['gcTime', [NaN, -1, '5m']],
      ['dataExpiryLength', [NaN, -1, '1s']],
      ['errorExpiryLength', [NaN, -1, null]],
    ];
    for (const [option, values] of bad)
      for (const value of values)
        for (const create of [createCache, createLeanCache]) {
          const error = thrown(() => create({ [option]: value }));
          expect(error).toMatchObject({ code: 'INVALID_OPTION', message: expect.stringContaining(option) });
        }
    // The bounds themselves are fine; 0 stays a valid expiry length.
    expect(() =>
      createCache({ maxEntityDepth: 1, argsCacheSize: 1, lensCacheSize: 1, dataExpiryLength: 0 }),
    ).not.toThrow();
  });

  test('NaN depth no longer reads ids for entities: it is refused, and so is a bad depth given to denormalize', () => {
    const { cache, store } = makeRecordingStore();
    store.dispatch(cache.setResponse(getPosts, posts));
    const slice = store.getState().cache;
    expect(denormalize([Post], slice.endpoints[getPosts.key()], [], slice)?.[0]?.author.name).toBe('Ada');
    for (const maxEntityDepth of [NaN, 0, -1, 1.5])
      expect(
        thrown(() => denormalize([Post], slice.endpoints[getPosts.key()], [], slice, { maxEntityDepth })),
      ).toMatchObject({
        code: 'INVALID_OPTION',
        message: expect.stringContaining('maxEntityDepth'),
      });
  });

  test("setupListeners' flags are true or false", () => {
    const { cache, store } = makeRecordingStore();
    for (const options of [{ refetchOnFocus: 'no' }, { refetchOnReconnect: 0 }, { refetchOnFocus: null }])
      expect(thrown(() => cache.setupListeners(store, options as never))).toMatchObject({
        code: 'INVALID_OPTION',
        message: expect.stringContaining(Object.keys(options)[0]!),
      });
    cache.setupListeners(store, { refetchOnFocus: false })();
  });
});
