/**
 * The reducer's patch applier (src/store/slice/applyPatches.ts; see docs/architecture.md, "Writes"): structural
 * sharing, one copy per container per write, and `__proto__`-safe tables.
 */
import type { Patch } from '../../src/index';
import { applyPatches } from '../../src/store/slice/applyPatches';
import { Post } from '../fixtures/schemas';
import { makeStore, snapshot } from '../fixtures/store';

interface Slice {
  entities: Record<string, Record<string, unknown>>;
  entitiesMeta: Record<string, Record<string, unknown>>;
  endpoints: Record<string, unknown>;
  meta: Record<string, unknown>;
  lastReset: number;
}

/** A slice built by a real cache: two posts, two users, one comment, deep-frozen. */
function cachedSlice(): Slice {
  const { cache, store } = makeStore();
  store.dispatch(
    cache.set(
      [Post],
      [
        {
          id: 'p1',
          title: 'One',
          author: { id: 'u1', name: 'Ada' },
          comments: [{ id: 'c1', body: 'hi', author: 'u2' }],
        },
        { id: 'p2', title: 'Two', author: { id: 'u2', name: 'Bob' } },
      ],
    ),
  );
  return deepFreeze(store.getState()[cache.reducerPath] as unknown as Slice);
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return Object.freeze(value);
}

const hasOwn = (object: unknown, key: string) => Object.prototype.hasOwnProperty.call(object, key);

describe('structural sharing', () => {
  test('untouched tables, rows and maps keep their identity; the input is not mutated', () => {
    const state = cachedSlice();
    const before = snapshot(state);
    const next = applyPatches(state, [
      { op: 'replace', path: ['entities', 'User', 'u1'], value: { id: 'u1', name: 'Ada L' } },
    ]);
    expect(snapshot(state)).toEqual(before);
    expect(next).not.toBe(state);
    expect(next.entities).not.toBe(state.entities);
    expect(next.entities['User']).not.toBe(state.entities['User']);
    expect(next.entities['User']?.['u1']).toEqual({ id: 'u1', name: 'Ada L' });
    expect(next.entities['User']?.['u2']).toBe(state.entities['User']?.['u2']);
    expect(next.entities['Post']).toBe(state.entities['Post']);
    expect(next.entities['Comment']).toBe(state.entities['Comment']);
    expect(next.entitiesMeta).toBe(state.entitiesMeta);
    expect(next.endpoints).toBe(state.endpoints);
    expect(next.meta).toBe(state.meta);
    expect(next.lastReset).toBe(0);
  });

  test('no patches return the very same state', () => {
    const state = cachedSlice();
    expect(applyPatches(state, [])).toBe(state);
  });

  test('several patches on one table in one call all land, in order', () => {
    const state = cachedSlice();
    const next = applyPatches(state, [
      { op: 'add', path: ['entities', 'User', 'u3'], value: { id: 'u3', name: 'Cy' } },
      { op: 'replace', path: ['entities', 'User', 'u1'], value: { id: 'u1', name: 'First' } },
      { op: 'replace', path: ['entities', 'User', 'u1'], value: { id: 'u1', name: 'Second' } },
      { op: 'remove', path: ['entities', 'User', 'u2'] },
      { op: 'add', path: ['entitiesMeta', 'User', 'u3'], value: { fetchedAt: 1, date: 1, expiresAt: 2 } },
    ]);
    expect(Object.keys(next.entities['User'] ?? {})).toEqual(['u1', 'u3']);
    expect(next.entities['User']?.['u1']).toEqual({ id: 'u1', name: 'Second' });
    expect(next.entitiesMeta['User']?.['u3']).toEqual({ fetchedAt: 1, date: 1, expiresAt: 2 });
    expect(hasOwn(state.entities['User'], 'u2')).toBe(true);
    expect(hasOwn(state.entities['User'], 'u3')).toBe(false);
    expect(next.entities['Post']).toBe(state.entities['Post']);
  });

  test('array rows are copied, not mutated: "-" appends, indexes insert/replace/remove', () => {
    const state = applyPatches(cachedSlice(), [
      { op: 'add', path: ['entities', '[Post]'], value: {} },
      { op: 'add', path: ['entities', '[Post]', '{}'], value: Object.freeze(['p1']) },
    ]);
    const list = state.entities['[Post]']?.['{}'];
    const next = applyPatches(state, [
      { op: 'add', path: ['entities', '[Post]', '{}', '-'], value: 'p2' },
      { op: 'add', path: ['entities', '[Post]', '{}', 0], value: 'p0' },
      { op: 'replace', path: ['entities', '[Post]', '{}', 1], value: 'p1b' },
      { op: 'remove', path: ['entities', '[Post]', '{}', 2] },
    ]);
    expect(list).toEqual(['p1']);
    expect(next.entities['[Post]']?.['{}']).toEqual(['p0', 'p1b']);
  });

  test('each container on a patched path is copied once per call, not once per patch', () => {
    const rows = 20_000;
    const patches = 400;
    const rowsByKey = Object.create(null) as Record<string, unknown>;
    for (let i = 0; i < rows; i++) rowsByKey[`k${i}`] = { id: `k${i}` };
    // Count the copies without timing anything: every copy of the table lists its keys once.
    let tableCopies = 0;
    const table = new Proxy(rowsByKey, {
      ownKeys: target => {
        tableCopies++;
        return Reflect.ownKeys(target);
      },
    });
    const state = { entities: Object.assign(Object.create(null), { Big: table }), entitiesMeta: Object.create(null) };
    const list: Patch[] = [];
    for (let i = 0; i < patches; i++)
      list.push({ op: 'add', path: ['entities', 'Big', `n${i}`], value: { id: `n${i}` } });

    const next = applyPatches(state, list);
    const copies = tableCopies;

    expect(Object.keys(next.entities['Big'] as object)).toHaveLength(rows + patches);
    expect(Object.keys(rowsByKey)).toHaveLength(rows);
    // One copy of the 20,000-row table for the whole write, not one per patch.
    expect(copies).toBe(1);
  });
});

describe('prototype safety', () => {
  test('tables are null-prototype objects, also when a patch adds a new table or replaces the root', () => {
    const state = cachedSlice();
    expect(Object.getPrototypeOf(state.entities['User'])).toBeNull();
    const next = applyPatches(state, [{ op: 'add', path: ['entities', 'Fresh'], value: {} }]);
    expect(Object.getPrototypeOf(next.entities['Fresh'])).toBeNull();
    expect(Object.getPrototypeOf(next.entities)).toBeNull();

    const replaced = applyPatches(state, [{ op: 'replace', path: [], value: snapshot(state) }]);
    expect(snapshot(replaced)).toEqual(snapshot(state));
    expect(Object.getPrototypeOf(replaced.entities)).toBeNull();
    expect(Object.getPrototypeOf(replaced.entities['User'])).toBeNull();
    expect(Object.getPrototypeOf(replaced.entitiesMeta['User'])).toBeNull();
    expect(Object.getPrototypeOf(replaced.endpoints)).toBeNull();
    expect(Object.getPrototypeOf(replaced.meta)).toBeNull();
  });

  test('a __proto__ row key is stored as an own property and changes no prototype', () => {
    const state = cachedSlice();
    const row = { id: '__proto__', name: 'Proto' };
    const next = applyPatches(state, [
      { op: 'add', path: ['entities', 'User', '__proto__'], value: row },
      { op: 'add', path: ['entities', 'User', 'constructor'], value: { id: 'constructor' } },
      { op: 'add', path: ['entitiesMeta', 'User', '__proto__'], value: { fetchedAt: 1, date: 1, expiresAt: 2 } },
    ]);
    const users = next.entities['User'];
    expect(hasOwn(users, '__proto__')).toBe(true);
    expect(users?.['__proto__']).toBe(row);
    expect(Object.getPrototypeOf(users)).toBeNull();
    expect(hasOwn(users, 'constructor')).toBe(true);
    expect(Object.keys(users ?? {})).toEqual(['u1', 'u2', '__proto__', 'constructor']);
    expect(hasOwn(next.entitiesMeta['User'], '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['name']).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });

  test('__proto__ as a table key, an endpoint key, and inside a table value from JSON.parse', () => {
    const state = cachedSlice();
    const next = applyPatches(state, [
      { op: 'add', path: ['entities', '__proto__'], value: {} },
      { op: 'add', path: ['entities', '__proto__', '1'], value: { id: '1' } },
      { op: 'add', path: ['endpoints', '__proto__'], value: ['1'] },
      { op: 'add', path: ['meta', '__proto__'], value: { fetchedAt: 1, date: 1, expiresAt: 2 } },
      {
        op: 'add',
        path: ['entities', 'Parsed'],
        value: JSON.parse('{"__proto__": {"id": "__proto__"}, "a": {"id": "a"}}'),
      },
    ]);
    expect(hasOwn(next.entities, '__proto__')).toBe(true);
    expect(next.entities['__proto__']?.['1']).toEqual({ id: '1' });
    expect(hasOwn(next.endpoints, '__proto__')).toBe(true);
    expect(next.endpoints['__proto__']).toEqual(['1']);
    expect(hasOwn(next.meta, '__proto__')).toBe(true);
    const parsed = next.entities['Parsed'];
    expect(Object.getPrototypeOf(parsed)).toBeNull();
    expect(hasOwn(parsed, '__proto__')).toBe(true);
    expect(parsed?.['__proto__']).toEqual({ id: '__proto__' });
    expect(Object.keys(parsed ?? {})).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['id']).toBeUndefined();
  });
});

describe('patches into what the same write added', () => {
  test('a row added into a table, and items into a list, the same call added: they land, the values given stay as they were', () => {
    const state = cachedSlice();
    const table = Object.freeze(Object.assign(Object.create(null), { a: Object.freeze({ id: 'a' }) }));
    const list = Object.freeze(['p1']);
    const next = applyPatches(state, [
      { op: 'add', path: ['entities', 'Fresh'], value: table },
      { op: 'add', path: ['entities', 'Fresh', 'b'], value: { id: 'b' } },
      { op: 'add', path: ['entities', '[Post]'], value: Object.create(null) },
      { op: 'add', path: ['entities', '[Post]', '{}'], value: list },
      { op: 'add', path: ['entities', '[Post]', '{}', 1], value: 'p2' },
      { op: 'replace', path: ['entities', 'Fresh', 'a'], value: { id: 'a', n: 1 } },
    ]);
    expect({ ...next.entities['Fresh'] }).toEqual({ a: { id: 'a', n: 1 }, b: { id: 'b' } });
    expect(next.entities['[Post]']?.['{}']).toEqual(['p1', 'p2']);
    expect(Object.keys(table)).toEqual(['a']);
    expect(list).toEqual(['p1']);
    // What the write made is frozen below the maps, as every write's is.
    expect(Object.isFrozen(next.entities['Fresh'])).toBe(true);
    expect(Object.isFrozen(next.entities['Fresh']?.['b'])).toBe(true);
    expect(Object.isFrozen(next.entities['[Post]']?.['{}'])).toBe(true);
    expect(Object.isFrozen(next.entities)).toBe(false);
    expect(Object.isFrozen(next)).toBe(false);
  });
});

describe('refused whole', () => {
  test('a list that fails part way is refused with INVALID_ACTION, and the state is not changed', () => {
    const state = cachedSlice();
    const before = snapshot(state);
    expect(() =>
      applyPatches(state, [
        { op: 'replace', path: ['entities', 'User', 'u1'], value: { id: 'u1', name: 'changed' } },
        { op: 'add', path: ['entities', 'Missing', 'x', 0], value: 'x' },
      ]),
    ).toThrow(expect.objectContaining({ code: 'INVALID_ACTION' }));
    expect(snapshot(state)).toEqual(before);
  });
});

test('a patch to a "__proto__" field inside a row writes data, never the prototype', () => {
  const state = applyPatches(cachedSlice(), [
    { op: 'add', path: ['entities', 'User', 'u9'], value: JSON.parse('{"id":"u9","__proto__":{"n":1}}') },
  ]);
  const next = applyPatches(state, [{ op: 'replace', path: ['entities', 'User', 'u9', '__proto__'], value: 2 }]);
  const row = next.entities['User']?.['u9'] as Record<string, unknown>;
  expect(Object.keys(row)).toEqual(['id', '__proto__']);
  expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe(2);
  expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
  expect(({} as Record<string, unknown>)['n']).toBeUndefined();
});
