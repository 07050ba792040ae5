/**
 * What reads keep alive (docs/architecture.md, "Who owns what"). A WeakRef made or dereferenced
 * during a job keeps its target alive until the job ends, so a memo that checked its tables
 * through WeakRefs kept every copy of a table that a loop of writes and reads in one event
 * handler made (react-redux runs its selectors on every dispatch). Reads must hold tables by
 * name only, and a reset must leave nothing holding the slice it replaced.
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import type { CacheState } from '../../src/index';
import { Reader } from '../../src/memo/Reader';
import { Post } from '../fixtures/schemas';
import { makeStore } from '../fixtures/store';

const onePost = { key: ({ id }: { id: string }) => `GET /posts/${id}`, schema: Post };

function setup() {
  const { cache, store } = makeStore();
  const rows = Array.from({ length: 50 }, (_, i) => ({
    id: `p${i}`,
    title: `Post ${i}`,
    author: { id: 'u1', name: 'A' },
  }));
  store.dispatch(cache.set([Post], rows));
  store.dispatch(cache.setResponse(onePost, { id: 'p1' }, rows[1]));
  const slice = () => store.getState().cache as CacheState;
  return { cache, store, slice };
}

/** Every table and map of `state`: what a read must not hold, strongly or through a WeakRef. */
function stateObjects(state: CacheState, into: Set<object>): void {
  for (const map of [state.entities, state.entitiesMeta]) {
    into.add(map);
    for (const table of Object.values(map)) into.add(table as object);
  }
}

test('a loop of writes and reads makes no WeakRef to a table or map, nor dereferences one', () => {
  const { cache, store, slice } = setup();
  const seen = new Set<object>();
  const targets: unknown[] = [];
  const Original = globalThis.WeakRef;
  class CountingWeakRef<T extends WeakKey> extends Original<T> {
    constructor(target: T) {
      super(target);
      targets.push(target);
    }
    override deref(): T | undefined {
      const target = super.deref();
      targets.push(target);
      return target;
    }
  }
  globalThis.WeakRef = CountingWeakRef as WeakRefConstructor;
  try {
    for (let i = 0; i < 20; i++) {
      store.dispatch(cache.set(Post, { id: `p${(i % 40) + 5}`, title: `step ${i}` }));
      stateObjects(slice(), seen);
      cache.selectQuery(store.getState(), Post, { id: 'p0' });
      cache.selectQuery(store.getState(), [Post]);
      cache.selectResponse(store.getState(), onePost, { id: 'p1' });
      // Not fetched, but cached: its expiry is that of the rows it reads (from entitiesMeta).
      cache.selectResponse(store.getState(), onePost, { id: 'p0' });
    }
  } finally {
    globalThis.WeakRef = Original;
  }
  expect(targets.filter(target => seen.has(target as object)).length).toBe(0);
});

test("a read's memo entry names the tables it read by number: it holds no table, old or current", () => {
  const { cache, store, slice } = setup();
  const reader = new Reader({ argsCacheSize: 10, lensCacheSize: 4, maxEntityDepth: 64 });
  const first = slice();
  const entry = reader.query(first, Post, [{ id: 'p0' }]) as unknown as { tables: unknown[][] };
  store.dispatch(cache.set(Post, { id: 'p9', title: 'elsewhere' }));
  const second = slice();
  expect(second.entities.Post).not.toBe(first.entities.Post);
  // A change that missed the rows read keeps the entry, moved to the new tables.
  expect(reader.query(second, Post, [{ id: 'p0' }])).toBe(entry);
  const held = new Set<object>();
  stateObjects(first, held);
  stateObjects(second, held);
  const reached: unknown[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (typeof value !== 'object' || value === null || depth > 4) return;
    reached.push(value);
    for (const field of Object.values(value)) visit(field, depth + 1);
  };
  visit(entry.tables, 0);
  expect(reached.filter(value => held.has(value as object))).toEqual([]);
  for (const [table, seen] of entry.tables) {
    expect(typeof table).toBe('string');
    expect(typeof seen).toBe('number');
  }
});

/** A full garbage collection (V8's, exposed for this test). */
function collect(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

test('after resetEntireStore, nothing the cache keeps holds the slice it replaced', async () => {
  const { cache, store } = setup();
  // Made in a function of its own, so this test's frame does not hold the slice either.
  const weakly = (): WeakRef<object> => {
    cache.selectQuery(store.getState(), [Post]);
    cache.selectResponse(store.getState(), onePost, { id: 'p1' });
    return new WeakRef(store.getState().cache as object);
  };
  const before = weakly();
  store.dispatch(cache.resetEntireStore());
  // In a later job: a WeakRef keeps its target until the end of the job that made it.
  await new Promise(resolve => setImmediate(resolve));
  collect();
  collect();
  expect(before.deref() === undefined).toBe(true);
  expect(cache.selectQuery(store.getState(), Post, { id: 'p0' })).toBeUndefined();
});
