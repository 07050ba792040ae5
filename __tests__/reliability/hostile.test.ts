/**
 * Hostile input: prototype names as pks, field names, lens values and collection args; huge
 * strings; deeply nested and cyclic payloads; a lens containing `|`. Each is stored safely (and
 * read back) or rejected with a clear error and the store unchanged; nothing pollutes prototypes.
 */
import { Collection, Entity, ErrorCode, Scalar, Values, type CacheState } from '../../src/index';
import { jsonProblems } from '../fixtures/recording';
import { makeStore } from '../fixtures/store';
import { endpoint, expectRejected } from '../fixtures/writes';

class Item extends Entity {
  id = '';
  name = '';
  weight = 0;
  static override key = 'Item';
}
/** The lens is the `lens` param wherever it is: `set(Item, { lens }, value)` and `selectQuery(Item, pk, { lens })`. */
const lensOf = (args: readonly unknown[]) =>
  (args.find(arg => typeof arg === 'object' && arg !== null && 'lens' in arg) as { lens?: string } | undefined)?.lens;
const Lensed = new Scalar({ lens: lensOf, key: 'hostile', entity: Item });
Item.schema = { weight: Lensed };

class Node extends Entity {
  id = '';
  child: Node | null = null;
  static override key = 'Node';
}
Node.schema = { child: Node };

const PROTO_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'valueOf',
  '__defineGetter__',
];

afterEach(() => {
  // No write may reach Object.prototype.
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
});

describe.each(PROTO_NAMES)('the name %s', name => {
  test('as a pk: stored as an ordinary row and read back', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Item, { lens: 'a' }, { id: name, name: 'ok', weight: 1 }));
    const slice = store.getState().cache as CacheState;
    expect(Object.keys(slice.entities.Item!)).toEqual([name]);
    expect(cache.selectQuery(store.getState(), Item, name, { lens: 'a' })).toMatchObject({ id: name, name: 'ok' });
    expect(jsonProblems(slice)).toEqual([]);
  });

  test('as a field name (parsed JSON): stored as data, never as a prototype', () => {
    const { cache, store } = makeStore();
    const value = JSON.parse(`{ "id": "1", "name": "n", "${name}": { "polluted": true } }`);
    store.dispatch(cache.set(Item, { lens: 'a' }, value));
    const row = (store.getState().cache as CacheState).entities.Item!['1'] as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(row, name)?.value).toEqual({ polluted: true });
    const read = cache.selectQuery(store.getState(), Item, '1', { lens: 'a' }) as unknown as Record<string, unknown>;
    expect(read.name).toBe('n');
    expect((read as { polluted?: unknown }).polluted).toBeUndefined();
  });

  test('as a lens value: its own cells, apart from the other lenses', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Item, { lens: name }, { id: '1', name: 'n', weight: 7 }));
    store.dispatch(cache.set(Item, { lens: 'other' }, { id: '1', name: 'n', weight: 8 }));
    expect(cache.selectQuery(store.getState(), Item, '1', { lens: name })?.weight).toBe(7);
    expect(cache.selectQuery(store.getState(), Item, '1', { lens: 'other' })?.weight).toBe(8);
    expect(Object.keys((store.getState().cache as CacheState).entities['Scalar(hostile)']!)).toEqual([
      `Item|1|${name}`,
      'Item|1|other',
    ]);
  });

  test('as collection args (key and value): its own list', () => {
    const { cache, store } = makeStore();
    const list = new Collection([Item]);
    const getList = endpoint('list', list);
    store.dispatch(cache.setResponse(getList, { [name]: name, lens: 'a' }, [{ id: '1', name: 'n', weight: 1 }]));
    store.dispatch(cache.setResponse(getList, { group: 'plain', lens: 'a' }, [{ id: '2', name: 'm', weight: 2 }]));
    expect(cache.selectQuery(store.getState(), list, { [name]: name, lens: 'a' })?.map(item => item.id)).toEqual(['1']);
    expect(cache.selectQuery(store.getState(), list, { group: 'plain', lens: 'a' })?.map(item => item.id)).toEqual([
      '2',
    ]);
  });

  test('as a Values key: an ordinary entry', () => {
    const { cache, store } = makeStore();
    const byKey = endpoint('values', new Values(Item));
    store.dispatch(cache.setResponse(byKey, { lens: 'a' }, { [name]: { id: 'v', name: 'x', weight: 3 } }));
    const read = cache.selectResponse(store.getState(), byKey, { lens: 'a' }).data as Record<string, Item>;
    expect(Object.getOwnPropertyDescriptor(read, name)?.value).toMatchObject({ id: 'v' });
  });
});

test('a lens containing | is rejected with INVALID_LENS, and the store is unchanged', () => {
  const { cache, store } = makeStore();
  store.dispatch(cache.set(Item, { lens: 'a' }, { id: '1', name: 'n', weight: 1 }));
  const error = expectRejected(
    store,
    () => store.dispatch(cache.set(Item, { lens: 'a|b' }, { id: '1', name: 'n', weight: 2 })),
    ErrorCode.INVALID_LENS,
  );
  expect(error.message).toContain('|');
  // Read with such a lens: undefined, never a cell of another lens.
  expect(cache.selectQuery(store.getState(), Item, '1', { lens: 'a|b' })?.weight).toBeUndefined();
});

test('a missing lens is rejected with LENS_UNDEFINED, and the store is unchanged', () => {
  const { cache, store } = makeStore();
  expectRejected(
    store,
    () => store.dispatch(cache.set(Item, { id: '1', name: 'n', weight: 2 })),
    ErrorCode.LENS_UNDEFINED,
  );
});

test('huge strings (5 MB) as a field, a pk and a lens are stored and read back', () => {
  const { cache, store } = makeStore();
  const huge = 'x'.repeat(5_000_000);
  store.dispatch(cache.set(Item, { lens: huge }, { id: huge, name: huge, weight: 1 }));
  const read = cache.selectQuery(store.getState(), Item, huge, { lens: huge });
  expect(read?.name.length).toBe(5_000_000);
  expect(read?.weight).toBe(1);
});

test('entity nesting deeper than maxEntityDepth is rejected with MAX_DEPTH_EXCEEDED, and the store is unchanged', () => {
  const { cache, store } = makeStore({ maxEntityDepth: 64 });
  let deep: Record<string, unknown> = { id: 'leaf', child: null };
  for (let i = 0; i < 100; i++) deep = { id: `n${i}`, child: deep };
  expectRejected(store, () => store.dispatch(cache.set(Node, deep)), ErrorCode.MAX_DEPTH_EXCEEDED);
});

test('a plain field nested 100,000 levels deep is rejected clearly (a LensCacheError, not a stack overflow), and the store is unchanged', () => {
  const { cache, store } = makeStore();
  let deep: Record<string, unknown> = {};
  for (let i = 0; i < 100_000; i++) deep = { d: deep };
  expectRejected(
    store,
    () => store.dispatch(cache.set(Item, { lens: 'a' }, { id: '1', name: deep as never, weight: 1 })),
    ErrorCode.MAX_DEPTH_EXCEEDED,
  );
});

test('cyclic payloads are rejected clearly, in a plain field and through entities', () => {
  const { cache, store } = makeStore();
  const plain: Record<string, unknown> = { id: '1', name: 'n', weight: 1 };
  plain.self = plain;
  const error = expectRejected(
    store,
    () => store.dispatch(cache.set(Item, { lens: 'a' }, plain)),
    ErrorCode.UNEXPECTED_INPUT,
  );
  expect(error.message).toMatch(/circular/);
  // Through entities a cycle is fine: rows hold pks, so it is stored by reference.
  const a: Record<string, unknown> = { id: 'a', child: null };
  const b: Record<string, unknown> = { id: 'b', child: a };
  a.child = b;
  store.dispatch(cache.set(Node, a));
  const read = cache.selectQuery(store.getState(), Node, 'a');
  expect(read?.child?.child).toBe(read);
});
