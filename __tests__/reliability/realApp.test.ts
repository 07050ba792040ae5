/**
 * What an app meets over hours of use, server rendering and DevTools: writes ordered by their
 * start (same millisecond, clocks that disagree), state restored from JSON read and written like
 * live state, a state that stays JSON, small actions, and a reducer that never corrupts its state.
 */
import { configureStore, type Middleware } from '@reduxjs/toolkit';
import { Collection, createCache, Entity, ErrorCode, RestEndpoint, type CacheState } from '../../src/index';
import { jsonProblems } from '../fixtures/recording';
import { gate, startServer, type TestServer } from '../fixtures/server';
import { makeStore, snapshot } from '../fixtures/store';
import { endpoint, makeRecordingStore } from '../fixtures/writes';

class Doc extends Entity {
  id = '';
  title = '';
  static override key = 'Doc';
}
const docs = new Collection([Doc]);

let server: TestServer;
let getDoc: RestEndpoint<{ urlPrefix: string; path: '/docs/:id'; schema: typeof Doc }>;
let putDoc: RestEndpoint<{
  urlPrefix: string;
  path: '/docs/:id';
  method: 'PUT';
  body: { title: string };
  schema: typeof Doc;
}>;
let getDocs: RestEndpoint<{ urlPrefix: string; path: '/docs'; schema: typeof docs }>;

beforeAll(async () => {
  server = await startServer();
  getDoc = new RestEndpoint({ urlPrefix: server.origin, path: '/docs/:id', schema: Doc });
  putDoc = new RestEndpoint({
    urlPrefix: server.origin,
    path: '/docs/:id',
    method: 'PUT',
    body: {} as { title: string },
    schema: Doc,
  });
  getDocs = new RestEndpoint({ urlPrefix: server.origin, path: '/docs', schema: docs });
});
afterAll(() => server.close());
afterEach(() => jest.restoreAllMocks());

/** Every request in this block starts in one millisecond. */
function freezeClock(at = 1_700_000_000_000): void {
  jest.spyOn(Date, 'now').mockReturnValue(at);
}

describe('the order of starts decides, also within one millisecond', () => {
  test('a GET and a PUT started together: the PUT saved later wins, however slow the GET', async () => {
    const slowGet = gate();
    server.on('GET /docs/:id', () => ({ json: { id: 'd1', title: 'Old' }, hold: slowGet.promise }));
    server.on('PUT /docs/:id', request => ({ json: { id: 'd1', ...(request.body as object) } }));
    const { cache, store } = makeStore();
    freezeClock();
    const read = store.dispatch(cache.fetch(getDoc, { id: 'd1' }));
    const save = store.dispatch(cache.fetch(putDoc, { id: 'd1' }, { title: 'Saved' }));
    await save;
    slowGet.open();
    await read;
    expect((cache.selectQuery(store.getState(), Doc, 'd1') as Doc).title).toBe('Saved');
  });

  test('invalidate in the millisecond a request started: that request’s answer does not make the entry valid', async () => {
    const answer = gate();
    server.on('GET /docs/:id', () => ({ json: { id: 'd2', title: 'Before' }, hold: answer.promise }));
    const { cache, store } = makeStore();
    freezeClock();
    const request = store.dispatch(cache.fetch(getDoc, { id: 'd2' }));
    store.dispatch(cache.invalidate(getDoc, { id: 'd2' }));
    answer.open();
    await request;
    expect(cache.selectResponse(store.getState(), getDoc, { id: 'd2' }).expiryStatus).toBe('invalid');
  });

  test('set, and a push, in the millisecond after a request started are not overwritten by its answer', async () => {
    const answer = gate();
    server.on('GET /docs/:id', () => ({ json: { id: 'd3', title: 'Server' }, hold: answer.promise }));
    server.on('GET /docs', () => ({ json: [{ id: 'd3', title: 'Server' }], hold: answer.promise }));
    const { cache, store } = makeStore();
    store.dispatch(cache.setResponse(getDocs, {}, [{ id: 'd3', title: 'First' }]));
    freezeClock();
    const one = store.dispatch(cache.fetch(getDoc, { id: 'd3' }));
    const list = store.dispatch(cache.fetch(getDocs, {}));
    store.dispatch(cache.set(Doc, { id: 'd3', title: 'Local' }));
    store.dispatch(cache.set(docs.push, {}, { id: 'd4', title: 'Created' }));
    answer.open();
    await Promise.all([one, list]);
    expect((cache.selectQuery(store.getState(), Doc, 'd3') as Doc).title).toBe('Local');
    expect((cache.selectQuery(store.getState(), docs, {}) as Doc[]).map(doc => doc.id)).toEqual(['d3', 'd4']);
  });

  test('resetEntireStore in the millisecond a request started drops its answer', async () => {
    const answer = gate();
    server.on('GET /docs/:id', () => ({ json: { id: 'd5', title: 'Gone' }, hold: answer.promise }));
    const { cache, store } = makeStore();
    freezeClock();
    const request = store.dispatch(cache.fetch(getDoc, { id: 'd5' }));
    store.dispatch(cache.resetEntireStore());
    answer.open();
    await request;
    expect(cache.selectQuery(store.getState(), Doc, 'd5')).toBeUndefined();
  });

  test('stamps within one millisecond increase, and the action carries its start', () => {
    const { cache, store, actions } = makeRecordingStore();
    freezeClock(5_000);
    store.dispatch(cache.set(Doc, { id: 'a', title: 'A' }));
    store.dispatch(cache.set(Doc, { id: 'b', title: 'B' }));
    const meta = (store.getState().cache as CacheState).entitiesMeta.Doc!;
    expect([meta['a']!.fetchedAt, meta['b']!.fetchedAt]).toEqual([5_000, 5_001]);
    expect(actions.map(action => (action.meta as { start?: number }).start)).toEqual([5_000, 5_001]);
  });
});

/** A page rendered on a server whose clock runs `skew` ms ahead, as the browser receives it. */
function serverRendered(skew: number, render: (server: ReturnType<typeof makeStore>) => void): unknown {
  const now = Date.now();
  const clock = jest.spyOn(Date, 'now').mockReturnValue(now + skew);
  const page = makeStore();
  render(page);
  clock.mockRestore();
  return JSON.parse(JSON.stringify(page.store.getState()));
}

describe('a browser’s own requests win over data it was handed at hydration, whatever the clocks', () => {
  const TEN_MINUTES = 10 * 60_000;

  test('invalidate, then refetch: the new answer is stored and the fetch resolves to it', async () => {
    server.on('GET /docs/:id', () => ({ json: { id: 'h1', title: 'Fresh' } }));
    const preloadedState = serverRendered(TEN_MINUTES, ({ cache, store }) =>
      store.dispatch(cache.setResponse(getDoc, { id: 'h1' }, { id: 'h1', title: 'Rendered' })),
    );
    const { cache, store } = makeStore({}, { preloadedState });
    store.dispatch(cache.invalidate(getDoc, { id: 'h1' }));
    const data = await store.dispatch(cache.fetch(getDoc, { id: 'h1' }));
    expect((data as Doc).title).toBe('Fresh');
    const response = cache.selectResponse(store.getState(), getDoc, { id: 'h1' });
    expect(response.expiryStatus).toBe('valid');
    expect((response.data as Doc).title).toBe('Fresh');
  });

  test('the user’s own PUT result is shown', async () => {
    server.on('PUT /docs/:id', request => ({ json: { id: 'h2', ...(request.body as object) } }));
    const preloadedState = serverRendered(TEN_MINUTES, ({ cache, store }) =>
      store.dispatch(cache.setResponse(getDoc, { id: 'h2' }, { id: 'h2', title: 'Rendered' })),
    );
    const { cache, store } = makeStore({}, { preloadedState });
    await store.dispatch(cache.fetch(putDoc, { id: 'h2' }, { title: 'Mine' }));
    expect((cache.selectResponse(store.getState(), getDoc, { id: 'h2' }).data as Doc).title).toBe('Mine');
  });

  test('after a reset on the server, the browser’s answers are written', async () => {
    server.on('GET /docs/:id', () => ({ json: { id: 'h3', title: 'Browser' } }));
    const preloadedState = serverRendered(TEN_MINUTES, ({ cache, store }) => store.dispatch(cache.resetEntireStore()));
    const { cache, store } = makeStore({}, { preloadedState });
    store.dispatch(cache.setResponse(getDoc, { id: 'h4' }, { id: 'h4', title: 'Set' }));
    await store.dispatch(cache.fetch(getDoc, { id: 'h3' }));
    expect((cache.selectQuery(store.getState(), Doc, 'h3') as Doc).title).toBe('Browser');
    expect((cache.selectQuery(store.getState(), Doc, 'h4') as Doc).title).toBe('Set');
  });
});

describe('state restored from JSON reads and writes exactly like live state', () => {
  const NAMES = [
    'constructor',
    'toString',
    'valueOf',
    'hasOwnProperty',
    'isPrototypeOf',
    '__proto__',
    '__defineGetter__',
  ];

  function restored() {
    const live = makeStore();
    live.store.dispatch(live.cache.set(Doc, { id: 'real', title: 'Real' }));
    live.store.dispatch(live.cache.setResponse(getDocs, {}, [{ id: 'real', title: 'Real' }]));
    return makeStore({}, { preloadedState: JSON.parse(JSON.stringify(live.store.getState())) });
  }

  test.each(NAMES)('a missing row or request named %s is not found', name => {
    const { cache, store } = restored();
    expect(cache.selectQuery(store.getState(), Doc, name)).toBeUndefined();
    const byName = { key: (_params: object) => name, schema: Doc };
    const response = cache.selectResponse(store.getState(), byName, {});
    expect(response.data).toBeUndefined();
    expect(response.expiryStatus).toBe('invalid');
    // Read straight from the parsed JSON, without a store, too.
    const parsed = JSON.parse(JSON.stringify(store.getState()));
    expect(cache.selectQuery(parsed, Doc, name)).toBeUndefined();
    expect((cache.selectQuery(parsed, Doc, 'real') as Doc).title).toBe('Real');
  });

  test.each(NAMES)('a row named %s is written and read back, and no prototype is touched', name => {
    const { cache, store } = restored();
    store.dispatch(cache.set(Doc, { id: name, title: 'Named' }));
    expect((cache.selectQuery(store.getState(), Doc, name) as Doc).title).toBe('Named');
    expect(Object.getPrototypeOf(Object.prototype)).toBeNull();
    expect(({} as Record<string, unknown>)['title']).toBeUndefined();
    expect(jsonProblems(store.getState())).toEqual([]);
  });

  test.each(NAMES)('the inverse patches of a write to %s hold no function, restored or live', name => {
    const cache = createCache();
    const logged: Array<{ payload: { patches: unknown[]; inversePatches: unknown[] } }> = [];
    const preloaded = JSON.parse(JSON.stringify({ cache: restored().store.getState().cache }));
    const logger: Middleware = () => next => action => {
      logged.push(action as never);
      return next(action);
    };
    const store = configureStore({
      reducer: { cache: cache.reducer },
      preloadedState: preloaded as { cache: CacheState },
      middleware: getDefault => getDefault().concat(cache.middleware, logger),
    });
    const errors = jest.spyOn(console, 'error');
    store.dispatch(cache.set(Doc, { id: name, title: 'Named' }));
    expect(logged).toHaveLength(1);
    expect(jsonProblems(logged[0]!.payload)).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
  });

  test('the memo keeps answering: the same objects until a write, then the new row', () => {
    const { cache, store } = restored();
    const first = cache.selectQuery(store.getState(), docs, {});
    expect(cache.selectQuery(store.getState(), docs, {})).toBe(first);
    store.dispatch({ type: 'other/bump' });
    expect(cache.selectQuery(store.getState(), docs, {})).toBe(first);
    store.dispatch(cache.set(Doc, { id: 'real', title: 'Changed' }));
    expect((cache.selectQuery(store.getState(), docs, {}) as Doc[])[0]!.title).toBe('Changed');
  });
});

describe('the state is JSON at all times', () => {
  test('a response that never expires survives JSON and stays valid after hydration', () => {
    const forever = { ...endpoint('forever', Doc), dataExpiryLength: Infinity };
    const page = makeStore();
    page.store.dispatch(page.cache.setResponse(forever, { id: 'f' }, { id: 'f', title: 'Forever' }));
    const state = page.store.getState();
    expect(jsonProblems(state)).toEqual([]);
    expect(JSON.parse(JSON.stringify(state))).toEqual(snapshot(state));
    const { cache, store } = makeStore({}, { preloadedState: JSON.parse(JSON.stringify(state)) });
    expect(cache.selectResponse(store.getState(), forever, { id: 'f' }).expiryStatus).toBe('valid');
  });

  test('an expiry length that is not a number of milliseconds is a coded error, and nothing is written', () => {
    const broken = { ...endpoint('broken', Doc), dataExpiryLength: Number.NaN };
    const { cache, store } = makeStore();
    const before = store.getState();
    expect(() => store.dispatch(cache.setResponse(broken, { id: 'b' }, { id: 'b', title: 'B' }))).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_SCHEMA }),
    );
    expect(store.getState()).toBe(before);
  });
});

describe('actions grow with the rows they change', () => {
  test.each([100, 1_000, 10_000])(
    'a one-row edit and a one-item push in a %i-row table are under 2 kB of JSON',
    size => {
      const { cache, store, actions } = makeRecordingStore();
      const rows = Array.from({ length: size }, (_, i) => ({ id: `p${i}`, title: `Row ${i}` }));
      store.dispatch(cache.setResponse(getDocs, {}, rows));
      actions.length = 0;
      store.dispatch(cache.set(Doc, { id: 'p5', title: 'Edited' }));
      store.dispatch(cache.set(docs.push, {}, { id: 'new', title: 'New' }));
      store.dispatch(cache.set(docs.remove, {}, 'p7'));
      expect(actions).toHaveLength(3);
      for (const action of actions) expect(JSON.stringify(action).length).toBeLessThan(2_000);
      const list = cache.selectQuery(store.getState(), docs, {}) as Doc[];
      expect(list).toHaveLength(size);
      expect(list.at(-1)!.id).toBe('new');
      expect(list.some(doc => doc.id === 'p7')).toBe(false);
    },
  );

  test('a first load is still one patch per table', () => {
    const { cache, store, actions } = makeRecordingStore();
    store.dispatch(
      cache.setResponse(getDocs, {}, [
        { id: '1', title: 'A' },
        { id: '2', title: 'B' },
      ]),
    );
    const paths = (actions[0]!.payload as { patches: Array<{ path: unknown[] }> }).patches.map(patch =>
      patch.path.join('.'),
    );
    expect(paths.sort()).toEqual(
      [
        'endpoints.' + getDocs.key({}),
        'entities.Doc',
        'entities.[Doc]',
        'entitiesMeta.Doc',
        'entitiesMeta.[Doc]',
        'meta.' + getDocs.key({}),
      ].sort(),
    );
  });
});

describe('the reducer never throws and never applies part of an action', () => {
  const malformed: Array<[string, unknown]> = [
    ['no payload', { type: 'cache/set', meta: { reducerPath: 'cache' } }],
    ['patches that are not a list', { type: 'cache/set', payload: { patches: 7 }, meta: { reducerPath: 'cache' } }],
    [
      'a patch without a path',
      { type: 'cache/set', payload: { patches: [{ op: 'add', value: 1 }] }, meta: { reducerPath: 'cache' } },
    ],
    [
      'a table replaced by a number',
      {
        type: 'cache/set',
        payload: { patches: [{ op: 'replace', path: ['entities', 'Doc'], value: 5 }] },
        meta: { reducerPath: 'cache' },
      },
    ],
    [
      'a map replaced by a string',
      {
        type: 'cache/resolve',
        payload: { patches: [{ op: 'replace', path: ['meta'], value: 'x' }] },
        meta: { reducerPath: 'cache' },
      },
    ],
    [
      'the whole slice removed',
      { type: 'cache/reset', payload: { patches: [{ op: 'remove', path: [] }] }, meta: { reducerPath: 'cache' } },
    ],
    [
      'a row in a table that is not there',
      {
        type: 'cache/set',
        payload: { patches: [{ op: 'add', path: ['entities', 'Missing', 'x', 'y'], value: 1 }] },
        meta: { reducerPath: 'cache' },
      },
    ],
    [
      'an index past the end of a list',
      {
        type: 'cache/set',
        payload: { patches: [{ op: 'add', path: ['entities', '[Doc]', '{}', 9], value: 'x' }] },
        meta: { reducerPath: 'cache' },
      },
    ],
    [
      'a key outside the slice',
      {
        type: 'cache/set',
        payload: { patches: [{ op: 'add', path: ['elsewhere'], value: 1 }] },
        meta: { reducerPath: 'cache' },
      },
    ],
    [
      'a good patch followed by a bad one',
      {
        type: 'cache/set',
        payload: {
          patches: [
            { op: 'add', path: ['entities', 'Doc', 'z'], value: { id: 'z' } },
            { op: 'replace', path: ['lastReset'], value: null },
          ],
        },
        meta: { reducerPath: 'cache' },
      },
    ],
  ];

  test.each(malformed)('%s: the state is unchanged, and development warns INVALID_ACTION', (_, action) => {
    const { cache, store } = makeStore();
    store.dispatch(cache.setResponse(getDocs, {}, [{ id: '1', title: 'A' }]));
    const before = store.getState().cache;
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(() => store.dispatch(action as never)).not.toThrow();
    expect(store.getState().cache).toBe(before);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toContain('INVALID_ACTION');
  });

  test('DevTools skipping the first write: the later writes that need it are refused, the rest replays', () => {
    class Note extends Entity {
      id = '';
      static override key = 'Note';
    }
    const { cache, store, actions } = makeRecordingStore();
    store.dispatch(cache.setResponse(getDocs, {}, [{ id: '1', title: 'A' }]));
    store.dispatch(cache.set(docs.push, {}, { id: '2', title: 'B' }));
    store.dispatch(cache.set(Note, { id: 'n' }));
    const [, push, note] = actions;
    // Replay the log without its first action, as DevTools does when that action is skipped.
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    let state = cache.reducer(undefined, { type: '@@INIT' });
    for (const action of [push, note]) state = cache.reducer(state, action as never);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toContain('cache/set');
    expect(jsonProblems(state)).toEqual([]);
    expect(state.entities.Doc).toBeUndefined();
    expect(Object.keys(state.entities.Note ?? {})).toEqual(['n']);
  });
});

describe('what the store holds is frozen in every build', () => {
  const env = process.env.NODE_ENV;
  afterEach(() => {
    process.env.NODE_ENV = env;
  });

  test.each(['development', 'production'])('%s: rows, their nested values and tables are frozen', mode => {
    process.env.NODE_ENV = mode;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const lib = require('../../src/index') as typeof import('../../src/index');
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { configureStore } = require('@reduxjs/toolkit') as typeof import('@reduxjs/toolkit');
      class Tagged extends lib.Entity {
        id = '';
        tags: string[] = [];
        static override key = 'Tagged';
      }
      const cache = lib.createCache();
      const store = configureStore({
        reducer: { cache: cache.reducer },
        middleware: getDefault => getDefault().concat(cache.middleware),
      });
      store.dispatch(cache.set(Tagged, { id: '1', tags: ['a'] }));
      store.dispatch(cache.set(Tagged, { id: '2', tags: ['b'] }));
      const table = store.getState().cache.entities.Tagged!;
      expect(Object.isFrozen(table)).toBe(true);
      expect(Object.isFrozen(table['2'])).toBe(true);
      expect(Object.isFrozen((table['2'] as { tags: string[] }).tags)).toBe(true);
      expect(Object.isFrozen(store.getState().cache.entitiesMeta.Tagged!['2'])).toBe(true);
    });
  });
});

describe('the configureStore options docs/architecture.md gives for large caches', () => {
  function configured(preloadedState?: unknown) {
    const cache = createCache();
    const store = configureStore({
      reducer: { cache: cache.reducer },
      middleware: getDefault =>
        getDefault({
          serializableCheck: { ignoredPaths: [cache.reducerPath] },
          immutableCheck: { ignoredPaths: [cache.reducerPath] },
        }).concat(cache.middleware),
      ...(preloadedState === undefined ? {} : { preloadedState: preloadedState as { cache: CacheState } }),
    });
    return { cache, store };
  }

  test('the cache works under them, and both checks skip its slice', () => {
    const { cache, store } = configured();
    store.dispatch(cache.setResponse(getDocs, {}, [{ id: '1', title: 'A' }]));
    store.dispatch(cache.set(Doc, { id: '1', title: 'B' }));
    expect((cache.selectQuery(store.getState(), docs, {}) as Doc[])[0]!.title).toBe('B');
    // A value the serializability check would report, and a mutation the immutability check
    // would throw on, both inside the slice: neither check looks there any more.
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const odd = configured({
      cache: {
        entities: { Doc: { '1': { id: '1', at: new Map() } } },
        entitiesMeta: {},
        endpoints: {},
        meta: {},
        lastReset: 0,
      },
    });
    odd.store.dispatch({ type: 'other/any' });
    expect(errors).not.toHaveBeenCalled();
    (store.getState().cache.endpoints as Record<string, unknown>)['mutated'] = 1;
    expect(() => store.dispatch({ type: 'other/any' })).not.toThrow();
  });

  test('without them, the same value and mutation are reported (the test above can fail)', () => {
    const cache = createCache();
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const preloadedState = {
      cache: {
        entities: { Doc: { '1': { id: '1', at: new Map() } } },
        entitiesMeta: {},
        endpoints: {},
        meta: {},
        lastReset: 0,
      },
    };
    const odd = configureStore({
      reducer: { cache: cache.reducer },
      preloadedState: preloadedState as unknown as { cache: CacheState },
    });
    odd.dispatch({ type: 'other/any' });
    expect(errors).toHaveBeenCalled();
    (odd.getState().cache.endpoints as Record<string, unknown>)['mutated'] = 1;
    expect(() => odd.dispatch({ type: 'other/any' })).toThrow(/mutation/);
  });
});
