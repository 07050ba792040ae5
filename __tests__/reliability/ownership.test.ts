/**
 * The store owns what it holds: after `set`, `setResponse` or `resolve`, nested raw fields of rows
 * (a `tags` array, a nested plain object) and schema-less results are the store's own frozen
 * copies. A caller who mutates the objects they wrote changes nothing in the state, and their
 * objects are never frozen, in development and in production builds alike.
 */
import type { CacheState } from '../../src/index';

type Lib = typeof import('../../src/index');
type Rtk = typeof import('@reduxjs/toolkit');

/** The library and RTK as loaded under `nodeEnv` (the build mode is read once, at module load). */
function load(nodeEnv: string): { lib: Lib; rtk: Rtk; development: boolean } {
  const saved = process.env.NODE_ENV;
  process.env.NODE_ENV = nodeEnv;
  try {
    let loaded: { lib: Lib; rtk: Rtk; development: boolean } | undefined;
    jest.isolateModules(() => {
      /* eslint-disable @typescript-eslint/no-require-imports */
      const lib = require('../../src/index') as Lib;
      const rtk = require('@reduxjs/toolkit') as Rtk;
      const env = require('../../src/base/env') as typeof import('../../src/base/env');
      /* eslint-enable @typescript-eslint/no-require-imports */
      loaded = { lib, rtk, development: env.isDevelopment() };
    });
    return loaded!;
  } finally {
    process.env.NODE_ENV = saved;
  }
}

describe.each(['development', 'production'])('in a %s build', nodeEnv => {
  const { lib, rtk, development } = load(nodeEnv);

  class Doc extends lib.Entity {
    id = '';
    tags: string[] = [];
    info: { color?: string; size?: { w: number } } = {};
    static override key = 'Doc';
  }
  const docEndpoint = { key: (...args: unknown[]) => `doc ${JSON.stringify(args)}`, schema: Doc };
  const rawEndpoint = { key: (...args: unknown[]) => `raw ${JSON.stringify(args)}`, schema: undefined };

  function makeStore() {
    const cache = lib.createCache();
    const store = rtk.configureStore({
      reducer: { cache: cache.reducer },
      // RTK's immutability check would itself complain about mutated state; the test looks directly.
      middleware: getDefault =>
        getDefault({ immutableCheck: false, serializableCheck: false }).concat(cache.middleware),
    });
    const slice = () => store.getState().cache as CacheState;
    return { cache, store, slice };
  }

  const input = () => ({ id: '1', tags: ['a', 'b'], info: { color: 'red', size: { w: 1 } } });
  const mutate = (value: ReturnType<typeof input>) => {
    value.tags.push('mutated');
    value.info.color = 'mutated';
    value.info.size.w = 99;
  };
  const expectNotFrozen = (value: ReturnType<typeof input>) => {
    expect(Object.isFrozen(value)).toBe(false);
    expect(Object.isFrozen(value.tags)).toBe(false);
    expect(Object.isFrozen(value.info)).toBe(false);
    expect(Object.isFrozen(value.info.size)).toBe(false);
  };

  test('the build mode is the one named', () => {
    expect(development).toBe(nodeEnv === 'development');
  });

  test.each([
    ['set', (cache: ReturnType<typeof lib.createCache>, value: unknown) => cache.set(Doc, value)],
    [
      'setResponse',
      (cache: ReturnType<typeof lib.createCache>, value: unknown) => cache.setResponse(docEndpoint, { id: '1' }, value),
    ],
    [
      'resolve',
      (cache: ReturnType<typeof lib.createCache>, value: unknown) =>
        cache.resolve(docEndpoint, { args: [{ id: '1' }], response: value, fetchedAt: Date.now() }),
    ],
  ] as const)("mutating a row's nested array and object after %s changes nothing in the state", (_, write) => {
    const { cache, store, slice } = makeStore();
    const value = input();
    store.dispatch(write(cache, value) as never);
    const before = slice();
    const snapshot = JSON.stringify(before);
    const read = cache.selectQuery(store.getState(), Doc, '1');

    mutate(value);
    expect(slice()).toBe(before);
    expect(JSON.stringify(slice())).toBe(snapshot);
    const row = before.entities.Doc!['1'] as ReturnType<typeof input>;
    expect(row.tags).toEqual(['a', 'b']);
    expect(row.info).toEqual({ color: 'red', size: { w: 1 } });
    expect(cache.selectQuery(store.getState(), Doc, '1')).toBe(read);
    expect(read?.tags).toEqual(['a', 'b']);

    expectNotFrozen(value);
    // What the store owns is frozen, in every build.
    expect(Object.isFrozen(row.tags)).toBe(true);
    expect(Object.isFrozen(row.info)).toBe(true);
    expect(Object.isFrozen(row.info.size)).toBe(true);
  });

  test('mutating a schema-less result after setResponse changes nothing in the state', () => {
    const { cache, store, slice } = makeStore();
    const value = input();
    store.dispatch(cache.setResponse(rawEndpoint, { q: 1 }, value));
    const before = slice();
    const snapshot = JSON.stringify(before);
    const read = cache.selectResponse(store.getState(), rawEndpoint, { q: 1 }).data;
    expect(read).toEqual(input());

    mutate(value);
    expect(slice()).toBe(before);
    expect(JSON.stringify(slice())).toBe(snapshot);
    expect(cache.selectResponse(store.getState(), rawEndpoint, { q: 1 }).data).toEqual(input());
    expectNotFrozen(value);
    const stored = before.endpoints[rawEndpoint.key({ q: 1 })] as ReturnType<typeof input>;
    expect(Object.isFrozen(stored)).toBe(true);
    expect(Object.isFrozen(stored.info.size)).toBe(true);
  });

  test('mutating a schema-less result after resolve changes nothing in the state', () => {
    const { cache, store, slice } = makeStore();
    const value = [input()];
    store.dispatch(cache.resolve(rawEndpoint, { args: [], response: value, fetchedAt: Date.now() }));
    const snapshot = JSON.stringify(slice());
    value[0]!.tags.length = 0;
    value.push(input());
    expect(JSON.stringify(slice())).toBe(snapshot);
    expect(Object.isFrozen(value)).toBe(false);
  });

  test('what was read (frozen) can be written back', () => {
    const { cache, store, slice } = makeStore();
    store.dispatch(cache.set(Doc, input()));
    store.dispatch(
      cache.set(Doc, '1', (previous: Doc | undefined) => ({ ...previous, info: { ...previous?.info, color: 'blue' } })),
    );
    const row = slice().entities.Doc!['1'] as ReturnType<typeof input>;
    expect(row).toEqual({ id: '1', tags: ['a', 'b'], info: { color: 'blue', size: { w: 1 } } });
    expect(Object.isFrozen(row.info.size)).toBe(true);
  });

  test('symbol-keyed properties are never stored (JSON drops them too)', () => {
    const { cache, store, slice } = makeStore();
    const secret = Symbol('secret');
    const value = {
      id: '1',
      tags: Object.assign(['a'], { [secret]: 1 }),
      info: { color: 'red', [secret]: 2 },
      [secret]: 3,
    };
    store.dispatch(cache.set(Doc, value));
    store.dispatch(cache.setResponse(rawEndpoint, {}, { list: [{ [secret]: 4, n: 1 }], [secret]: 5 }));
    const row = slice().entities.Doc!['1'] as Record<PropertyKey, unknown>;
    expect(Object.getOwnPropertySymbols(row)).toEqual([]);
    expect(Object.getOwnPropertySymbols(row.tags)).toEqual([]);
    expect(Object.getOwnPropertySymbols(row.info)).toEqual([]);
    const result = slice().endpoints[rawEndpoint.key({})] as { list: object[] };
    expect(Object.getOwnPropertySymbols(result)).toEqual([]);
    expect(Object.getOwnPropertySymbols(result.list[0]!)).toEqual([]);
    expect(JSON.parse(JSON.stringify(slice()))).toEqual(JSON.parse(JSON.stringify(slice())));
  });
});
